# A clear after the `continue` that skips to the next micro-batch until a window is full
# runs once per window, not on every iteration: skipping the step there (a NaN gradient
# norm) and clearing throws that window away on purpose (s3prl's runners). A stopping
# test named like accumulation (`if num_updates >= max_update: break`) ends the loop and
# a checkpoint's (`if num_updates % save_interval == 0:`) saves: neither gates a window
# (SpanBERT's fairseq trainer, whose step may raise an overflow and skip it).
import math

import torch


def nan_window_skipped_then_cleared(model, dataloader, params, accumulate_steps):
    optimizer = torch.optim.Adam(params)
    backward_steps = 0
    for wavs in dataloader:
        (model(wavs) / accumulate_steps).backward()
        backward_steps += 1
        if backward_steps % accumulate_steps > 0:
            continue
        grad_norm = torch.nn.utils.clip_grad_norm_(params, 1.0)
        if math.isnan(grad_norm):
            print("grad norm is NaN")
        else:
            optimizer.step()
        optimizer.zero_grad()


class Trainer:
    def __init__(self, model, optimizer):
        self.model = model
        self.optimizer = optimizer

    def train_step(self, samples):
        self.optimizer.zero_grad()
        self.model(samples).backward()
        try:
            self.optimizer.step()
        except OverflowError as error:
            print("overflow detected, " + str(error))


def train_until_max_update(args, trainer):
    for samples in args.progress:
        trainer.train_step(samples)
        if args.num_updates >= args.max_update:
            break


def train_with_checkpoints(args, trainer, save_checkpoint):
    for samples in args.progress:
        trainer.train_step(samples)
        num_updates = trainer.get_num_updates()
        if num_updates % args.save_interval_updates == 0:
            save_checkpoint(args, trainer)


def window_guard_without_a_clear(model, optimizer, loader, k):
    n = 0
    for x in loader:
        model(x).backward()  # expect: ZG101
        n += 1
        if n % k > 0:
            continue
        optimizer.step()


def dedented_clear_after_an_unrelated_guard(model, optimizer, loader, k):
    for i, x in enumerate(loader):
        if x is None:
            continue
        model(x).backward()
        if (i + 1) % k == 0:
            optimizer.step()
        optimizer.zero_grad()  # expect: ZG103


def dedented_clear_after_a_stopping_test(model, optimizer, loader, k, args):
    for i, x in enumerate(loader):
        if args.num_updates >= args.max_update:
            break
        model(x).backward()
        if (i + 1) % k == 0:
            optimizer.step()
        optimizer.zero_grad()  # expect: ZG103
