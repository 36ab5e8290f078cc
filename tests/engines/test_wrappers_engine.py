"""Optimizer wrappers calling an inner optimizer's step are counted once."""

from __future__ import annotations

from types import ModuleType

import pytest
import torch

from .conftest import assert_silent
from .loops.common import StepCounter
from .loops.wrappers_loop import WRAPPERS, train_wrapped

STEPS = 4


@pytest.mark.parametrize("wrapper", WRAPPERS)
def test_inner_optimizer_steps_once_per_batch_unguarded(wrapper: str) -> None:
    with StepCounter() as counter:
        train_wrapped(wrapper, STEPS)
    assert counter.per_optimizer["SGD"] == STEPS
    assert not torch.equal(train_wrapped(wrapper, STEPS), train_wrapped(wrapper, broken=True))


@pytest.mark.parametrize("wrapper", WRAPPERS)
def test_wrapped_loop_is_silent_and_counted_once(runtime: ModuleType, wrapper: str) -> None:
    unguarded = train_wrapped(wrapper, STEPS)
    session = runtime.guard()
    with session:
        guarded = train_wrapped(wrapper, STEPS)
    assert_silent(session.report, steps=STEPS)
    assert torch.equal(guarded, unguarded)


@pytest.mark.parametrize("wrapper", WRAPPERS)
def test_wrapped_loop_without_zero_grad_is_caught(runtime: ModuleType, wrapper: str) -> None:
    with pytest.raises(runtime.GradientGuardError) as caught, runtime.guard():
        train_wrapped(wrapper, STEPS, broken=True)
    assert caught.value.finding.code == "ZG101"
