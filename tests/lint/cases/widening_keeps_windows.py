"""Many paths (conditions tested twice around a correct accumulation loop) make the flow
check widen: it forgets assumptions so that paths merge. The conditions of accumulation
windows (accelerate's sync flag, ``(i + 1) % k == 0``) and of the last iteration are
kept: forgetting them joined a path that stepped (the window's last micro-batch) to one
that skipped the clear (another micro-batch), a pair the program never runs: a false
ZG101 on diffusers' ``train_dreambooth_lora_sdxl.py`` and on hand-written loops whose step
and clear sit under two tests of one condition."""

import torch


def log(msg):
    print(msg)


def accelerate_window(model, loader, optimizer, accelerator, args):
    for x in loader:
        with accelerator.accumulate(model):
            if args.a: log(1)
            if args.b: log(2)
            if args.c: log(3)
            if args.d: log(4)
            if args.e: log(5)
            if args.f: log(6)
            accelerator.backward(model(x))
            optimizer.step()
            optimizer.zero_grad()
            if args.a: log(1)
            if args.b: log(2)
            if args.c: log(3)
            if args.d: log(4)
            if args.e: log(5)
            if args.f: log(6)


def split_guard_window(model, loader, optimizer, args, k):
    for i, x in enumerate(loader):
        if args.a: log(1)
        if args.b: log(2)
        if args.c: log(3)
        if args.d: log(4)
        if args.e: log(5)
        if args.f: log(6)
        (model(x) / k).backward()
        if (i + 1) % k == 0:
            optimizer.step()
        if (i + 1) % k == 0:
            optimizer.zero_grad()
        if args.a: log(1)
        if args.b: log(2)
        if args.c: log(3)
        if args.d: log(4)
        if args.e: log(5)
        if args.f: log(6)


def split_guard_window_clear_forgotten(model, loader, optimizer, args, k):
    for i, x in enumerate(loader):
        if args.a: log(1)
        if args.b: log(2)
        if args.c: log(3)
        if args.d: log(4)
        if args.e: log(5)
        if args.f: log(6)
        (model(x) / k).backward()  # expect: ZG101
        if (i + 1) % k == 0:
            optimizer.step()
        if args.a: log(1)
        if args.b: log(2)
        if args.c: log(3)
        if args.d: log(4)
        if args.e: log(5)
        if args.f: log(6)
