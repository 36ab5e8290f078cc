"""``torch.compile``: accumulation happens in the eager engine, the step graph-breaks anyway."""

from __future__ import annotations

from types import ModuleType

import pytest
import torch

from .conftest import assert_silent
from .loops.compile_loop import train_compiled

pytestmark = pytest.mark.slow

K = 2
STEPS = 3


def test_compiled_model_is_silent_without_extra_graph_breaks_and_catches_a_missing_clear(
    runtime: ModuleType,
) -> None:
    # One test on purpose: the first inductor compile costs ~20 s on 2 cores; the
    # later runs reuse its cache.
    unguarded = train_compiled(K, STEPS)
    session = runtime.guard(accumulate=K)
    with session:
        guarded = train_compiled(K, STEPS)
    assert_silent(session.report, steps=STEPS)
    assert guarded.graph_breaks == unguarded.graph_breaks == 0
    assert guarded.unique_graphs == unguarded.unique_graphs
    assert torch.equal(guarded.weights, unguarded.weights)

    with pytest.raises(runtime.GradientGuardError) as caught, runtime.guard():
        train_compiled(K, STEPS, broken=True)
    assert caught.value.finding.code == "ZG101"


def test_compiled_broken_loop_trains_differently_unguarded() -> None:
    correct = train_compiled(K, STEPS)
    broken = train_compiled(K, STEPS, broken=True)
    assert correct.graph_breaks == 0
    assert not torch.equal(correct.weights, broken.weights)
