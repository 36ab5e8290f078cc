"""Small models, loops and registry probes shared by the runtime hardening tests."""

from __future__ import annotations

import weakref
from typing import Any

import torch
from torch.optim import optimizer as optim_module

from zerograd_guard.runtime import registry as registry_module
from zerograd_guard.runtime.monitor import MONITOR


def make_model(seed: int = 0, width: int = 8) -> torch.nn.Sequential:
    torch.manual_seed(seed)
    return torch.nn.Sequential(
        torch.nn.Linear(4, width), torch.nn.Tanh(), torch.nn.Linear(width, 1)
    )


def batch(seed: int = 1, rows: int = 16) -> torch.Tensor:
    return torch.randn(rows, 4, generator=torch.Generator().manual_seed(seed))


def loss_of(model: torch.nn.Module, x: torch.Tensor) -> torch.Tensor:
    return model(x).pow(2).mean()


def play_event(
    event: str, model: torch.nn.Module, opt: torch.optim.Optimizer, x: torch.Tensor
) -> None:
    """One event of a generated training loop (see ``test_fuzz_loops.EVENTS``)."""
    if event == "clear":
        opt.zero_grad()
    elif event == "clear_keep":
        opt.zero_grad(set_to_none=False)
    elif event == "module_clear":
        model.zero_grad()
    elif event.startswith("backward"):
        loss_of(model, x).backward()
        if event == "backward_clip":
            torch.nn.utils.clip_grad_norm_(model.parameters(), 0.1)
    elif event == "grad_only":
        torch.autograd.grad(loss_of(model, x), list(model.parameters()))
    else:
        opt.step()


def train(
    model: torch.nn.Module,
    opt: torch.optim.Optimizer,
    x: torch.Tensor,
    steps: int = 3,
    *,
    clear: bool = True,
) -> None:
    for _ in range(steps):
        if clear:
            opt.zero_grad()
        loss_of(model, x).backward()
        opt.step()


def registries(params: list[torch.Tensor]) -> tuple[Any, ...]:
    """Everything the guard installs, counted through torch's own registries."""
    return (
        len(optim_module._global_optimizer_pre_hooks),
        len(optim_module._global_optimizer_post_hooks),
        [len(p._backward_hooks or {}) for p in params],
        [len(getattr(p, "_post_accumulate_grad_hooks", None) or {}) for p in params],
        torch.optim.Optimizer.__dict__["zero_grad"],
        torch.nn.Module.__dict__["zero_grad"],
        torch.amp.GradScaler.__dict__["step"],
        guard_finalizers(),
    )


def guard_finalizers() -> int:
    """``weakref.finalize`` callbacks still registered by the guard's registry."""
    count = 0
    for finalizer in list(weakref.finalize._registry):  # type: ignore[attr-defined]
        info = finalizer.peek()
        if info is not None and info[1] is registry_module._forget:
            count += 1
    return count


def monitor_is_idle() -> bool:
    return not MONITOR.active and not MONITOR.registry.states and not MONITOR.registry.trackers
