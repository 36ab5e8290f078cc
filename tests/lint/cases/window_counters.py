"""Clear on the first micro-batch of each window, step on the last: counter forms (R0)."""

import torch

optimizer = torch.optim.SGD(model.parameters(), lr=0.1)


def counter_incremented_after_step(loader, k):
    step = 0
    for x in loader:
        if step % k == 0:
            optimizer.zero_grad()
        (model(x).sum() / k).backward()
        if (step + 1) % k == 0:
            optimizer.step()
        step += 1


def counter_incremented_before_step(loader, k):
    step = 0
    for x in loader:
        if step % k == 0:
            optimizer.zero_grad()
        (model(x).sum() / k).backward()
        step += 1
        if step % k == 0:
            optimizer.step()


def while_counter(data, k, total):
    it = 0
    while it < total:
        if it % k == 0:
            optimizer.zero_grad()
        (model(next(data)).sum() / k).backward()
        it += 1
        if it % k == 0:
            optimizer.step()


def window_end_written_k_minus_one(loader, k):
    for i, x in enumerate(loader):
        if i % k == 0:
            optimizer.zero_grad()
        (model(x).sum() / k).backward()
        if i % k == k - 1:
            optimizer.step()


def window_flags(loader, k):
    for i, x in enumerate(loader):
        first = i % k == 0
        last = (i + 1) % k == 0
        if first:
            optimizer.zero_grad()
        (model(x).sum() / k).backward()
        if last:
            optimizer.step()


def window_schedule(loader, schedule, k):
    for i, x in enumerate(loader):
        if schedule.starts_window(i):
            optimizer.zero_grad()
        (model(x).sum() / k).backward()
        if schedule.ends_window(i):
            optimizer.step()


def manual_counter_clear_sometimes_step_always(loader):
    step = 0
    for x in loader:
        if step % 100 == 0:
            optimizer.zero_grad()
        model(x).sum().backward()  # expect: ZG101
        optimizer.step()
        step += 1


def clear_every_hundred_step_every_window(loader, k):
    for i, x in enumerate(loader):
        if i % 100 == 0:
            optimizer.zero_grad()
        (model(x).sum() / k).backward()  # expect: ZG101
        if (i + 1) % k == 0:
            optimizer.step()


def k_minus_one_window_never_cleared(loader, k):
    for i, x in enumerate(loader):
        (model(x).sum() / k).backward()  # expect: ZG101
        if i % k == k - 1:
            optimizer.step()
