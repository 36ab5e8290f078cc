"""Guards entered in different threads are separate sessions."""

from __future__ import annotations

import threading
import warnings

import pytest

from tests.runtime.conftest import batch, loss_of, make_model
from zerograd_guard.runtime import GradientGuardWarning, guard

torch = pytest.importorskip("torch")


def train(steps: int, clear: bool) -> None:
    model = make_model()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    x = batch()
    for _ in range(steps):
        if clear:
            optimizer.zero_grad()
        loss_of(model, x).backward()
        optimizer.step()


def test_two_threads_with_their_own_guards_do_not_share_a_session() -> None:
    outcome: dict[str, object] = {}
    warn_ready = threading.Event()
    error_entered = threading.Event()

    def buggy_in_warn_mode() -> None:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with guard(mode="warn") as session:
                warn_ready.set()
                error_entered.wait(10)  # the other thread's error-mode guard is innermost
                try:
                    train(3, clear=False)
                except Exception as error:  # the test reports it
                    outcome["warn raised"] = error
            outcome["warn report"] = session.report
            outcome["warned"] = [w for w in caught if w.category is GradientGuardWarning]

    def correct_in_error_mode() -> None:
        warn_ready.wait(10)
        with guard() as session:
            error_entered.set()
            train(3, clear=True)
            worker.join(30)  # the buggy thread runs while this guard is entered
        outcome["error report"] = session.report

    worker = threading.Thread(target=buggy_in_warn_mode)
    other = threading.Thread(target=correct_in_error_mode)
    worker.start()
    other.start()
    other.join(60)
    worker.join(60)
    assert "warn raised" not in outcome
    assert outcome["warned"]
    warn_report = outcome["warn report"]
    error_report = outcome["error report"]
    assert [f.code for f in warn_report.violations] == ["ZG101", "ZG101"]
    assert error_report.violations == []
    assert error_report.steps_checked == 3
    assert warn_report.steps_checked == 3


def test_a_thread_without_a_guard_of_its_own_is_guarded_by_the_main_threads() -> None:
    errors: list[BaseException] = []

    def buggy() -> None:
        try:
            train(2, clear=False)
        except BaseException as error:  # the test reports it
            errors.append(error)

    with guard(mode="warn") as session, warnings.catch_warnings():
        warnings.simplefilter("ignore", GradientGuardWarning)
        worker = threading.Thread(target=buggy)
        worker.start()
        worker.join(30)
    assert errors == []
    assert [f.code for f in session.report.violations] == ["ZG101"]
