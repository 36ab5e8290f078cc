"""An optimizer's own ``step`` skips the parameters that have no gradient
(``if p.grad is not None:``), Liuhong99/Sophia's ``SophiaG``: that test does not make
the step conditional. A parameter without a gradient has nothing to apply and nothing a
clear could discard, so the update counts as run. Read as conditional, the every-iteration
clear after the unconditional ``optimizer.step()`` looked like it broke an accumulation
window ("the manual update steps only on some", a false ZG103) once a backward in a
branch was left uncleared.

A hand-written update under an accumulation condition is still conditional: the clear
on every iteration discards the window there."""

import torch
from torch import nn


class SophiaG(torch.optim.Optimizer):
    def __init__(self, params, lr=1e-4):
        super().__init__(params, dict(lr=lr))

    def update_hessian(self):
        return None

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is not None:
                    p.add_(p.grad, alpha=-group["lr"])


def train(model, batches, hess_interval):
    optimizer = SophiaG(model.parameters())
    for iter_num, x in enumerate(batches):
        model(x).pow(2).mean().backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        if iter_num % hess_interval == hess_interval - 1:
            model(x).pow(2).mean().backward()
            optimizer.update_hessian()


def train_by_hand(model, loader, criterion, k, lr):
    for i, (x, y) in enumerate(loader):
        criterion(model(x), y).backward()
        if (i + 1) % k == 0:
            with torch.no_grad():
                for p in model.parameters():
                    if p.grad is not None:
                        p -= lr * p.grad
        model.zero_grad()  # expect: ZG103
