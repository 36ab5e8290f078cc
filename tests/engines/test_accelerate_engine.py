"""accelerate: the prepared optimizer only reaches torch on sync micro-batches."""

from __future__ import annotations

from types import ModuleType

import pytest
import torch

from .conftest import assert_silent
from .loops.accelerate_loop import train_accelerate
from .loops.common import StepCounter

MICRO_BATCHES = 8


@pytest.mark.parametrize("k", [1, 2, 4])
def test_documented_loop_steps_once_per_window_unguarded(k: int) -> None:
    with StepCounter() as counter:
        train_accelerate(k, MICRO_BATCHES)
    assert counter.per_optimizer == {"SGD": MICRO_BATCHES // k}


@pytest.mark.parametrize("k", [1, 2])
def test_loop_without_zero_grad_trains_differently_unguarded(k: int) -> None:
    correct = train_accelerate(k, MICRO_BATCHES)
    broken = train_accelerate(k, MICRO_BATCHES, broken=True)
    assert not torch.equal(correct, broken)


@pytest.mark.parametrize(("k", "clear_first"), [(1, False), (2, False), (4, False), (1, True)])
def test_documented_loop_is_silent_and_bit_identical(
    runtime: ModuleType, k: int, clear_first: bool
) -> None:
    unguarded = train_accelerate(k, MICRO_BATCHES, clear_first=clear_first)
    session = runtime.guard()
    with session:
        guarded = train_accelerate(k, MICRO_BATCHES, clear_first=clear_first)
    assert_silent(session.report, steps=MICRO_BATCHES // k)
    assert torch.equal(guarded, unguarded)


@pytest.mark.parametrize("k", [2, 4])
def test_clear_first_discards_the_window_on_the_sync_micro_batch(
    runtime: ModuleType, k: int
) -> None:
    """``zero_grad`` before the backward pass reaches torch on the sync micro-batch, and
    clears the k - 1 micro-batches accumulated before it (issue 15, item 10: once silent
    because the first of them landed on the previous step's gradient)."""
    assert not torch.equal(
        train_accelerate(k, MICRO_BATCHES, clear_first=True), train_accelerate(k, MICRO_BATCHES)
    )
    session = runtime.guard()
    with pytest.warns(runtime.GradientGuardWarning, match="ZG103"), session:
        train_accelerate(k, MICRO_BATCHES, clear_first=True)
    assert [finding.code for finding in session.report.warnings] == ["ZG103"]
    assert session.report.violations == []


def test_bf16_autocast_with_clipping_is_silent(runtime: ModuleType) -> None:
    session = runtime.guard(accumulate=2)
    with session:
        train_accelerate(2, MICRO_BATCHES, bf16_clipped=True)
    assert_silent(session.report, steps=MICRO_BATCHES // 2)


@pytest.mark.parametrize("k", [2, 4])
def test_documented_loop_meets_the_accumulation_contract(runtime: ModuleType, k: int) -> None:
    session = runtime.guard(accumulate=k)
    with session:
        train_accelerate(k, MICRO_BATCHES)
    assert_silent(session.report, steps=MICRO_BATCHES // k)


def test_accumulation_contract_catches_a_wrong_k(runtime: ModuleType) -> None:
    with pytest.raises(runtime.GradientGuardError) as caught, runtime.guard(accumulate=4):
        train_accelerate(2, MICRO_BATCHES)
    assert caught.value.finding.code == "ZG103"


@pytest.mark.parametrize("k", [1, 2, 4])
def test_loop_without_zero_grad_is_caught(runtime: ModuleType, k: int) -> None:
    with pytest.raises(runtime.GradientGuardError) as caught, runtime.guard():
        train_accelerate(k, MICRO_BATCHES, broken=True)
    assert caught.value.finding.code == "ZG101"


def test_sites_point_at_the_users_lines_not_inside_accelerate(runtime: ModuleType) -> None:
    """Step and clear sites once read accelerate/optimizer.py."""
    session = runtime.guard("warn")
    with pytest.warns(runtime.GradientGuardWarning), session:
        train_accelerate(2, MICRO_BATCHES, clear_first=True)
    (finding,) = session.report.warnings
    sites = [finding.step_site, finding.clear_site, *finding.backward_sites]
    files = {site[0].co_filename for site in sites if site is not None}
    assert files and all(path.endswith("accelerate_loop.py") for path in files), files
