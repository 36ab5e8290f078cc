"""A name bound to a newly built object is not None: ``if grad_optimizer is not None:``
takes its body, and its ``else`` (a plain backward and step, kept for when the wrapper
is switched off by editing the line that builds it) never runs while the binding holds
(a PCGrad wrapper that accumulates per-task gradients in its own buffers and leaves
``.grad`` empty: a false ZG103 at the loop's clear, from the ``else`` branches, in
session 26's probe A). A name bound to ``None`` or to a call's result keeps both
branches."""

import torch
from torch import nn


class AccumWrapper:
    def __init__(self, optimizer):
        self._optim = optimizer
        self.params = [p for g in optimizer.param_groups for p in g["params"]]
        self.accum = [torch.zeros_like(p) for p in self.params]

    def backward(self, losses):
        for loss in losses:
            self._optim.zero_grad()
            loss.backward(retain_graph=True)
            for buf, p in zip(self.accum, self.params):
                buf += p.grad
        self._optim.zero_grad()

    def step(self):
        for buf, p in zip(self.accum, self.params):
            p.grad = buf.clone()
            buf.zero_()
        self._optim.step()


def wrapper_always_built(batches):
    model = nn.Linear(4, 2)
    optimizer = torch.optim.Adam(model.parameters())
    grad_optimizer = AccumWrapper(optimizer)
    for step, x in enumerate(batches, start=1):
        optimizer.zero_grad()
        out = model(x)
        losses = [out[:, 0].mean(), out[:, 1].mean()]
        if grad_optimizer is not None:
            grad_optimizer.backward(losses)
        else:
            sum(losses).backward()
        if step % 4 == 0:
            if grad_optimizer is not None:
                grad_optimizer.step()
            else:
                optimizer.step()


def wrapper_switched_off(batches):
    model = nn.Linear(4, 2)
    optimizer = torch.optim.Adam(model.parameters())
    grad_optimizer = None
    for step, x in enumerate(batches, start=1):
        optimizer.zero_grad()  # expect: ZG103
        out = model(x)
        losses = [out[:, 0].mean(), out[:, 1].mean()]
        if grad_optimizer is not None:
            grad_optimizer.backward(losses)
        else:
            sum(losses).backward()
        if step % 4 == 0:
            if grad_optimizer is not None:
                grad_optimizer.step()
            else:
                optimizer.step()
