"""Guarantees of the guard itself: no sync, no leaks, no numerics change, clean nesting."""

from __future__ import annotations

import contextlib
import gc
import threading
import weakref
from collections import Counter

import pytest
import torch
from torch.utils._python_dispatch import TorchDispatchMode

from tests.runtime.conftest import loss_of, make_model
from zerograd_guard.runtime import GradientGuardError, GradientGuardWarning, guard
from zerograd_guard.runtime.monitor import MONITOR


class OpRecorder(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.ops: Counter[str] = Counter()

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.ops[str(func.overloadpacket)] += 1
        return func(*args, **(kwargs or {}))


def recorded_ops(guarded: bool, legacy_clear: bool = False, adam: bool = True) -> Counter[str]:
    model = make_model()
    opt = torch.optim.Adam(model.parameters()) if adam else torch.optim.SGD(model.parameters())
    x = torch.randn(8, 4)

    def steps(n):
        for _ in range(n):
            if legacy_clear:
                for param in model.parameters():
                    if param.grad is not None:
                        param.grad.data.zero_()
            else:
                opt.zero_grad()
            loss_of(model, x).backward()
            opt.step()

    if guarded:
        with guard():
            steps(2)
            with OpRecorder() as recorder:
                steps(3)
    else:
        steps(2)
        with OpRecorder() as recorder:
            steps(3)
    return recorder.ops


@pytest.mark.parametrize("adam", [True, False])
def test_correct_path_dispatches_exactly_the_unguarded_ops(adam):
    guarded, plain = recorded_ops(True, adam=adam), recorded_ops(False, adam=adam)
    assert guarded == plain  # same ops, same counts: no sync, no gradient-sized copy
    if not adam:  # (CPU Adam reads its step counter on the host itself)
        assert "aten._local_scalar_dense" not in guarded
    assert guarded["aten.addmm"] > 0  # the recorder really saw the training step


def test_invisible_clear_costs_one_batched_check_per_step():
    extra = recorded_ops(True, legacy_clear=True) - recorded_ops(False, legacy_clear=True)
    # One 0-dim device flag per parameter tensor per step, read in one batch per step.
    assert extra == Counter({"aten.any": 4 * 3, "aten.stack": 3})


def hook_counts(params):
    from torch.optim import optimizer as optim_module

    return (
        len(optim_module._global_optimizer_pre_hooks),
        len(optim_module._global_optimizer_post_hooks),
        [len(p._backward_hooks or {}) for p in params],
        [len(getattr(p, "_post_accumulate_grad_hooks", None) or {}) for p in params],
        torch.optim.Optimizer.__dict__["zero_grad"],
        torch.nn.Module.__dict__["zero_grad"],
        torch.amp.GradScaler.__dict__["step"],
    )


@pytest.mark.parametrize("outcome", ["pass", "violation", "raise"])
def test_no_hook_or_patch_left_behind(outcome, x):
    model = make_model()
    params = list(model.parameters())
    opt = torch.optim.SGD(params, lr=0.1)
    before = hook_counts(params)
    expected = pytest.raises((GradientGuardError, KeyError)) if outcome != "pass" else _nothing()
    with expected, guard():
        opt.zero_grad()
        assert hook_counts(params) != before  # hooks really were installed
        for _ in range(2):
            loss_of(model, x).backward()
            if outcome == "raise":
                raise KeyError("user error")
            opt.step()
            if outcome == "pass":
                opt.zero_grad()
    assert hook_counts(params) == before
    assert not MONITOR.active


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_models_and_optimizers_are_not_kept_alive(x):
    with guard():
        model = make_model()
        opt = torch.optim.Adam(model.parameters())
        for _ in range(2):
            opt.zero_grad()
            loss_of(model, x).backward()
            opt.step()
        refs = [weakref.ref(model), weakref.ref(opt), weakref.ref(model[0].weight)]
        del model, opt
        gc.collect()
        assert [ref() for ref in refs] == [None, None, None]
        assert MONITOR.registry.states == {} and MONITOR.registry.trackers == {}


def test_guarded_training_is_bit_identical(x):
    def run(guarded):
        model = make_model(3)
        opt = torch.optim.AdamW(model.parameters(), foreach=True)
        with guard() if guarded else _nothing():
            for i in range(4):
                loss_of(model, x + i).backward()
                if i % 2:
                    opt.step()
                    opt.zero_grad()
        return [p.detach().clone() for p in model.parameters()]

    assert all(torch.equal(a, b) for a, b in zip(run(True), run(False), strict=True))


def test_nested_guards_install_once_and_both_record(model, x):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    with guard("warn") as outer:
        installed = hook_counts(list(model.parameters()))
        with pytest.raises(GradientGuardError), guard() as inner:
            assert hook_counts(list(model.parameters()))[:2] == installed[:2]
            for _ in range(2):
                loss_of(model, x).backward()
                opt.step()
        assert MONITOR.active
        with pytest.warns(GradientGuardWarning):
            loss_of(model, x).backward()
            opt.step()
    assert [f.code for f in inner.report.violations] == ["ZG101"]
    assert [f.code for f in outer.report.violations] == ["ZG101", "ZG101"]
    assert not MONITOR.active


def test_same_guard_object_reentered(model, x):
    session = guard()

    @session
    def train(depth):
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        opt.zero_grad()
        loss_of(model, x).backward()
        opt.step()
        if depth:
            train(depth - 1)

    train(1)
    assert session.report.steps_checked == 2 and not MONITOR.active


def test_hooks_from_another_thread(model, x):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    errors = []

    def backward():
        try:
            loss_of(model, x).backward()
        except Exception as error:  # pragma: no cover - reported below
            errors.append(error)

    with pytest.raises(GradientGuardError), guard():
        for _ in range(2):
            thread = threading.Thread(target=backward)
            thread.start()
            thread.join()
            opt.step()
    assert errors == []


def test_swallowed_violation_does_not_cascade(model, x):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    with guard() as session:
        for _ in range(3):
            loss_of(model, x).backward()
            with contextlib.suppress(GradientGuardError):
                opt.step()
    assert len(session.report.violations) == 2


def test_discarded_window_warns(model, x):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    with pytest.warns(GradientGuardWarning, match="discarded"), guard() as session:
        for i in range(4):
            opt.zero_grad()
            loss_of(model, x).backward()
            if i % 2:
                opt.step()
    assert session.report.violations == []
    assert [f.code for f in session.report.warnings] == ["ZG103"]


def test_optimizer_not_observed_warns(model, x):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    with pytest.warns(GradientGuardWarning, match="not observed"), guard() as session:
        for _ in range(3):
            for param in model.parameters():
                param.grad = torch.ones_like(param)  # a flat-buffer engine writes grads
            opt.step()
    assert len(session.report.warnings) == 1


@pytest.mark.filterwarnings("ignore:Using backward")
def test_create_graph_missing_clear_is_caught(model, x):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    try:
        with pytest.raises(GradientGuardError, match="ZG101"), guard():
            opt.zero_grad()
            for _ in range(2):
                loss_of(model, x).backward(create_graph=True)
                opt.step()
    finally:
        for param in model.parameters():
            param.grad = None


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
def test_no_host_device_sync_on_cuda():
    model = make_model().cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    x = torch.randn(16, 4, device="cuda")
    with guard() as session:
        for _ in range(2):  # warm-up: lazy initialisation may sync
            opt.zero_grad()
            loss_of(model, x).backward()
            opt.step()
        torch.cuda.synchronize()
        torch.cuda.set_sync_debug_mode("error")
        try:
            for _ in range(3):
                opt.zero_grad()
                loss_of(model, x).backward()
                opt.step()
        finally:
            torch.cuda.set_sync_debug_mode("default")
    assert session.report.steps_checked == 5 and not session.report.violations


def test_bad_arguments_are_rejected_up_front():
    with pytest.raises(ValueError, match="'error' or 'warn'"):
        guard("loud")
    with pytest.raises(ValueError, match="positive integer"):
        guard(accumulate=0)
    assert not MONITOR.active


def test_no_finalizer_left_per_parameter_after_exit(model, x):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(3):
        with guard():
            opt.zero_grad()
            loss_of(model, x).backward()
            opt.step()
    alive = [f for f in weakref.finalize._registry if f.peek() and f.peek()[0] is model[0].weight]
    assert alive == []


def test_package_reexports_the_runtime_lazily():
    import zerograd_guard
    from zerograd_guard import runtime

    for name in ("guard", "accumulate", "GradientGuardError", "GuardReport"):
        assert getattr(zerograd_guard, name) is getattr(runtime, name)
    assert issubclass(zerograd_guard.GradientGuardError, AssertionError)


def test_pickling_a_watched_parameter_does_not_warn(model, x):
    """stable-baselines3 pickles parameters with warnings as errors."""
    import pickle
    import warnings

    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    with guard():
        opt.zero_grad()
        loss_of(model, x).backward()
        opt.step()
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            restored = pickle.loads(pickle.dumps(model[0].weight))
    assert torch.equal(restored, model[0].weight)


def test_guard_refuses_to_decorate_generators_and_async_functions():
    """Decorating them guarded nothing: the body runs after the call returned."""

    def batches():
        yield 1

    async def train():
        return None

    async def stream():
        yield 1

    for function in (batches, train, stream):
        with pytest.raises(TypeError, match=r"cannot decorate .*use `with zerograd_guard\.guard"):
            guard(function)
        with pytest.raises(TypeError, match="generator or async"):
            guard("warn")(function)
