"""FSDP2's way of accumulating, emulated in one process: no pre-accumulation hook.

FSDP2 reduces gradients itself, then assigns the sharded gradient (``grad is None``)
or adds into it in place, and calls the parameter's post-accumulate-grad hooks. The
guard's pre-accumulation hook never fires. The real thing runs in
``test_distributed_engine.py`` (2 spawned ranks); this covers the decisions quickly.
"""

from __future__ import annotations

from types import ModuleType

import pytest
import torch


def fsdp2_accumulate(param: torch.Tensor, new: torch.Tensor) -> None:
    """What ``foreach_reduce`` does for one sharded parameter (torch 2.13)."""
    with torch.no_grad():
        if param.grad is None:
            param.grad = new.clone()
        else:
            param.grad += new
    for hook in getattr(param, "_post_accumulate_grad_hooks", {}).values():
        hook(param)


def train(clear: str, steps: int = 3, accumulation: int = 1) -> None:
    torch.manual_seed(0)
    param = torch.nn.Parameter(torch.randn(4))
    optimizer = torch.optim.SGD([param], lr=0.1)
    optimizer.zero_grad()  # the guard starts watching the parameter here
    for _ in range(steps):
        if clear == "zero_grad":
            optimizer.zero_grad()
        elif clear == "zero_grad_in_place":
            optimizer.zero_grad(set_to_none=False)
        elif clear == "none_by_hand":
            param.grad = None
        elif clear == "zero_by_hand" and param.grad is not None:
            param.grad.zero_()
        for _ in range(accumulation):
            fsdp2_accumulate(param, torch.randn(4))
        optimizer.step()


@pytest.mark.parametrize("clear", ["zero_grad", "zero_grad_in_place", "none_by_hand"])
@pytest.mark.parametrize("accumulation", [1, 2])
def test_cleared_windows_are_silent(runtime: ModuleType, clear: str, accumulation: int) -> None:
    session = runtime.guard(accumulate=accumulation)
    with session:
        train(clear, accumulation=accumulation)
    assert (session.report.violations, session.report.warnings) == ([], [])
    assert session.report.steps_checked == 3


@pytest.mark.parametrize("accumulation", [1, 2])
def test_a_missing_clear_is_caught(runtime: ModuleType, accumulation: int) -> None:
    with pytest.raises(runtime.GradientGuardError) as caught, runtime.guard():
        train("nothing", accumulation=accumulation)
    assert caught.value.finding.code == "ZG101"
    assert caught.value.finding.step == 2
