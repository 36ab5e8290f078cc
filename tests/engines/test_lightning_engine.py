"""Lightning: automatic optimization (closure-driven steps) and manual optimization."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from types import ModuleType

import pytest
import torch

from .conftest import assert_silent
from .loops.common import StepCounter
from .loops.lightning_loop import (
    train_lightning_automatic,
    train_lightning_bf16_clipped_partial_window,
    train_lightning_gan,
    train_lightning_manual,
)

STEPS = 4


@pytest.fixture(autouse=True)
def _quiet_lightning() -> Iterator[None]:
    # Lightning warns about data loader workers and logging on tiny CPU runs.
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", module="lightning")
        yield


@pytest.mark.parametrize("k", [1, 2])
def test_automatic_optimization_steps_once_per_window_unguarded(k: int) -> None:
    with StepCounter() as counter:
        train_lightning_automatic(k, STEPS)
    assert counter.per_optimizer == {"SGD": STEPS}


def test_broken_variants_train_differently_unguarded() -> None:
    assert not torch.equal(
        train_lightning_automatic(1, STEPS), train_lightning_automatic(1, STEPS, broken=True)
    )
    assert not torch.equal(
        train_lightning_manual(STEPS), train_lightning_manual(STEPS, broken=True)
    )


@pytest.mark.parametrize("k", [1, 2])
def test_automatic_optimization_is_silent_and_bit_identical(runtime: ModuleType, k: int) -> None:
    unguarded = train_lightning_automatic(k, STEPS)
    session = runtime.guard(accumulate=k)
    with session:
        guarded = train_lightning_automatic(k, STEPS)
    assert_silent(session.report, steps=STEPS)
    assert torch.equal(guarded, unguarded)


def test_manual_optimization_is_silent(runtime: ModuleType) -> None:
    session = runtime.guard()
    with session:
        train_lightning_manual(STEPS)
    assert_silent(session.report, steps=STEPS)


def test_bf16_clipping_and_a_partial_last_window_are_silent(runtime: ModuleType) -> None:
    session = runtime.guard()
    with session:
        train_lightning_bf16_clipped_partial_window()
    assert_silent(session.report, steps=3)
    assert [event.backward_passes for event in session.report.events] == [3, 3, 1]


def test_two_optimizer_gan_is_silent(runtime: ModuleType) -> None:
    session = runtime.guard()
    with session:
        train_lightning_gan(batches=4)
    assert_silent(session.report, steps=8)


def test_manual_optimization_without_zero_grad_is_caught(runtime: ModuleType) -> None:
    with pytest.raises(runtime.GradientGuardError) as caught, runtime.guard():
        train_lightning_manual(STEPS, broken=True)
    assert caught.value.finding.code == "ZG101"


@pytest.mark.parametrize("k", [1, 2])
def test_automatic_optimization_with_a_no_op_zero_grad_hook_is_caught(
    runtime: ModuleType, k: int
) -> None:
    with pytest.raises(runtime.GradientGuardError) as caught, runtime.guard():
        train_lightning_automatic(k, STEPS, broken=True)
    assert caught.value.finding.code == "ZG101"


def test_a_lightning_optimizer_and_its_torch_optimizer_are_one_label(runtime: ModuleType) -> None:
    """Labels read LightningAdam #1 and Adam #2 for one optimizer."""
    from lightning.pytorch.core.optimizer import LightningOptimizer

    model = torch.nn.Linear(3, 1)
    adam = torch.optim.Adam(model.parameters())
    wrapped = LightningOptimizer(adam)
    with runtime.guard() as session:
        for _ in range(3):
            wrapped.zero_grad()
            model(torch.randn(2, 3)).sum().backward()
            adam.step()
    assert session.report.optimizers == ["Adam #1"]
    assert session.report.steps_checked == 3
