"""Optimizer wrappers that call an inner torch optimizer's ``step``.

* :class:`LookaheadLike` follows the common Lookahead implementations: it
  subclasses ``Optimizer`` without calling ``Optimizer.__init__`` and shares the
  inner optimizer's param groups.
* :class:`InitializedWrapper` does call ``Optimizer.__init__`` over the same
  parameters, so both its own ``step`` and the inner one fire the global step
  hooks (nested steps).
* ``torch.optim.swa_utils`` (``AveragedModel`` + ``SWALR``) and an LR scheduler,
  which wraps ``optimizer.step`` to count calls.
"""

from __future__ import annotations

from collections.abc import Callable

import torch
from torch.optim.swa_utils import SWALR, AveragedModel

from .common import flat_parameters, regression_data, tiny_mlp


class LookaheadLike(torch.optim.Optimizer):
    """Lookahead (Zhang et al. 2019): slow weights pulled toward fast ones every ``k`` steps."""

    def __init__(self, inner: torch.optim.Optimizer, k: int = 2, alpha: float = 0.5) -> None:
        self.inner = inner
        self.param_groups = inner.param_groups
        self.defaults = inner.defaults
        self.state = inner.state
        self.k = k
        self.alpha = alpha
        self.calls = 0
        self.slow = [p.detach().clone() for group in self.param_groups for p in group["params"]]

    def zero_grad(self, set_to_none: bool = True) -> None:
        self.inner.zero_grad(set_to_none=set_to_none)

    @torch.no_grad()
    def step(self, closure: Callable[[], float] | None = None) -> float | None:
        loss = self.inner.step(closure)
        self.calls += 1
        if self.calls % self.k == 0:
            fast = [p for group in self.param_groups for p in group["params"]]
            for slow, param in zip(self.slow, fast, strict=True):
                slow.add_(param - slow, alpha=self.alpha)
                param.copy_(slow)
        return loss


class InitializedWrapper(torch.optim.Optimizer):
    """Registered as an optimizer of the same parameters: its step nests the inner one."""

    def __init__(self, inner: torch.optim.Optimizer) -> None:
        params = [p for group in inner.param_groups for p in group["params"]]
        super().__init__(params, defaults={})
        self.inner = inner

    def zero_grad(self, set_to_none: bool = True) -> None:
        self.inner.zero_grad(set_to_none=set_to_none)

    def step(self, closure: Callable[[], float] | None = None) -> float | None:
        return self.inner.step(closure)


WRAPPERS = ("lookahead", "initialized", "swa", "scheduler")


def train_wrapped(wrapper: str, optimizer_steps: int = 4, broken: bool = False) -> torch.Tensor:
    """Plain loop through ``wrapper`` (one step per batch); returns the trained weights."""
    model = tiny_mlp()
    inner = torch.optim.SGD(model.parameters(), lr=0.05)
    optimizer: torch.optim.Optimizer = inner
    scheduler: torch.optim.lr_scheduler.LRScheduler | None = None
    averaged: AveragedModel | None = None
    if wrapper == "lookahead":
        optimizer = LookaheadLike(inner)
    elif wrapper == "initialized":
        optimizer = InitializedWrapper(inner)
    elif wrapper == "swa":
        averaged = AveragedModel(model)
        scheduler = SWALR(inner, swa_lr=0.01, anneal_epochs=2)
    elif wrapper == "scheduler":
        scheduler = torch.optim.lr_scheduler.StepLR(inner, step_size=2)
    else:
        raise ValueError(f"unknown wrapper {wrapper!r}")
    data = regression_data(optimizer_steps)
    for inputs, targets in zip(data.tensors[0].split(4), data.tensors[1].split(4), strict=True):
        if not broken:
            optimizer.zero_grad()
        torch.nn.functional.mse_loss(model(inputs), targets).backward()
        optimizer.step()
        if averaged is not None:
            averaged.update_parameters(model)
        if scheduler is not None:
            scheduler.step()
    return flat_parameters(model)
