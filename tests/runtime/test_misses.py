"""Bugs the guard once missed (issue 15, items 9-10) and the contract's window rule (item 5)."""

from __future__ import annotations

import warnings

import pytest
import torch

from tests.runtime.conftest import loss_of
from tests.runtime.test_real_trainers import gan
from zerograd_guard.runtime import GradientGuardError, GradientGuardWarning, accumulate, guard


def gan_step_d_then_g(generator, discriminator, opt_g, opt_d, real, frozen=False):
    """D is cleared only after its own step: the generator's loss stays on D."""
    fake = generator(torch.randn(8, 2))
    (discriminator(real).pow(2).mean() + discriminator(fake.detach()).mean()).backward()
    opt_d.step()
    opt_d.zero_grad()
    if frozen:
        discriminator.requires_grad_(False)
    opt_g.zero_grad()
    discriminator(fake).mean().neg().backward()
    opt_g.step()
    if frozen:
        discriminator.requires_grad_(True)


def gan_step_g_then_d(generator, discriminator, opt_g, opt_d, real):
    opt_g.zero_grad()
    fake = generator(torch.randn(8, 2))
    discriminator(fake).mean().neg().backward()  # leaves gradients on D
    opt_g.step()
    (discriminator(real).pow(2).mean() + discriminator(fake.detach()).mean()).backward()
    opt_d.step()  # applies the generator's loss too
    opt_d.zero_grad()


def optimizers(generator, discriminator):
    return (
        torch.optim.Adam(generator.parameters(), lr=1e-3),
        torch.optim.Adam(discriminator.parameters(), lr=1e-3),
    )


@pytest.mark.parametrize("iteration", [gan_step_d_then_g, gan_step_g_then_d])
def test_cross_model_leak_is_caught(iteration):
    generator, discriminator = gan()
    opt_g, opt_d = optimizers(generator, discriminator)
    real = torch.randn(8, 4)
    with pytest.raises(GradientGuardError) as caught, guard():
        opt_d.zero_grad()
        for _ in range(3):
            iteration(generator, discriminator, opt_g, opt_d, real)
    finding = caught.value.finding
    assert finding.code == "ZG101" and "another optimizer" in finding.rule.title
    assert finding.parameters and all("weight" in n or "bias" in n for n in finding.parameters)
    assert len(finding.backward_sites) == 2  # the generator's loss and D's own


def silent(run) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error", GradientGuardWarning)
        with guard() as session:
            run()
    assert session.report.violations == [] and session.report.warnings == []
    assert session.report.steps_checked > 0


def test_discriminator_frozen_during_the_generator_step_is_silent():
    generator, discriminator = gan()
    opt_g, opt_d = optimizers(generator, discriminator)
    real = torch.randn(8, 4)

    def run():
        for _ in range(3):
            gan_step_d_then_g(generator, discriminator, opt_g, opt_d, real, frozen=True)

    silent(run)


def test_one_backward_feeding_two_optimizers_is_silent():
    generator, discriminator = gan()
    opt_g, opt_d = optimizers(generator, discriminator)

    def run():
        for _ in range(3):
            opt_g.zero_grad()
            opt_d.zero_grad()
            discriminator(generator(torch.randn(8, 2))).pow(2).mean().backward()
            opt_g.step()
            opt_d.step()

    silent(run)


def test_several_losses_into_one_step_is_silent(model, x):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    other = torch.nn.Linear(2, 1)
    other_opt = torch.optim.SGD(other.parameters(), lr=0.1)

    def run():
        for _ in range(3):
            opt.zero_grad()
            other_opt.zero_grad()
            loss_of(model, x).backward()
            other(x[:, :2]).sum().backward()  # an unrelated model's step in between
            other_opt.step()
            (loss_of(model, x) * 2).backward()
            opt.step()

    silent(run)


def test_declared_accumulation_across_another_optimizers_steps_is_silent():
    """Under a contract, passes across another optimizer's steps are on purpose."""
    generator, discriminator = gan()
    opt_g, opt_d = optimizers(generator, discriminator)
    with accumulate({opt_d: 2}) as contract:
        opt_d.zero_grad()
        for i in range(4):
            opt_g.zero_grad()
            discriminator(generator(torch.randn(8, 2))).pow(2).mean().backward()
            opt_g.step()
            if i % 2 == 1:
                opt_d.step()
                opt_d.zero_grad()
    assert contract.report.violations == [] and contract.report.warnings == []


def test_clear_between_two_backward_passes_of_one_window():
    """dcgan with the clear in the wrong place: D never learns from the real batch."""
    generator, discriminator = gan()
    opt_g, opt_d = optimizers(generator, discriminator)
    real = torch.randn(8, 4)
    with pytest.warns(GradientGuardWarning, match="ZG103"), guard() as session:
        for _ in range(3):
            discriminator(real).pow(2).mean().backward()
            discriminator.zero_grad()
            fake = generator(torch.randn(8, 2))
            discriminator(fake.detach()).mean().backward()
            opt_d.step()
            generator.zero_grad()
            discriminator(fake).mean().neg().backward()
            opt_g.step()
    assert "ZG103" in [finding.code for finding in session.report.warnings]


def test_contract_short_first_window_is_still_a_violation(model, x):
    """The classic ``if i % k == 0: step()`` off-by-one steps after one pass."""
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    with pytest.raises(GradientGuardError, match="consumed 1 backward"), accumulate(4):
        opt.zero_grad()
        for i in range(9):
            loss_of(model, x).backward()
            if i % 4 == 0:
                opt.step()
                opt.zero_grad()


def test_contract_two_short_windows_in_a_row_are_a_violation(model, x):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    with pytest.raises(GradientGuardError) as caught, accumulate(4):
        opt.zero_grad()
        for window in (4, 3, 3):
            for _ in range(window):
                loss_of(model, x).backward()
            opt.step()
            opt.zero_grad()
    assert caught.value.finding.step == 3


def fabric_like_trainer(model, opt, x, batches: int = 20, accumulate_every: int = 4):
    """Fabric's example trainer with grad_accum_steps > 1: the step condition reads the
    step counter instead of the batch index, so it stops stepping after step 1."""
    steps = 0
    for _ in range(batches):
        loss_of(model, x).backward()
        if steps % accumulate_every == 0:  # true at step 0, never again
            opt.step()
            opt.zero_grad()
            steps += 1


def test_an_optimizer_that_stops_stepping_is_reported_at_the_end(model, x):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    with pytest.warns(GradientGuardWarning, match="stopped stepping"), guard() as session:
        fabric_like_trainer(model, opt, x)
    (finding,) = session.report.warnings
    assert finding.code == "stalled" and "19 backward pass(es)" in finding.detail
    assert finding.backward_sites


def test_a_run_ending_mid_window_is_not_stalled(model, x):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)

    def run():
        opt.zero_grad()
        for index in range(10):
            loss_of(model, x).backward()
            if index % 4 == 3:
                opt.step()
                opt.zero_grad()

    silent(run)


def test_last_clear_is_of_these_parameters_and_discards_show_their_backward_line():
    """A GAN's finding on G once showed D's netD.zero_grad() as the last clear."""
    generator, discriminator = gan()
    opt_g, opt_d = optimizers(generator, discriminator)
    real = torch.randn(8, 4)
    with pytest.warns(GradientGuardWarning), guard("warn") as session:
        for _ in range(3):
            generator.zero_grad()
            discriminator(generator(torch.randn(8, 2))).mean().backward()  # line A
            generator.zero_grad()  # discards line A's pass on G
            discriminator(generator(torch.randn(8, 2))).mean().neg().backward()
            opt_g.step()
            discriminator.zero_grad()
            discriminator(real).pow(2).mean().backward()
            opt_d.step()
    (finding,) = [f for f in session.report.warnings if f.code == "ZG103"]
    rendered = finding.render()
    assert "last clear:" in rendered and "generator.zero_grad()" in rendered
    assert "discriminator.zero_grad()" not in rendered
    assert "backward:" in rendered and ".mean().backward()  # line A" in rendered
