"""The guard survives what real training code does to it: errors and interrupts in the
loop, nesting, concurrent backward passes from threads, and optimizers it met late.

Each test checks the guard's state afterwards through torch's own registries, and that
a fresh guarded block still judges correctly (catches a bug, stays silent on a correct
loop) — a guard that merely stops crashing but goes blind would pass otherwise.
"""

from __future__ import annotations

import threading
import warnings

import pytest
import torch

from tests.hardening.runtime.helpers import (
    batch,
    loss_of,
    make_model,
    monitor_is_idle,
    registries,
    train,
)
from zerograd_guard.runtime import (
    GradientGuardError,
    GradientGuardWarning,
    accumulate,
    guard,
)
from zerograd_guard.runtime.monitor import MONITOR


class Interrupt(BaseException):
    """Stands for KeyboardInterrupt/SystemExit-like exits that ``except Exception`` misses."""


def still_judges(model: torch.nn.Module, x: torch.Tensor) -> None:
    """A new guarded block is silent on a correct loop and catches a missing clear."""
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    with warnings.catch_warnings():
        warnings.simplefilter("error", GradientGuardWarning)
        with guard() as session:
            train(model, opt, x, 3)
    assert session.report.steps_checked == 3 and not session.report.violations
    with pytest.raises(GradientGuardError, match="ZG101"), guard():
        train(model, opt, x, 3, clear=False)
    assert monitor_is_idle()


def _raise(error: BaseException):
    def hook(*_args: object) -> None:
        raise error

    return hook


WHERE = ["loop-body", "backward-hook", "inside-step", "lbfgs-closure", "zero_grad"]


@pytest.mark.parametrize("where", WHERE)
@pytest.mark.parametrize("error", [RuntimeError("user bug"), KeyboardInterrupt(), Interrupt()])
def test_exit_from_anywhere_in_the_loop_removes_everything(where, error):
    model, x = make_model(), batch()
    params = list(model.parameters())
    before = registries(params)
    opt = (
        torch.optim.LBFGS(params, max_iter=2)
        if where == "lbfgs-closure"
        else torch.optim.SGD(params, lr=0.01)
    )
    handles = []

    def closure():
        opt.zero_grad()
        loss = loss_of(model, x)
        loss.backward()
        if where == "lbfgs-closure":
            raise error
        return loss

    with pytest.raises(type(error)), guard():
        opt.zero_grad()
        loss_of(model, x).backward()
        opt.step(closure) if where == "lbfgs-closure" else opt.step()
        assert registries(params) != before  # the guard really was installed
        if where == "inside-step":  # after the guard's pre-hook judged, before its post-hook
            handles.append(opt.register_step_pre_hook(_raise(error)))
        if where == "zero_grad":  # a clear that blows up half-way (after the guard's wrapper)
            handles.append(model.register_full_backward_pre_hook(_raise(error)))
        opt.zero_grad()
        output = model(x)
        if where == "backward-hook":
            output.register_hook(_raise(error))
        output.pow(2).mean().backward()
        if where == "loop-body":
            raise error
        opt.step(closure) if where == "lbfgs-closure" else opt.step()
    for handle in handles:
        handle.remove()
    assert registries(params) == before
    assert monitor_is_idle()
    still_judges(model, x)


def test_interrupt_inside_an_inner_guard_leaves_the_outer_guard_working():
    model, x = make_model(), batch()
    opt = torch.optim.Adam(model.parameters())
    params = list(model.parameters())
    with guard("warn") as outer:
        installed = registries(params)
        with pytest.raises(KeyboardInterrupt), guard():
            train(model, opt, x, 2)
            raise KeyboardInterrupt
        # Still installed: global hooks as before, the parameters' hooks (added lazily
        # when the optimizer was first seen) still there.
        assert MONITOR.active and registries(params)[:2] == installed[:2]
        assert registries(params)[2] == [1] * len(params)
        train(model, opt, x, 2)
        with pytest.warns(GradientGuardWarning, match="ZG101"):
            train(model, opt, x, 2, clear=False)
    assert outer.report.steps_checked == 6
    assert [f.code for f in outer.report.violations] == ["ZG101", "ZG101"]
    assert monitor_is_idle()


def test_caught_error_inside_the_guard_then_training_resumes():
    """A notebook cell that failed once, caught, and was run again inside the same guard."""
    model, x = make_model(), batch()
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    with guard() as session:
        train(model, opt, x, 2)
        try:
            opt.zero_grad()
            loss_of(model, x).backward()
            raise ValueError("data loader broke before the step")
        except ValueError:
            pass
        with pytest.warns(GradientGuardWarning, match="ZG103 gradients discarded"):
            opt.zero_grad()  # throws the failed iteration's pass away: a warning only
            loss_of(model, x).backward()
            opt.step()
        with pytest.raises(GradientGuardError, match="ZG101"):
            train(model, opt, x, 2, clear=False)
        train(model, opt, x, 2)
    assert [f.code for f in session.report.violations] == ["ZG101"]
    assert [f.code for f in session.report.warnings] == ["ZG103"]
    assert session.report.steps_checked == 2 + 1 + 1 + 2  # the violation raised at its 1st


# --- re-entrant use -----------------------------------------------------------------------


def test_warn_guard_inside_error_guard_warns_then_error_resumes():
    model, x = make_model(), batch()
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    with guard() as outer:
        with pytest.warns(GradientGuardWarning, match="ZG101"), guard("warn") as inner:
            train(model, opt, x, 2, clear=False)  # innermost (warn) decides: no raise
        with pytest.raises(GradientGuardError, match="ZG101"):
            train(model, opt, x, 2, clear=False)
    assert [f.code for f in inner.report.violations] == ["ZG101"]
    assert [f.code for f in outer.report.violations] == ["ZG101", "ZG101"]
    assert monitor_is_idle()


def test_accumulate_contract_inside_guards_inherits_mode_and_nests():
    model, x = make_model(), batch()
    opt = torch.optim.SGD(model.parameters(), lr=0.01)

    def window(passes: int) -> None:
        opt.zero_grad()
        for _ in range(passes):
            loss_of(model, x).backward()
        opt.step()

    with guard("warn") as outer:
        with accumulate(2) as two:
            window(2)
            with pytest.warns(GradientGuardWarning, match="ZG103"):
                window(3)  # off by one: a warning, the mode comes from the outer guard
            with accumulate(3):
                window(3)  # the innermost contract applies
            window(2)  # and the outer contract is back afterwards
        window(5)  # no contract any more: plain accumulation is fine
    with guard(), pytest.raises(GradientGuardError, match="ZG103"), accumulate(2):
        window(1)  # inside an error guard the contract raises
    assert [f.code for f in two.report.violations] == ["ZG103"]
    assert [f.code for f in outer.report.violations] == ["ZG103"]
    assert [event.backward_passes for event in outer.report.events] == [2, 3, 3, 2, 5]
    assert monitor_is_idle()


def test_guards_exited_out_of_order_keep_hooks_until_the_last():
    model, x = make_model(), batch()
    params = list(model.parameters())
    opt = torch.optim.SGD(params, lr=0.01)
    before = registries(params)
    first, second = guard("warn"), guard()
    first.__enter__()
    second.__enter__()
    train(model, opt, x, 1)
    first.__exit__(None, None, None)  # not the innermost: hooks must stay
    assert MONITOR.active
    with pytest.raises(GradientGuardError):
        train(model, opt, x, 2, clear=False)  # `second` (error) is the only session now
    second.__exit__(None, None, None)
    assert registries(params) == before and monitor_is_idle()
    assert first.report.steps_checked == 1 and second.report.steps_checked == 2


# --- threads -----------------------------------------------------------------------------


def test_threads_training_separate_models_concurrently():
    """Each thread trains its own model; only the buggy thread's optimizer is reported."""
    workers, steps = 4, 25
    barrier = threading.Barrier(workers)
    errors: dict[int, list[str]] = {}
    labels: dict[int, str] = {}

    def work(index: int) -> None:
        model, x = make_model(index), batch(index)
        opt = torch.optim.Adam(model.parameters())
        caught: list[str] = []
        barrier.wait()  # start the backward passes together
        for _ in range(steps):
            if index != 0:  # thread 0 never clears
                opt.zero_grad()
            loss_of(model, x).backward()
            try:
                opt.step()
            except GradientGuardError as error:
                caught.append(error.finding.code)
                labels[index] = error.finding.optimizer
            except Exception as error:  # pragma: no cover - reported by the assertion
                caught.append(repr(error))
        errors[index] = caught

    with warnings.catch_warnings():
        warnings.simplefilter("error", GradientGuardWarning)
        with guard() as session:
            threads = [threading.Thread(target=work, args=(i,)) for i in range(workers)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
    assert errors == {0: ["ZG101"] * (steps - 1), **{i: [] for i in range(1, workers)}}
    assert session.report.steps_checked == workers * steps
    assert {f.optimizer for f in session.report.violations} == {labels[0]}
    assert monitor_is_idle()


# --- optimizers that existed before the guard ---------------------------------------------


@pytest.mark.parametrize("first_guarded_call", ["zero_grad", "backward", "step"])
def test_optimizer_created_before_the_guard(first_guarded_call):
    """Trained unguarded first; inside the guard the first observed step starts judging."""
    model, x = make_model(), batch()
    opt = torch.optim.AdamW(model.parameters())
    train(model, opt, x, 2)  # unguarded history, stale gradients left in place
    loss_of(model, x).backward()  # and an unguarded half-window
    with guard() as session:
        if first_guarded_call == "zero_grad":
            opt.zero_grad()
        elif first_guarded_call == "backward":
            loss_of(model, x).backward()
        opt.step()  # first sight: nothing to judge against yet, must not accuse
        train(model, opt, x, 2)
    assert session.report.violations == [] and session.report.steps_checked == 3
    with guard() as later, pytest.raises(GradientGuardError, match="step 2"):
        train(model, opt, x, 3, clear=False)  # a missing clear: caught at the 2nd step
    assert [f.code for f in later.report.violations] == ["ZG101"]
    assert monitor_is_idle()


def test_repeated_step_after_the_guard_met_the_optimizer_late():
    model, x = make_model(), batch()
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    train(model, opt, x, 2)
    with guard(), pytest.raises(GradientGuardError, match="ZG102"):
        opt.zero_grad()
        loss_of(model, x).backward()
        opt.step()
        opt.step()


def test_guard_inside_an_abandoned_generator():
    """A training generator guarded inside, consumed partly: ``close()`` exits the guard."""
    model, x = make_model(), batch()
    params = list(model.parameters())
    before = registries(params)

    def training_steps():
        opt = torch.optim.SGD(params, lr=0.01)
        with guard():
            while True:
                opt.zero_grad()
                loss = loss_of(model, x)
                loss.backward()
                opt.step()
                yield loss.detach()

    steps = training_steps()
    for _, _loss in zip(range(3), steps, strict=False):
        assert MONITOR.active
    steps.close()  # GeneratorExit raised at the yield, inside the guard
    assert registries(params) == before and monitor_is_idle()
    still_judges(model, x)


class HalfBuilt(torch.nn.Module):
    def __init__(self) -> None:
        raise ValueError("bad config")  # before nn.Module.__init__ ran


def test_half_built_module_alive_elsewhere_does_not_break_the_report():
    """A model whose constructor failed, kept alive by a traceback (``pytest.raises``)."""
    with pytest.raises(ValueError) as failed_construction:
        HalfBuilt()
    model, x = make_model(), batch()
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    with pytest.raises(GradientGuardError, match=r"parameters \(4\): 0\.weight"), guard():
        train(model, opt, x, 2, clear=False)
    assert failed_construction.value is not None  # it was alive throughout
