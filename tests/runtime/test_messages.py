"""What the guard's messages say: every backward line of a window, "never cleared",
the closure hint, and the run summary after a progress bar."""

from __future__ import annotations

import pytest
import torch

from tests.runtime.conftest import loss_of
from zerograd_guard.runtime import GradientGuardError, guard


def test_cleared_before_step_prints_every_distinct_backward_line(model, x):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    with pytest.raises(GradientGuardError) as caught, guard():
        for _ in range(2):
            opt.zero_grad()
            loss_of(model, x).backward()  # first loss
            loss_of(model, x + 1).backward()  # second loss
            opt.zero_grad()
            opt.step()
    rendered = str(caught.value)
    assert "ZG102" in rendered
    assert "backward()  # first loss" in rendered
    assert "backward()  # second loss" in rendered


def test_missing_clear_says_when_these_parameters_were_never_cleared(model, x):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    with pytest.raises(GradientGuardError) as caught, guard():
        for _ in range(2):
            loss_of(model, x).backward()
            opt.step()
    rendered = str(caught.value)
    assert "ZG101" in rendered
    assert "last clear: never" in rendered
    assert caught.value.finding.as_dict()["never_cleared"] is True


def test_a_clear_outside_an_lbfgs_closure_is_told_to_clear_inside_it(model, x):
    opt = torch.optim.LBFGS(model.parameters(), max_iter=3)

    def closure():
        loss = loss_of(model, x)
        loss.backward()
        return loss

    with pytest.raises(GradientGuardError) as caught, guard():
        for _ in range(2):
            opt.zero_grad()
            opt.step(closure)
    rendered = str(caught.value)
    assert "ZG101" in rendered
    assert "clear inside the closure" in rendered
    assert "last clear: never" not in rendered


def test_a_missing_clear_without_a_closure_gets_no_closure_hint(model, x):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    with pytest.raises(GradientGuardError) as caught, guard():
        for _ in range(2):
            loss_of(model, x).backward()
            opt.step()
    assert "closure" not in str(caught.value)
