"""A callee's test of a parameter is the caller's test of the name it passed
(huggingface/pytorch-image-models' ``train.py``: ``loss_scaler(loss, optimizer,
need_update=need_update)`` backwards on every micro-batch and steps under ``if
need_update:`` in ``NativeScaler.__call__``; the loop skips the clear with ``if not
need_update: continue``). One condition, so the step and the clear pair: no finding.
Read as two unrelated conditions, the paths "stepped, not cleared" and "cleared, not
stepped" were reported (a false ZG101 and a false ZG103).
"""

import torch


class Scaler:
    def __init__(self):
        self._scaler = torch.cuda.amp.GradScaler()

    def __call__(self, loss, optimizer, need_update=True):
        self._scaler.scale(loss).backward()
        if need_update:
            self._scaler.step(optimizer)
            self._scaler.update()


def clear_after_the_continue(model, loader, optimizer, accum_steps):
    loss_scaler = Scaler()
    for batch_idx, (x, y) in enumerate(loader):
        need_update = (batch_idx + 1) % accum_steps == 0
        loss = model(x, y)
        loss_scaler(loss, optimizer, need_update=need_update)
        if not need_update:
            continue
        optimizer.zero_grad()


def passed_positionally(model, loader, optimizer, accum_steps):
    loss_scaler = Scaler()
    for batch_idx, (x, y) in enumerate(loader):
        last = (batch_idx + 1) % accum_steps == 0
        loss = model(x, y)
        loss_scaler(loss, optimizer, last)
        if last:
            optimizer.zero_grad()


class LoggedScaler:
    def __init__(self):
        self._scaler = torch.cuda.amp.GradScaler()

    def __call__(self, loss, optimizer, need_update=True):
        self._scaler.scale(loss).backward()  # expect: ZG101
        if need_update:
            self._scaler.step(optimizer)
            self._scaler.update()


def never_cleared(model, loader, optimizer, accum_steps):
    loss_scaler = LoggedScaler()
    for batch_idx, (x, y) in enumerate(loader):
        need_update = (batch_idx + 1) % accum_steps == 0
        loss = model(x, y)
        loss_scaler(loss, optimizer, need_update=need_update)
        if not need_update:
            continue
        log(loss)
