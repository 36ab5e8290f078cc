"""The verdict's fast path (``clean_step``) against the full judgement (``judge_step``).

Whenever the fast path passes a step, the full judgement of the very same parameter
states must find nothing and count the same backward passes: a step it lets through
can never hide a finding. Checked on random loops, with and without a contract.
"""

from __future__ import annotations

import warnings

import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.hardening.runtime.helpers import batch, make_model, play_event
from tests.hardening.runtime.test_fuzz_loops import EVENTS
from zerograd_guard.runtime import GradientGuardWarning, guard, monitor, verdict


class CrossCheck:
    """Stands in for ``clean_step`` in the monitor; records what the fast path passed."""

    def __init__(self, optimizer: torch.optim.Optimizer) -> None:
        self.optimizer = optimizer
        self.passed: list[int] = []

    def __call__(self, entries: list[verdict.Entry], contract: int | None) -> int | None:
        passes = verdict.clean_step(entries, contract)
        if passes is not None:
            context = verdict.StepContext(self.optimizer, "check", 0, contract)
            judgement = verdict.judge_step(entries, context)
            assert judgement.violations == [] and judgement.warnings == []
            assert judgement.backward_passes == passes
            self.passed.append(passes)
        return passes


def play(events: list[str], contract: int | None, monkeypatch: pytest.MonkeyPatch) -> CrossCheck:
    model, x = make_model(), batch()
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    check = CrossCheck(opt)
    monkeypatch.setattr(monitor, "clean_step", check)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", GradientGuardWarning)
        with guard("warn", accumulate=contract):
            for event in events:
                play_event(event, model, opt, x)
    return check


@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    events=st.lists(st.sampled_from(EVENTS), min_size=1, max_size=12),
    contract=st.sampled_from([None, 1, 2]),
)
def test_fast_path_never_passes_a_step_the_full_judgement_flags(events, contract, monkeypatch):
    play(["clear", *events], contract, monkeypatch)


def test_fast_path_takes_the_ordinary_steps(monkeypatch):
    correct = ["clear", "backward", "step"] * 3
    accumulation = ["clear", "backward", "backward", "step"] * 2
    assert play(correct, None, monkeypatch).passed == [1, 1, 1]
    assert play(accumulation, 2, monkeypatch).passed == [2, 2]
    assert play(accumulation, 3, monkeypatch).passed == []  # ZG103: the full judgement
