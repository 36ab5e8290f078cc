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
    # the previous evaluation of the closure applied them, not a previous step
    assert "the previous closure evaluation" in rendered
    assert "right after optimizer.step()" not in rendered


def test_a_closure_that_runs_no_backward_gets_no_closure_hint(model, x):
    """Lightning hands every step a closure (its manual optimization's does nothing):
    the backward ran before the step, so clearing inside the closure fixes nothing."""
    opt = torch.optim.SGD(model.parameters(), lr=0.1)

    def closure():
        return None

    with pytest.raises(GradientGuardError) as caught, guard():
        for _ in range(2):
            loss_of(model, x).backward()
            opt.step(closure)
    assert "ZG101" in str(caught.value)
    assert "clear inside the closure" not in str(caught.value)


def test_a_missing_clear_without_a_closure_gets_no_closure_hint(model, x):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    with pytest.raises(GradientGuardError) as caught, guard():
        for _ in range(2):
            loss_of(model, x).backward()
            opt.step()
    assert "closure" not in str(caught.value)


def test_a_cross_model_leak_prints_the_steps_own_backward_line_too():
    """Two critic passes on non-detached fakes, then the generator's own pass: the
    report names the critic's line and the generator's."""
    torch.manual_seed(0)
    generator, critic = torch.nn.Linear(4, 8), torch.nn.Linear(8, 1)
    with pytest.raises(GradientGuardError) as caught, guard():
        opt_g = torch.optim.Adam(generator.parameters())
        opt_d = torch.optim.Adam(critic.parameters())
        for iteration in range(1, 5):
            fake = generator(torch.randn(16, 4))
            opt_d.zero_grad()
            critic(fake).mean().backward()  # critic loss
            opt_d.step()
            if iteration % 2 == 0:
                (-critic(generator(torch.randn(16, 4))).mean()).backward()  # generator loss
                opt_g.step()
    rendered = str(caught.value)
    assert "ZG101" in rendered
    assert "# critic loss" in rendered
    assert "# generator loss" in rendered
