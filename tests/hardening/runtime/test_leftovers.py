"""Ways to leave guard state behind after the last guard exited, and that none does.

``tests/runtime`` checks a plain enter/exit; these are the indirect routes: a guard
wrapper kept by user code past the guard's exit, and wrappers that other code (a
``monkeypatch`` fixture, a library) stacked on top of the guard's and undid later.
"""

from __future__ import annotations

import gc
import weakref

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
from zerograd_guard.runtime import guard
from zerograd_guard.runtime.monitor import MONITOR


@pytest.mark.parametrize("owner", ["optimizer", "module"])
def test_wrapper_kept_past_the_guard_installs_nothing(owner):
    """A trainer that stored ``optimizer.zero_grad`` while guarded calls it afterwards."""
    model, x = make_model(), batch()
    params = list(model.parameters())
    opt = torch.optim.SGD(params, lr=0.01)
    before = registries(params)
    with guard():
        clear = opt.zero_grad if owner == "optimizer" else model.zero_grad
        train(model, opt, x, 2)
    assert registries(params) == before
    try:
        loss_of(model, x).backward()
        clear()
        opt.step()
        assert registries(params) == before  # no per-parameter hooks, no finalizers
        assert monitor_is_idle()
    finally:
        with guard():  # whatever leaked, the next guard's exit removes it: keep it local
            pass
    refs = [weakref.ref(opt), weakref.ref(params[0])]
    del model, opt, params, clear
    gc.collect()
    assert [ref() for ref in refs] == [None, None]


@pytest.mark.parametrize("name", ["zero_grad", "step"])
def test_wrapper_stacked_on_ours_and_undone_later_heals(name):
    """Someone patches on top of the guard's wrapper and restores it after the guard ends.

    The guard cannot remove a wrapper it does not own, so ours stays as an inert
    pass-through; the next guard must put the original function object back.
    """
    owner = torch.optim.Optimizer if name == "zero_grad" else torch.amp.GradScaler
    original = owner.__dict__[name]
    with guard():
        ours = owner.__dict__[name]
        assert ours is not original

        def theirs(*args, **kwargs):
            return ours(*args, **kwargs)

        setattr(owner, name, theirs)
    try:
        assert owner.__dict__[name] is theirs  # not ours to restore
        setattr(owner, name, ours)  # their undo, after the guard: our stale wrapper is back
        model, x = make_model(), batch()
        opt = torch.optim.SGD(model.parameters(), lr=0.01)
        train(model, opt, x, 2)  # works as a pass-through
        assert monitor_is_idle()
        with guard() as session:
            train(model, opt, x, 2)
        assert session.report.steps_checked == 2 and not session.report.violations
        assert owner.__dict__[name] is original
    finally:
        setattr(owner, name, original)


def test_short_lived_models_leave_nothing_behind_in_a_long_guard():
    """5,000 short-lived (model, optimizer) pairs once left 26,000 dead finalizers."""
    from zerograd_guard.runtime.report import MAX_OPTIMIZER_LABELS

    def finalizers_alive_or_dead() -> int:
        return sum(1 for obj in gc.get_objects() if isinstance(obj, weakref.finalize))

    x = batch()
    with guard() as session:
        gc.collect()
        before = finalizers_alive_or_dead()
        pairs = MAX_OPTIMIZER_LABELS + 50
        for _ in range(pairs):
            model = torch.nn.Linear(2, 1)
            opt = torch.optim.SGD(model.parameters(), lr=0.1)
            opt.zero_grad()
            model(x[:, :2]).sum().backward()
            opt.step()
            del model, opt
        gc.collect()
        assert finalizers_alive_or_dead() - before <= 3
        assert not MONITOR.registry.states and not MONITOR.registry.trackers
        assert len(session.report.optimizers) == MAX_OPTIMIZER_LABELS
        assert session.report.optimizers_seen == pairs
