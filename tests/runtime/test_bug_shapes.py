"""Each bug shape from the issue fails under the guard, with the right rule code."""

from __future__ import annotations

import pytest
import torch

from tests.runtime.conftest import loss_of, make_model
from zerograd_guard.runtime import GradientGuardError, guard


def raised_code(run) -> str:
    with pytest.raises(GradientGuardError) as caught, guard():
        run()
    return caught.value.finding.code


def test_missing_clear(model, x):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)

    def run():
        for _ in range(3):
            loss_of(model, x).backward()
            opt.step()

    assert raised_code(run) == "ZG101"


def test_clear_only_before_loop(model, x):
    opt = torch.optim.Adam(model.parameters())

    def run():
        opt.zero_grad()
        for _ in range(3):
            loss_of(model, x).backward()
            opt.step()

    with pytest.raises(GradientGuardError) as caught, guard():
        run()
    finding = caught.value.finding
    assert finding.code == "ZG101"
    assert finding.step == 2
    assert finding.parameters == ["0.weight", "0.bias", "2.weight", "2.bias"]
    assert finding.clear_site is not None and finding.backward_sites


def test_clear_per_epoch_step_per_batch(model, x):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)

    def run():
        for _epoch in range(2):
            opt.zero_grad()
            for _batch in range(3):
                loss_of(model, x).backward()
                opt.step()

    assert raised_code(run) == "ZG101"


@pytest.mark.parametrize("set_to_none", [True, False])
def test_clear_between_backward_and_step(model, x, set_to_none):
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)

    with pytest.raises(GradientGuardError) as caught, guard():
        for _ in range(3):
            loss_of(model, x).backward()
            opt.zero_grad(set_to_none=set_to_none)
            opt.step()
    finding = caught.value.finding
    assert finding.code == "ZG102"
    assert "backward:   " in str(caught.value) and "loss_of(model, x).backward()" in str(
        caught.value
    )
    assert "opt.zero_grad(set_to_none=set_to_none)" in str(caught.value)


def test_repeated_step(model, x):
    opt = torch.optim.Adam(model.parameters())

    def run():
        for _ in range(2):
            opt.zero_grad()
            loss_of(model, x).backward()
            opt.step()
            opt.step()

    with pytest.raises(GradientGuardError) as caught, guard():
        run()
    assert caught.value.finding.code == "ZG102"
    assert "repeated step" in str(caught.value)


def test_gan_generator_never_cleared(x):
    generator, discriminator = make_model(1), torch.nn.Linear(1, 1)
    g_opt = torch.optim.Adam(generator.parameters())
    d_opt = torch.optim.Adam(discriminator.parameters())

    def run():
        for _ in range(3):
            d_opt.zero_grad()
            fake = generator(x)
            discriminator(fake.detach()).mean().backward()
            d_opt.step()
            discriminator(fake).mean().neg().backward()  # g_opt.zero_grad() missing
            g_opt.step()

    with pytest.raises(GradientGuardError) as caught, guard():
        run()
    assert caught.value.finding.code == "ZG101"
    assert caught.value.finding.optimizer.startswith("Adam #")
    assert all(not name.startswith("weight") for name in caught.value.finding.parameters)


def test_wrong_module_cleared(x):
    model, other = make_model(0), make_model(2)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)

    def run():
        for _ in range(3):
            other.zero_grad()
            loss_of(model, x).backward()
            opt.step()

    assert raised_code(run) == "ZG101"


def test_missing_clear_with_grad_scaler(model, x):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = torch.amp.GradScaler("cpu")

    def run():
        for _ in range(3):
            with torch.autocast("cpu", dtype=torch.bfloat16):
                loss = loss_of(model, x)
            scaler.scale(loss).backward()
            scaler.step(opt)
            scaler.update()

    assert raised_code(run) == "ZG101"


@pytest.mark.parametrize("flavour", [{"foreach": True}, {"fused": True}])
def test_fused_and_foreach_missing_clear(model, x, flavour):
    opt = torch.optim.AdamW(model.parameters(), **flavour)

    def run():
        opt.zero_grad()
        for _ in range(3):
            loss_of(model, x).backward()
            opt.step()

    assert raised_code(run) == "ZG101"


def test_partial_manual_clear(model, x):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    params = list(model.parameters())

    def run():
        for _ in range(3):
            params[0].grad = None
            loss_of(model, x).backward()
            opt.step()

    with pytest.raises(GradientGuardError) as caught, guard():
        run()
    assert caught.value.finding.code == "ZG101"
    assert caught.value.finding.parameters == ["0.bias", "2.weight", "2.bias"]


def test_lbfgs_closure_without_clear(model, x):
    opt = torch.optim.LBFGS(model.parameters(), max_iter=2)

    def closure():
        loss = loss_of(model, x)
        loss.backward()
        return loss

    def run():
        for _ in range(2):
            opt.step(closure)

    assert raised_code(run) == "ZG101"


def test_accumulate_contract_catches_clear_every_microbatch(model, x):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    from zerograd_guard.runtime import accumulate

    with pytest.raises(GradientGuardError) as caught, accumulate(2):
        for i in range(4):
            opt.zero_grad()
            loss_of(model, x).backward()
            if i % 2 == 1:
                opt.step()
    assert caught.value.finding.code == "ZG103"


def test_accumulate_contract_catches_off_by_one(model, x):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    from zerograd_guard.runtime import accumulate

    with pytest.raises(GradientGuardError) as caught, accumulate(2):
        opt.zero_grad()
        for _ in range(3):
            loss_of(model, x).backward()
        opt.step()
    assert "consumed 3 backward pass(es)" in str(caught.value)


def test_warn_mode_warns_instead_of_raising(model, x):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    with pytest.warns(UserWarning, match="ZG101"), guard("warn") as session:
        for _ in range(3):
            loss_of(model, x).backward()
            opt.step()
    assert [finding.code for finding in session.report.violations] == ["ZG101", "ZG101"]


class Wrapper(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.model = make_model()

    def forward(self, x):
        return self.model(x)


def test_names_come_from_the_outermost_owning_module(x):
    wrapper = Wrapper()
    opt = torch.optim.SGD(wrapper.model.parameters(), lr=0.1)

    def run():
        for _ in range(2):
            loss_of(wrapper, x).backward()
            opt.step()

    with pytest.raises(GradientGuardError) as caught, guard():
        run()
    assert caught.value.finding.parameters[0] == "model.0.weight"
    assert "parameters (4): model.0.weight" in str(caught.value)


def test_named_parameters_given_to_the_optimizer_name_the_report(x):
    model = make_model()
    opt = torch.optim.SGD([("first.w", model[0].weight)], lr=0.1)
    with pytest.raises(GradientGuardError, match=r"first\.w"), guard():
        for _ in range(2):
            loss_of(model, x).backward()
            opt.step()


def test_second_optimizer_is_identified(x):
    model, other = make_model(0), make_model(1)
    good = torch.optim.SGD(other.parameters(), lr=0.1)
    bad = torch.optim.SGD(model.parameters(), lr=0.1)
    with pytest.raises(GradientGuardError, match=r"optimizer: SGD #2, step 2"), guard():
        for _ in range(2):
            good.zero_grad()
            loss_of(other, x).backward()
            good.step()
            loss_of(model, x).backward()
            bad.step()


class IgnoresClosure(torch.optim.SGD):
    """A custom optimizer whose step never calls the closure it is given."""

    def step(self, closure=None):
        return super().step()


def test_step_ignoring_its_closure_is_judged_after_the_step(model, x):
    opt = IgnoresClosure(model.parameters(), lr=0.1)

    def run():
        opt.zero_grad()
        for _ in range(3):
            loss_of(model, x).backward()
            opt.step(lambda: None)

    assert raised_code(run) == "ZG101"


def test_plain_tensors_are_named_from_the_users_variables():
    """``optim.Adam([W, b])``, every tutorial's first example, read ``<unnamed (4, 3)>``."""
    W = torch.randn(4, 3, requires_grad=True)
    b = torch.zeros(3, requires_grad=True)
    opt = torch.optim.Adam([W, b])
    x = torch.randn(5, 4)
    with pytest.raises(GradientGuardError) as caught, guard():
        for _ in range(3):
            (x @ W + b).pow(2).mean().backward()
            opt.step()
    assert caught.value.finding.parameters == ["W", "b"]


class _EntropyTuner:
    """SAC's temperature: a plain tensor held as an attribute, with its own optimizer."""

    def __init__(self):
        self.log_alpha = torch.zeros(1, requires_grad=True)
        self.alpha_optim = torch.optim.Adam([self.log_alpha], lr=3e-4)

    def update(self, log_pi):
        (-(self.log_alpha * (log_pi - 2.0)).mean()).backward()
        self.alpha_optim.step()


def test_plain_tensors_held_as_attributes_are_named_from_them():
    """``self.log_alpha`` read ``<unnamed (1,)>``: only variables were searched."""
    tuner = _EntropyTuner()
    with pytest.raises(GradientGuardError) as caught, guard():
        for _ in range(3):
            tuner.update(torch.randn(8))
    assert caught.value.finding.parameters == ["self.log_alpha"]


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.model = torch.nn.Sequential(torch.nn.Linear(4, 4))

    def forward(self, x):
        return self.model(x)


class Wrapped(torch.nn.Module):
    """DDP-style wrapper: ``module.`` prefixes every name."""

    def __init__(self, module):
        super().__init__()
        self.module = module

    def forward(self, x):
        return self.module(x)


def test_names_say_whose_they_are_and_drop_wrapper_prefixes(x):
    g_ab, g_ba = Wrapped(Net()), Wrapped(Net())
    opt = torch.optim.Adam([*g_ab.parameters(), *g_ba.parameters()])
    with pytest.raises(GradientGuardError) as caught, guard():
        for _ in range(3):
            (g_ab(x) + g_ba(x)).sum().backward()
            opt.step()
    assert caught.value.finding.parameters == [
        "g_ab.model.0.weight",
        "g_ab.model.0.bias",
        "g_ba.model.0.weight",
        "g_ba.model.0.bias",
    ]
