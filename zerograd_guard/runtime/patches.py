"""The wrapped methods, and why each wrap is needed.

* ``torch.optim.Optimizer.zero_grad`` and ``torch.nn.Module.zero_grad``: torch has no
  hook for a clear. ``zero_grad(set_to_none=False)`` bumps the gradient's version
  exactly like ``clip_grad_norm_`` or ``GradScaler.unscale_`` do, so after a backward
  pass only the call itself tells a clear from a legitimate in-place edit.
* ``torch.optim.Optimizer.add_param_group`` (called by every optimizer's constructor):
  parameters of an optimizer built under the guard are watched from before their
  first backward pass, so its first step is judged too.
* ``torch.utils.swap_tensors`` (also reached by ``model.to()`` under
  ``torch.__future__.set_swap_module_params_on_conversion(True)``): it refuses tensors
  that have weak references, and the guard holds its parameters and gradients weakly.
  The wrapper lets go of those references for the swap and takes them again after
  (the Python objects keep their identity through a swap).
* ``GradScaler.step``: on inf/NaN it skips ``optimizer.step()`` and no step hook fires;
  the skipped step is still a step boundary (else the next clear looks like it discards
  gradients).

Each wrapper calls the original first, unchanged, then reports to the monitor. The
original function object is put back on exit; if another library wrapped on top of
ours meanwhile, ours stays in place but turns into a plain pass-through.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable
from typing import Any, Protocol

import torch

try:  # torch >= 2.3: one GradScaler for every device; torch.cuda.amp's subclasses it.
    from torch.amp.grad_scaler import GradScaler as _AmpGradScaler
except ImportError:  # pragma: no cover - torch 2.1/2.2
    _AmpGradScaler = None


class Observer(Protocol):
    """What the wrappers report to (the monitor)."""

    active: bool

    def optimizer_cleared(self, optimizer: torch.optim.Optimizer) -> None: ...

    def optimizer_grouped(self, optimizer: torch.optim.Optimizer) -> None: ...

    def module_cleared(self, module: torch.nn.Module) -> None: ...

    def step_count(self, optimizer: torch.optim.Optimizer) -> int: ...

    def scaler_stepped(self, optimizer: torch.optim.Optimizer, steps_before: int) -> None: ...

    def swapping(
        self, tensors: tuple[torch.Tensor, ...]
    ) -> contextlib.AbstractContextManager[None]: ...


class Patches:
    """Install and restore the wrappers; ``installed`` lists (owner, name, original, wrapper)."""

    def __init__(self, observer: Observer) -> None:
        self._observer = observer
        self._installed: list[tuple[Any, str, Callable[..., Any], Callable[..., Any]]] = []

    def install(self) -> None:
        observer = self._observer
        self._wrap(torch.optim.Optimizer, "zero_grad", _after(observer.optimizer_cleared))
        self._wrap(torch.optim.Optimizer, "add_param_group", _after(observer.optimizer_grouped))
        self._wrap(torch.nn.Module, "zero_grad", _after(observer.module_cleared))
        for scaler_class in _scaler_classes():
            self._wrap(scaler_class, "step", _scaler_step(observer))
        self._wrap(torch.utils, "swap_tensors", _swap_tensors(observer))

    def restore(self) -> None:
        for owner, name, original, wrapper in reversed(self._installed):
            if owner.__dict__.get(name) is wrapper:
                setattr(owner, name, original)
            else:
                wrapper.__zerograd_inert__ = True  # type: ignore[attr-defined]
        self._installed.clear()

    def _wrap(
        self,
        owner: Any,
        name: str,
        make: Callable[[Callable[..., Any]], Callable[..., Any]],
    ) -> None:
        original = owner.__dict__[name]
        # Our inert wrapper from an earlier guard, put back on top by another patcher's
        # undo: wrap what it wraps, so this guard's exit restores the true original.
        while getattr(original, "__zerograd_inert__", False):
            original = original.__wrapped__
        wrapper = functools.wraps(original)(make(original))
        wrapper.__zerograd_inert__ = False  # type: ignore[attr-defined]
        setattr(owner, name, wrapper)
        self._installed.append((owner, name, original, wrapper))


def _after(report: Callable[[Any], None]) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def make(original: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
            result = original(self, *args, **kwargs)
            if not wrapper.__zerograd_inert__:  # type: ignore[attr-defined]
                report(self)
            return result

        return wrapper

    return make


def _scaler_step(observer: Observer) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def make(original: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(self: Any, optimizer: Any, *args: Any, **kwargs: Any) -> Any:
            if wrapper.__zerograd_inert__ or not observer.active:  # type: ignore[attr-defined]
                return original(self, optimizer, *args, **kwargs)
            steps_before = observer.step_count(optimizer)
            result = original(self, optimizer, *args, **kwargs)
            observer.scaler_stepped(optimizer, steps_before)
            return result

        return wrapper

    return make


def _swap_tensors(observer: Observer) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def make(original: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(t1: Any, t2: Any, *args: Any, **kwargs: Any) -> Any:
            if wrapper.__zerograd_inert__ or not observer.active:  # type: ignore[attr-defined]
                return original(t1, t2, *args, **kwargs)
            with observer.swapping((t1, t2)):
                return original(t1, t2, *args, **kwargs)

        return wrapper

    return make


def _scaler_classes() -> list[type]:
    classes: list[type] = []
    candidates = [_AmpGradScaler, getattr(getattr(torch.cuda, "amp", None), "GradScaler", None)]
    for candidate in candidates:
        usable = isinstance(candidate, type) and "step" in candidate.__dict__
        if usable and candidate not in classes:
            classes.append(candidate)
    return classes
