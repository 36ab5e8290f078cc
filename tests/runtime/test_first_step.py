"""The first step of an optimizer built under the guard is judged too (R6)."""

from __future__ import annotations

import pytest
import torch

from tests.runtime.conftest import loss_of, make_model
from zerograd_guard.runtime import GradientGuardError, guard


def test_clear_between_backward_and_a_single_step_is_zg102(x):
    with pytest.raises(GradientGuardError) as caught, guard():
        model = make_model()
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        loss_of(model, x).backward()
        opt.zero_grad()
        opt.step()
    finding = caught.value.finding
    assert (finding.code, finding.step) == ("ZG102", 1)


def test_first_step_counts_the_backward_passes_before_it(x):
    with guard(accumulate=2) as session:
        model = make_model()
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        for _ in range(2):
            loss_of(model, x).backward()
        opt.step()
    assert [event.backward_passes for event in session.report.events] == [2]
    assert session.report.violations == []


@pytest.mark.parametrize(
    "shape",
    ["no-gradients", "backward-before-optimizer", "warm-up-backward-then-clear", "manual-grad"],
)
def test_first_step_raises_no_false_alarm(x, shape):
    with guard() as session:
        model = make_model()
        if shape == "backward-before-optimizer":
            loss_of(model, x).backward()
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        if shape == "warm-up-backward-then-clear":
            loss_of(model, x).backward()
            opt.zero_grad()
            loss_of(model, x).backward()
        if shape == "manual-grad":
            for param in model.parameters():
                param.grad = torch.ones_like(param)
        opt.step()
    assert session.report.steps_checked == 1
    assert session.report.violations == [] and session.report.warnings == []


def test_optimizer_built_before_the_guard_is_not_judged_at_its_first_step(x):
    model = make_model()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loss_of(model, x).backward()  # before the guard: its gradients may be stale or not
    with guard() as session:
        opt.zero_grad()
        opt.step()
    assert session.report.violations == []
