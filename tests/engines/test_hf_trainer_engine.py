"""Hugging Face Trainer on a tiny config-built BERT (clears with ``model.zero_grad()``)."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest
import torch

from .conftest import assert_silent
from .loops.common import StepCounter
from .loops.hf_trainer_loop import train_hf_trainer

STEPS = 3


@pytest.mark.parametrize("k", [1, 2])
def test_trainer_steps_once_per_window_unguarded(tmp_path: Path, k: int) -> None:
    with StepCounter() as counter:
        global_step, _ = train_hf_trainer(tmp_path, k, STEPS)
    assert global_step == STEPS
    assert counter.per_optimizer == {"AdamW": STEPS}


def test_trainer_without_zero_grad_trains_differently_unguarded(tmp_path: Path) -> None:
    _, correct = train_hf_trainer(tmp_path / "correct", 1, STEPS)
    _, broken = train_hf_trainer(tmp_path / "broken", 1, STEPS, broken=True)
    assert not torch.equal(correct, broken)


@pytest.mark.parametrize("k", [1, 2])
def test_trainer_is_silent_and_bit_identical(runtime: ModuleType, tmp_path: Path, k: int) -> None:
    _, unguarded = train_hf_trainer(tmp_path / "unguarded", k, STEPS)
    session = runtime.guard(accumulate=k)
    with session:
        _, guarded = train_hf_trainer(tmp_path / "guarded", k, STEPS)
    assert_silent(session.report, steps=STEPS)
    assert torch.equal(guarded, unguarded)


@pytest.mark.parametrize("k", [1, 2])
def test_trainer_with_no_op_zero_grad_is_caught(
    runtime: ModuleType, tmp_path: Path, k: int
) -> None:
    with pytest.raises(runtime.GradientGuardError) as caught, runtime.guard():
        train_hf_trainer(tmp_path, k, STEPS, broken=True)
    assert caught.value.finding.code == "ZG101"
