"""Legitimate patterns from the issue run under the guard with no violation and no warning."""

from __future__ import annotations

import warnings

import pytest
import torch

from tests.runtime.conftest import loss_of, make_model
from zerograd_guard.runtime import (
    GradientGuardError,
    GradientGuardWarning,
    Guard,
    accumulate,
    guard,
)


@pytest.fixture
def session():
    with warnings.catch_warnings():
        warnings.simplefilter("error", GradientGuardWarning)
        with guard() as active:
            yield active
    assert active.report.violations == []
    assert active.report.warnings == []
    assert active.report.steps_checked > 0


def train(model, opt, x, steps=3):
    for _ in range(steps):
        opt.zero_grad()
        loss_of(model, x).backward()
        opt.step()


def test_plain_loop_clear_before_backward(session: Guard, model, x):
    train(model, torch.optim.Adam(model.parameters()), x)
    assert [event.backward_passes for event in session.report.events] == [1, 1, 1]


def test_clear_after_step(session, model, x):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(3):
        loss_of(model, x).backward()
        opt.step()
        opt.zero_grad(set_to_none=False)


@pytest.mark.parametrize("k", [2, 3])
def test_gradient_accumulation(session, model, x, k):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for i in range(2 * k):
        (loss_of(model, x) / k).backward()
        if (i + 1) % k == 0:
            opt.step()
            opt.zero_grad()
    assert [event.backward_passes for event in session.report.events][-1] == k


def test_accumulate_contract_satisfied(model, x):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    with accumulate(2) as contract:
        opt.zero_grad()
        for i in range(4):
            loss_of(model, x).backward()
            if i % 2 == 1:
                opt.step()
                opt.zero_grad()
    assert contract.report.steps_checked == 2 and not contract.report.violations


def test_add_param_group_mid_training(session, x):
    model = make_model()
    head = torch.nn.Linear(1, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    train(model, opt, x, 2)
    opt.add_param_group({"params": head.parameters()})
    for _ in range(2):
        opt.zero_grad()
        head(model(x)).mean().backward()
        opt.step()


def test_optimizer_recreated_and_reloaded(session, model, x):
    opt = torch.optim.Adam(model.parameters())
    train(model, opt, x, 2)
    state = opt.state_dict()
    opt = torch.optim.Adam(model.parameters())
    opt.load_state_dict(state)
    train(model, opt, x, 2)


def test_gan_two_optimizers(session, x):
    generator, discriminator = make_model(1), torch.nn.Linear(1, 1)
    g_opt = torch.optim.Adam(generator.parameters())
    d_opt = torch.optim.Adam(discriminator.parameters())
    for _ in range(3):
        d_opt.zero_grad()
        fake = generator(x)
        discriminator(fake).mean().backward()  # also reaches the generator: cleared below
        d_opt.step()
        g_opt.zero_grad()
        discriminator(fake.detach() * 0 + generator(x)).mean().neg().backward()
        g_opt.step()


def test_grad_scaler_with_unscale_and_clipping(session, model, x):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = torch.amp.GradScaler("cpu")
    for _ in range(3):
        opt.zero_grad()
        with torch.autocast("cpu", dtype=torch.bfloat16):
            loss = loss_of(model, x)
        scaler.scale(loss).backward()
        scaler.unscale_(opt)
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        scaler.step(opt)
        scaler.update()


@pytest.mark.parametrize("fused", [False, True])
def test_grad_scaler_inf_skip_is_a_step_boundary(session, model, x, fused):
    opt = torch.optim.Adam(model.parameters(), fused=fused)
    scaler = torch.amp.GradScaler("cpu")
    before = [p.detach().clone() for p in model.parameters()]
    for i in range(4):
        opt.zero_grad()
        loss = loss_of(model, x)
        if i == 1:
            loss = loss * float("inf")
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
    assert scaler.get_scale() < 65536.0  # the inf really caused a skip
    assert any(not torch.equal(a, b) for a, b in zip(before, model.parameters(), strict=True))


@pytest.mark.parametrize("flavour", [{"foreach": True}, {"fused": True}, {"foreach": False}])
def test_foreach_and_fused(session, model, x, flavour):
    train(model, torch.optim.AdamW(model.parameters(), **flavour), x)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, **flavour)
    for _ in range(2):
        opt.zero_grad(set_to_none=False)
        loss_of(model, x).backward()
        opt.step()


def test_autograd_grad_assigned_by_hand(session, model, x):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    params = list(model.parameters())
    for _ in range(3):
        grads = torch.autograd.grad(loss_of(model, x), params)
        for param, grad in zip(params, grads, strict=True):
            param.grad = grad
        opt.step()


def test_parameter_gradients_read_with_autograd_grad_are_not_passes(session, model, x):
    """``torch.autograd.grad`` w.r.t. the parameters (a gradient norm logged after the
    step, MAML's inner loop) fires their tensor hooks but accumulates nothing: it opens
    no window, so the next clear discards nothing and the step counts one pass."""
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    params = list(model.parameters())
    for _ in range(3):
        opt.zero_grad()
        loss_of(model, x).backward()
        opt.step()
        grads = torch.autograd.grad(loss_of(model, x), params)
        assert all(grad is not None for grad in grads)
    assert [event.backward_passes for event in session.report.events] == [1, 1, 1]


def test_autograd_grad_penalty_plus_backward(session, model, x):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(3):
        opt.zero_grad()
        inputs = x.clone().requires_grad_(True)
        out = model(inputs).sum()
        (grad_in,) = torch.autograd.grad(out, inputs, create_graph=True)
        (out + grad_in.pow(2).sum()).backward()
        opt.step()


def test_retain_graph_multi_loss(session, model, x):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(3):
        opt.zero_grad()
        out = model(x)
        out.mean().backward(retain_graph=True)
        out.pow(2).mean().backward()
        opt.step()
    assert session.report.events[-1].backward_passes == 2


@pytest.mark.filterwarnings("ignore:Using backward")
def test_backward_create_graph(session, model, x):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(3):
        opt.zero_grad()
        loss_of(model, x).backward(create_graph=True)
        opt.step()
    for param in model.parameters():
        param.grad = None  # break the grad -> graph -> param cycle


def test_legacy_data_zero(session, model, x):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(3):
        for param in model.parameters():
            if param.grad is not None:
                param.grad.data.zero_()
        loss_of(model, x).backward()
        opt.step()


def test_module_zero_grad(session, model, x):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(3):
        model.zero_grad()
        loss_of(model, x).backward()
        opt.step()


@pytest.mark.parametrize("optimizer", ["lbfgs", "sgd"])
def test_closures(session, model, x, optimizer):
    if optimizer == "lbfgs":
        opt = torch.optim.LBFGS(model.parameters(), max_iter=3)
    else:
        opt = torch.optim.SGD(model.parameters(), lr=0.1)

    def closure():
        opt.zero_grad()
        loss = loss_of(model, x)
        loss.backward()
        return loss

    for _ in range(3):
        opt.step(closure)
    assert session.report.steps_checked == 3


def test_lbfgs_closure_evaluations_are_not_counted_as_steps(session, model, x):
    """60 closure evaluations in 3 steps were reported as '60 steps checked'."""
    opt = torch.optim.LBFGS(model.parameters(), max_iter=20, tolerance_grad=0, tolerance_change=0)
    evaluations = []

    def closure():
        evaluations.append(1)
        opt.zero_grad()
        loss = loss_of(model, x)
        loss.backward()
        return loss

    for _ in range(3):
        opt.step(closure)
    assert len(evaluations) > 3
    assert session.report.steps_checked == 3


def test_lightning_style_closure_accumulation(session, model, x):
    """Backward outside step for the first micro-batch, inside step(closure) for the last."""
    opt = torch.optim.SGD(model.parameters(), lr=0.1)

    def micro_batch(first):
        if first:
            opt.zero_grad()
        loss_of(model, x).backward()

    for _ in range(3):
        micro_batch(first=True)
        opt.step(lambda: micro_batch(first=False))
    assert session.report.events[-1].backward_passes == 2


class Lookahead(torch.optim.Optimizer):
    """Minimal Lookahead-style wrapper: a torch Optimizer whose step calls an inner step."""

    def __init__(self, inner):
        self.inner = inner
        super().__init__(inner.param_groups, {})
        self.param_groups = inner.param_groups

    def step(self, closure=None):
        return self.inner.step(closure)

    def zero_grad(self, set_to_none=True):
        self.inner.zero_grad(set_to_none)


def test_wrapper_calling_inner_step_counted_once(session, model, x):
    train(model, Lookahead(torch.optim.SGD(model.parameters(), lr=0.1)), x, 3)
    assert session.report.steps_checked == 3


def test_frozen_and_unused_parameters(session, x):
    model = make_model()
    unused = torch.nn.Linear(3, 3)
    model[0].weight.requires_grad_(False)
    opt = torch.optim.SGD([*model.parameters(), *unused.parameters()], lr=0.1)
    train(model, opt, x)


def test_guard_started_mid_training(model, x):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loss_of(model, x).backward()
    with guard() as session:
        opt.step()  # first sight of this optimizer: nothing to judge yet
        train(model, opt, x, 2)
    assert not session.report.violations


def test_parameters_unfrozen_mid_training_are_watched(x):
    model = make_model()
    for param in model.parameters():
        param.requires_grad_(False)
    model[2].weight.requires_grad_(True)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    expected = r"parameters \(4\): 0\.weight, 0\.bias, 2\.weight, 2\.bias"
    with pytest.raises(GradientGuardError, match=expected), guard():
        train(model, opt, x, 2)
        for param in model.parameters():
            param.requires_grad_(True)
        train(model, opt, x, 1)  # boundary: hooks installed on the unfrozen parameters
        for _ in range(2):  # then a missing clear on them is caught
            loss_of(model, x).backward()
            opt.step()
