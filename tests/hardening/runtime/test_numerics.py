"""The guard never changes training numerics: guarded and unguarded runs are bit-identical.

Each run mixes the paths the guard reacts to — accumulation over micro-batches, both
``zero_grad`` flavours, the legacy ``p.grad.data.zero_()`` clear (which triggers the
guard's batched value check), gradient clipping between backward and step — and
compares parameters, gradients and optimizer state with ``torch.equal``.
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import torch

from tests.hardening.runtime.helpers import batch, make_model
from zerograd_guard.runtime import GradientGuardWarning, guard

STEPS = 6
DEVICES = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])

OPTIMIZERS: dict[str, Callable[[Any], torch.optim.Optimizer]] = {
    "sgd-momentum": lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9),
    "sgd-nesterov-foreach": lambda p: torch.optim.SGD(
        p, lr=0.05, momentum=0.9, nesterov=True, foreach=True
    ),
    "sgd-momentum-fused": lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9, fused=True),
    "adam": lambda p: torch.optim.Adam(p, lr=1e-2),
    "adam-foreach": lambda p: torch.optim.Adam(p, lr=1e-2, foreach=True),
    "adam-fused": lambda p: torch.optim.Adam(p, lr=1e-2, fused=True),
    "adamw-foreach-amsgrad": lambda p: torch.optim.AdamW(p, lr=1e-2, foreach=True, amsgrad=True),
    "adamw-fused": lambda p: torch.optim.AdamW(p, lr=1e-2, fused=True),
    "rmsprop": lambda p: torch.optim.RMSprop(p, lr=1e-2),
    "rmsprop-centered-foreach": lambda p: torch.optim.RMSprop(
        p, lr=1e-2, momentum=0.5, centered=True, foreach=True
    ),
}


@contextlib.contextmanager
def guarding(guarded: bool, steps: int = STEPS) -> Iterator[None]:
    """The guard around a guarded run; it must also find nothing wrong with these loops."""
    if not guarded:
        yield
        return
    with warnings.catch_warnings():
        warnings.simplefilter("error", GradientGuardWarning)
        with guard() as session:
            yield
    assert session.report.steps_checked == steps
    assert session.report.violations == [] and session.report.warnings == []


def snapshot(model: torch.nn.Module, opt: torch.optim.Optimizer) -> list[torch.Tensor]:
    tensors = [p.detach().cpu().clone() for p in model.parameters()]
    tensors += [p.grad.detach().cpu().clone() for p in model.parameters() if p.grad is not None]
    for state in opt.state_dict()["state"].values():
        tensors += [v.detach().cpu().clone() for v in state.values() if torch.is_tensor(v)]
    return tensors


def clear(model: torch.nn.Module, opt: torch.optim.Optimizer, step: int) -> None:
    """Rotate through the clears users write; each changes what the guard observes."""
    if step % 3 == 0:
        opt.zero_grad()  # set_to_none=True
    elif step % 3 == 1:
        opt.zero_grad(set_to_none=False)
    else:
        for param in model.parameters():  # invisible to version counters: value check
            if param.grad is not None:
                param.grad.data.zero_()


def run_plain(name: str, device: str, guarded: bool) -> list[torch.Tensor]:
    model = make_model(7, width=16).to(device)
    opt = OPTIMIZERS[name](model.parameters())
    data = [batch(seed).to(device) for seed in range(2 * STEPS)]
    with guarding(guarded):
        for step in range(STEPS):
            clear(model, opt, step)
            for micro in range(2):
                (model(data[2 * step + micro]).pow(2).mean() / 2).backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5)
            opt.step()
    return snapshot(model, opt)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("name", list(OPTIMIZERS))
def test_guarded_run_is_bit_identical(name: str, device: str) -> None:
    guarded = run_plain(name, device, guarded=True)
    plain = run_plain(name, device, guarded=False)
    assert len(guarded) == len(plain) > 2 * 4  # parameters, gradients and optimizer state
    assert all(torch.equal(a, b) for a, b in zip(guarded, plain, strict=True))


def run_amp(name: str, guarded: bool) -> tuple[list[torch.Tensor], list[float]]:
    model = make_model(11, width=16)
    opt = OPTIMIZERS[name](model.parameters())
    scaler = torch.amp.GradScaler("cpu", init_scale=2.0**8, growth_interval=2)
    data = [batch(seed) for seed in range(STEPS)]
    scales = []
    # An inf step is skipped without calling step(), except where the optimizer's own
    # kernel skips it (fused): then the step hooks fire and the guard judges it too.
    judged = STEPS if getattr(opt, "_step_supports_amp_scaling", False) else STEPS - 1
    with guarding(guarded, judged):
        for step in range(STEPS):
            opt.zero_grad()
            with torch.autocast("cpu", dtype=torch.bfloat16):
                loss = model(data[step]).float().pow(2).mean()
            if step == 2:
                loss = loss * float("inf")  # an overflow: the scaler skips this step
            scaler.scale(loss).backward()
            scaler.unscale_(opt)
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            scaler.step(opt)
            scaler.update()
            scales.append(scaler.get_scale())
    return snapshot(model, opt), scales


@pytest.mark.parametrize("name", ["sgd-momentum", "adam-fused", "adamw-foreach-amsgrad"])
def test_grad_scaler_bf16_autocast_run_is_bit_identical(name: str) -> None:
    (guarded, guarded_scales), (plain, plain_scales) = run_amp(name, True), run_amp(name, False)
    assert guarded_scales == plain_scales
    assert guarded_scales[2] == guarded_scales[1] / 2  # the inf step really was skipped
    assert len(guarded) == len(plain)
    assert all(torch.equal(a, b) for a, b in zip(guarded, plain, strict=True))
