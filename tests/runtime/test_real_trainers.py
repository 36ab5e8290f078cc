"""False alarms seen on real trainers (issue 15, items 1-8): each real pattern in miniature
runs under the guard with no violation and no warning."""

from __future__ import annotations

import itertools
import warnings

import pytest
import torch

from tests.runtime.conftest import loss_of, make_model
from tests.runtime.trainers import SAM, ClosureThenSuper
from zerograd_guard.runtime import GradientGuardWarning, Guard, accumulate, guard


@pytest.fixture
def session():
    with warnings.catch_warnings():
        warnings.simplefilter("error", GradientGuardWarning)
        with guard() as active:
            yield active
    assert active.report.violations == []
    assert active.report.warnings == []
    assert active.report.steps_checked > 0


def gan(seed: int = 0) -> tuple[torch.nn.Module, torch.nn.Module]:
    torch.manual_seed(seed)
    generator = torch.nn.Sequential(torch.nn.Linear(2, 8), torch.nn.ReLU(), torch.nn.Linear(8, 4))
    discriminator = torch.nn.Sequential(
        torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 1)
    )
    return generator, discriminator


# --- 1. closure-then-base-step optimizers -----------------------------------------------


@pytest.mark.parametrize("built_before", [False, True])
def test_sam_step_with_closure(session: Guard, model, x, built_before):
    if built_before:  # the false alarm depended on an earlier SGD in the process
        torch.optim.SGD(make_model().parameters(), lr=0.1)
    opt = SAM(model.parameters(), torch.optim.SGD, lr=0.1)

    def closure():
        loss = loss_of(model, x)
        loss.backward()
        return loss

    for _ in range(3):
        loss_of(model, x).backward()
        opt.step(closure)
        opt.zero_grad()
    assert session.report.steps_checked == 3


def test_sam_first_and_second_step(session, model, x):
    opt = SAM(model.parameters(), torch.optim.SGD, lr=0.1)
    for _ in range(3):
        loss_of(model, x).backward()
        opt.first_step(zero_grad=True)
        loss_of(model, x).backward()
        opt.second_step(zero_grad=True)


@pytest.mark.parametrize("built_before", [False, True])
def test_closure_then_super_step(session, model, x, built_before):
    if built_before:
        torch.optim.AdamW(make_model().parameters())
    opt = ClosureThenSuper(model.parameters())

    def closure():
        opt.zero_grad()
        loss = loss_of(model, x)
        loss.backward()
        return loss

    for _ in range(3):
        opt.step(closure)
    assert session.report.steps_checked == 3


# --- 2. opacus ----------------------------------------------------------------------------


@pytest.fixture
def opacus():
    """Skips before ``session`` starts a guard (a skip inside the test would leave the
    session's teardown to fail on a guard that checked no step)."""
    return pytest.importorskip("opacus")


def test_opacus_batch_memory_manager(opacus, session):
    from opacus.utils.batch_memory_manager import BatchMemoryManager

    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2))
    data = torch.utils.data.TensorDataset(torch.randn(64, 4), torch.randint(0, 2, (64,)))
    loader = torch.utils.data.DataLoader(data, batch_size=32)
    engine = opacus.PrivacyEngine()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # opacus' own secure-RNG notice
        model, opt, loader = engine.make_private(
            module=model,
            optimizer=torch.optim.SGD(model.parameters(), lr=0.1),
            data_loader=loader,
            noise_multiplier=1.0,
            max_grad_norm=1.0,
            poisson_sampling=False,
        )
    with BatchMemoryManager(data_loader=loader, max_physical_batch_size=8, optimizer=opt) as small:
        for features, labels in small:
            opt.zero_grad()
            torch.nn.functional.cross_entropy(model(features), labels).backward()
            opt.step()
    assert session.report.steps_checked == 2


# --- 3. optimizer step in backward ----------------------------------------------------------


def step_in_backward_setup() -> tuple[torch.nn.Module, dict]:
    model = make_model()
    optimizers = {p: torch.optim.SGD([p], lr=0.1) for p in model.parameters()}

    def hook(param):
        optimizers[param].step()
        optimizers[param].zero_grad()

    for param in model.parameters():
        param.register_post_accumulate_grad_hook(hook)
    return model, optimizers


def test_optimizer_step_in_backward_built_before_the_guard(x):
    model, _ = step_in_backward_setup()
    with warnings.catch_warnings():
        warnings.simplefilter("error", GradientGuardWarning)
        with guard() as session:
            for _ in range(3):
                loss_of(model, x).backward()
    assert not session.report.violations and not session.report.warnings
    assert session.report.steps_checked == 3 * 4
    # Watched from the first step on; from the second backward pass the guard's hooks
    # run before the step hook, so each step sees its pass.
    assert [event.backward_passes for event in session.report.events][4:] == [1] * 8


def test_optimizer_step_in_backward_built_under_the_guard(session, x):
    model, _ = step_in_backward_setup()
    for _ in range(3):
        loss_of(model, x).backward()


# --- 4. swapped parameters --------------------------------------------------------------------


def test_swap_module_params_on_conversion(session, model, x):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    opt.zero_grad()
    loss_of(model, x).backward()
    opt.step()
    previous = torch.__future__.get_swap_module_params_on_conversion()
    torch.__future__.set_swap_module_params_on_conversion(True)
    try:
        model.to(torch.float64)
    finally:
        torch.__future__.set_swap_module_params_on_conversion(previous)
    assert model[0].weight.dtype == torch.float64
    for _ in range(2):
        opt.zero_grad()
        loss_of(model, x.double()).backward()
        opt.step()


def test_swap_tensors_on_a_watched_parameter(session, model, x):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    opt.zero_grad()
    loss_of(model, x).backward()
    opt.step()
    weight = model[0].weight
    replacement = torch.nn.Parameter(torch.zeros_like(weight))
    torch.utils.swap_tensors(weight, replacement)
    assert torch.count_nonzero(model[0].weight) == 0
    opt.zero_grad()
    loss_of(model, x).backward()
    opt.step()


# --- 5. declared accumulation: the short last window of an epoch ---------------------------


def epochs_with_short_last_window(model, opt, x, k: int, batches: int, epochs: int):
    """timm / Lightning: step every k micro-batches and at the end of the epoch."""
    for _ in range(epochs):
        opt.zero_grad()
        for index in range(batches):
            last_window = index >= batches - batches % k
            scale = (batches % k) if last_window else k
            (loss_of(model, x) / scale).backward()
            if (index + 1) % k == 0 or index == batches - 1:
                opt.step()
                opt.zero_grad()


def test_contract_accepts_the_short_last_window_of_an_epoch(model, x):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    with accumulate(4) as contract:
        epochs_with_short_last_window(model, opt, x, k=4, batches=10, epochs=3)
    assert contract.report.violations == []
    assert [event.backward_passes for event in contract.report.events] == [4, 4, 2] * 3


# --- 6. another optimizer's loss in these parameters -----------------------------------------


def wgan_gp(n_critic: int = 5, iterations: int = 11, contract: bool = False):
    """PyTorch-GAN's WGAN-GP: fake images are not detached for the critic's loss."""
    generator, critic = gan()
    opt_g = torch.optim.Adam(generator.parameters(), lr=1e-3)
    opt_d = torch.optim.Adam(critic.parameters(), lr=1e-3)
    real = torch.randn(8, 4)
    for i in range(iterations):
        opt_d.zero_grad()
        z = torch.randn(8, 2)
        fake = generator(z)
        alpha = torch.rand(8, 1)
        mixed = (alpha * real + (1 - alpha) * fake.detach()).requires_grad_(True)
        (gradient,) = torch.autograd.grad(critic(mixed).sum(), mixed, create_graph=True)
        penalty = ((gradient.norm(2, dim=1) - 1) ** 2).mean()
        d_loss = -critic(real).mean() + critic(fake).mean() + 10 * penalty
        d_loss.backward()  # reaches the generator too
        opt_d.step()
        opt_g.zero_grad()
        if i % n_critic == 0:
            g_loss = -critic(generator(z)).mean()
            g_loss.backward()  # reaches the critic too
            opt_g.step()


def test_wgan_gp_critic_loss_in_the_generator(session):
    wgan_gp()


@pytest.mark.parametrize("k", [1])
def test_wgan_gp_under_a_contract(k):
    with accumulate(k) as contract:
        wgan_gp()
    assert contract.report.violations == [] and contract.report.warnings == []


def infogan(iterations: int = 3):
    """PyTorch-GAN's InfoGAN: a third optimizer over the generator and the discriminator."""
    generator, discriminator = gan()
    opt_g = torch.optim.Adam(generator.parameters(), lr=1e-3)
    opt_d = torch.optim.Adam(discriminator.parameters(), lr=1e-3)
    opt_info = torch.optim.Adam(
        itertools.chain(generator.parameters(), discriminator.parameters()), lr=1e-3
    )
    real = torch.randn(8, 4)
    for _ in range(iterations):
        z = torch.randn(8, 2)
        opt_g.zero_grad()
        fake = generator(z)
        discriminator(fake).pow(2).mean().backward()
        opt_g.step()
        opt_d.zero_grad()
        d_loss = discriminator(real).pow(2).mean() + discriminator(fake.detach()).mean()
        d_loss.backward()
        opt_d.step()
        opt_info.zero_grad()
        discriminator(generator(z)).abs().mean().backward()
        opt_info.step()


def test_infogan_optimizer_over_both_models(session):
    infogan()


def test_two_optimizers_of_one_net_skorch_like(session, x):
    """Encoder and decoder optimizers; the decoder's loss reaches the encoder."""
    encoder, decoder = torch.nn.Linear(4, 3), torch.nn.Linear(3, 4)
    opt_enc = torch.optim.SGD(encoder.parameters(), lr=0.1)
    opt_dec = torch.optim.SGD(decoder.parameters(), lr=0.1)
    for _ in range(3):
        opt_enc.zero_grad()
        encoder(x).pow(2).mean().backward()
        opt_enc.step()
        opt_dec.zero_grad()
        (decoder(encoder(x)) - x).pow(2).mean().backward()
        opt_dec.step()


def test_clear_every_micro_batch_stays_a_warning(model, x):
    """No step between the pass and the clear: still a discarded window."""
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    other = torch.optim.SGD(torch.nn.Linear(1, 1).parameters(), lr=0.1)
    with pytest.warns(GradientGuardWarning, match="ZG103"), guard() as session:
        for i in range(6):
            opt.zero_grad()
            loss_of(model, x).backward()
            if i % 3 == 2:
                opt.step()
                other.step()
    assert [finding.code for finding in session.report.warnings] == ["ZG103"]


# --- 7. dropping a bad batch on purpose ------------------------------------------------------


def test_discard_marker_drops_a_bad_batch(session, model, x):
    import zerograd_guard

    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    opt.zero_grad()
    for i in range(6):
        loss = loss_of(model, x)
        loss.backward()
        if i == 2:  # a non-finite gradient norm, in real life
            zerograd_guard.discard(opt)
            continue
        if i % 2 == 1:
            opt.step()
            opt.zero_grad()


def test_discard_warning_mentions_the_marker(model, x):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    with pytest.warns(GradientGuardWarning, match=r"zerograd_guard\.discard"), guard():
        for i in range(4):
            opt.zero_grad()
            loss_of(model, x).backward()
            if i % 2 == 1:
                opt.step()


# --- 8. per-optimizer contracts ---------------------------------------------------------------


def dcgan_setup():
    generator, discriminator = gan()
    opt_g = torch.optim.Adam(generator.parameters(), lr=1e-3)
    opt_d = torch.optim.Adam(discriminator.parameters(), lr=1e-3)
    return generator, discriminator, opt_g, opt_d


def dcgan(generator, discriminator, opt_g, opt_d, iterations: int = 3):
    """pytorch/examples dcgan: the discriminator's real and fake losses, two backward passes."""
    real = torch.randn(8, 4)
    for _ in range(iterations):
        discriminator.zero_grad()
        discriminator(real).pow(2).mean().backward()
        fake = generator(torch.randn(8, 2))
        discriminator(fake.detach()).mean().backward()
        opt_d.step()
        generator.zero_grad()
        discriminator(fake).mean().neg().backward()
        opt_g.step()


def test_per_optimizer_contract():
    generator, discriminator, opt_g, opt_d = dcgan_setup()
    with accumulate({opt_d: 2, opt_g: 1}) as contract:
        dcgan(generator, discriminator, opt_g, opt_d)
    assert contract.report.violations == []
    assert contract.report.steps_checked == 6


def test_per_optimizer_contract_by_label():
    """Labels as the report prints them; an optimizer not named has no contract."""
    generator, discriminator, opt_g, opt_d = dcgan_setup()
    with accumulate({"Adam #2": 1}) as contract:  # opt_g: the second optimizer built
        dcgan(generator, discriminator, opt_g, opt_d)
    assert contract.report.violations == []


def test_per_optimizer_contract_still_catches_a_miscount():
    from zerograd_guard.runtime import GradientGuardError

    generator, discriminator, opt_g, opt_d = dcgan_setup()
    with (
        pytest.raises(GradientGuardError, match="accumulate\\(1\\)"),
        accumulate({opt_d: 1, opt_g: 1}),
    ):
        dcgan(generator, discriminator, opt_g, opt_d)


def test_contract_values_are_validated():
    with pytest.raises(ValueError, match="accumulate"):
        accumulate({"Adam #1": 0})


def test_swapped_parameters_are_still_watched(model, x):
    from zerograd_guard.runtime import GradientGuardError

    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    with pytest.raises(GradientGuardError, match="ZG101"), guard():
        opt.zero_grad()
        loss_of(model, x).backward()
        opt.step()
        previous = torch.__future__.get_swap_module_params_on_conversion()
        torch.__future__.set_swap_module_params_on_conversion(True)
        try:
            model.to(torch.float64)
        finally:
            torch.__future__.set_swap_module_params_on_conversion(previous)
        for _ in range(2):
            loss_of(model, x.double()).backward()
            opt.step()
