"""pytest plugin: ``pytest --zerograd-guard`` asserts gradient hygiene at every optimizer step.

Imported at every pytest start through the ``pytest11`` entry point, so it imports
nothing heavy: torch and the runtime guard are imported only when a test is guarded.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
from collections.abc import Generator
from typing import Any

import pytest

from zerograd_guard.children.pytest_support import TestChildren, leave_guarded_parent
from zerograd_guard.pytest_plugin_raises import ExpectedViolations
from zerograd_guard.pytest_plugin_tb import guard_failure_repr
from zerograd_guard.pytest_plugin_warnings import HeldWarnings

MODES = ("error", "warn", "off")
_INI_VALUES = {
    "true": "error",
    "1": "error",
    "yes": "error",
    "on": "error",
    "error": "error",
    "warn": "warn",
    "off": "off",
    "false": "off",
    "0": "off",
    "no": "off",
    "": "off",
}
_SESSION_KEY = pytest.StashKey[dict[str, Any]]()  # on the config: mode, per-test results
_TEST_KEY = pytest.StashKey["GuardedTest"]()  # on an item: its guard
_PROPERTY = "zerograd_guard"
# One marker namespace: zerograd_guard(accumulate=k) / zerograd_guard(off=True). The
# older names stay accepted.
MARKER, OLD_MARKER, OLD_OFF_MARKER = "zerograd_guard", "zerograd", "zerograd_guard_off"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("zerograd-guard", "gradient clearing guard")
    # A flag, not an option with an optional value: ``pytest --zerograd-guard tests/`` must
    # keep ``tests/`` as a path. The modes are separate, exact option strings
    # (``--zerograd-guard=warn``), which argparse matches before splitting at "=".
    group.addoption(
        "--zerograd-guard",
        action="store_const",
        const="error",
        default=None,
        dest="zerograd_guard",
        help="guard every test: fail when gradients are not cleared between optimizer "
        "steps; --zerograd-guard=warn only warns, --zerograd-guard=off disables. "
        "Env ZEROGRAD_GUARD=1 also enables.",
    )
    for mode in MODES:
        group.addoption(
            f"--zerograd-guard={mode}",
            action="store_const",
            const=mode,
            dest="zerograd_guard",
            help=argparse.SUPPRESS,
        )
    group.addoption(
        "--zerograd-guard-strict",
        action="store_true",
        default=False,
        dest="zerograd_guard_strict",
        help="fail the run (exit status 1) when the guard only warned (a clear every "
        "micro-batch, an optimizer that stopped stepping)",
    )
    group.addoption(
        "--zerograd-guard-report",
        default=None,
        metavar="PATH",
        dest="zerograd_guard_report",
        help="write a JSON report of guarded tests (steps checked, violations) to PATH",
    )
    parser.addini(
        "zerograd_guard",
        "guard every test: true | warn | off (default off)",
        default="off",
    )
    group.addoption(
        "--zerograd-guard-library",
        action="append",
        default=[],
        metavar="MODULE",
        dest="zerograd_guard_library",
        help="a module whose frames the guard's reports skip, like a training library's "
        "(an in-house trainer); repeatable",
    )
    parser.addini(
        "zerograd_guard_library_modules",
        "modules whose frames the guard's reports skip (an in-house trainer), one a line",
        type="linelist",
        default=[],
    )
    _reject_unknown_modes(parser)


def _reject_unknown_modes(parser: pytest.Parser) -> None:
    """``--zerograd-guard=bogus``: a one-line error naming the valid modes.

    argparse would split the word at "=" and reject a value for the flag ("ignored
    explicit argument 'bogus'"), before any plugin hook sees the command line; pytest's
    parser parses the whole line (addopts and PYTEST_ADDOPTS included) through
    ``parse_known_and_unknown_args`` first, so the mode is checked there.
    """
    parse = parser.parse_known_and_unknown_args

    def checked(args: Any, namespace: Any = None) -> Any:
        for word in map(str, args):
            if word.startswith("--zerograd-guard=") and word.partition("=")[2] not in MODES:
                raise pytest.UsageError(f"{word}: unknown mode; expected one of {', '.join(MODES)}")
        return parse(args, namespace=namespace)

    parser.parse_known_and_unknown_args = checked  # type: ignore[method-assign]


def pytest_load_initial_conftests(args: list[str]) -> None:
    """Accept the mode as a separate word, ``--zerograd-guard warn``, as earlier versions did.

    Runs before pytest parses the whole command line (``args`` already holds the
    ``addopts`` and ``PYTEST_ADDOPTS`` words). A following word that names an existing
    path stays a path.
    """
    for index, word in enumerate(args[:-1]):
        following = args[index + 1]
        if word == "--zerograd-guard" and following in MODES and not os.path.exists(following):
            args[index : index + 2] = [f"--zerograd-guard={following}"]
            return


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"{MARKER}(accumulate=k): guard this test; every optimizer step must consume exactly "
        f"k backward passes (ZG103). {MARKER}(off=True): never guard this test. "
        f"(Older names, still accepted: zerograd(accumulate=k), {OLD_OFF_MARKER}.)",
    )
    config.addinivalue_line("markers", f"{OLD_OFF_MARKER}: old name of {MARKER}(off=True)")
    config.addinivalue_line(
        "markers", f"{OLD_MARKER}(accumulate=k): old name of {MARKER}(accumulate=k)"
    )
    leave_guarded_parent()  # started by a guarded test: this run guards itself, or not at all
    mode = _mode(config)
    if mode != "off" and importlib.util.find_spec("torch") is None:
        raise pytest.UsageError(
            "--zerograd-guard needs torch: pip install torch (docs/install.md: a CPU-only build)"
        )
    if mode != "off":
        _add_library_modules(config)
    state: dict[str, Any] = {"mode": mode, "tests": []}
    config.stash[_SESSION_KEY] = state
    config.pluginmanager.register(_Recorder(state), "zerograd-guard-recorder")


def _add_library_modules(config: pytest.Config) -> None:
    """``--zerograd-guard-library`` / ini ``zerograd_guard_library_modules``: sites skip
    these modules' frames; xdist workers and guarded children inherit the list."""
    names = [
        *config.getini("zerograd_guard_library_modules"),
        *config.option.zerograd_guard_library,
    ]
    if not names:
        return
    from zerograd_guard.runtime.sites import LIBRARY_ENV, add_library_modules

    missing = add_library_modules(names)
    if missing:
        raise pytest.UsageError(f"zerograd-guard library module {missing[0]!r}: no such module")
    os.environ[LIBRARY_ENV] = ",".join(names)


def pytest_report_header(config: pytest.Config) -> str | None:
    """``zerograd-guard: on (error mode)`` in the session header, as pytest-timeout and
    pytest-randomly announce themselves; nothing when the guard is off."""
    state = config.stash.get(_SESSION_KEY, None)
    if state is None or state["mode"] == "off":
        return None
    return f"zerograd-guard: on ({state['mode']} mode)"


def _mode(config: pytest.Config) -> str:
    option = config.getoption("zerograd_guard")
    if option is not None:
        return option
    env = os.environ.get("ZEROGRAD_GUARD")
    if env is not None and env.strip():
        if env.strip().lower() not in _INI_VALUES:
            raise pytest.UsageError(
                f"ZEROGRAD_GUARD={env!r}: expected true, warn or off (or 1/0, yes/no, on)"
            )
        return _INI_VALUES[env.strip().lower()]
    value = str(config.getini("zerograd_guard")).strip().lower()
    if value not in _INI_VALUES:
        raise pytest.UsageError(
            f"ini option zerograd_guard: expected true, warn or off, not {value!r}"
        )
    return _INI_VALUES[value]


def _guard_marker(item: pytest.Item) -> pytest.Mark | None:
    """The closest ``zerograd_guard(...)`` or (older name) ``zerograd(...)`` marker."""
    for marker in item.iter_markers():
        if marker.name in (MARKER, OLD_MARKER):
            return marker
    return None


def _is_off(marker: pytest.Mark | None) -> bool:
    return marker is not None and marker.kwargs.get("off") is True


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        marker = _guard_marker(item)
        if marker is None:
            continue
        switch = marker.name == MARKER and set(marker.kwargs) == {"off"} and not marker.args
        if switch and marker.kwargs["off"] in (True, False):
            continue
        contract = marker.kwargs.get("accumulate")
        if set(marker.kwargs) - {"accumulate"} or marker.args or not _positive_int(contract):
            raise pytest.UsageError(
                f"{item.nodeid}: use @pytest.mark.{MARKER}(accumulate=k) with k a positive "
                f"integer, or @pytest.mark.{MARKER}(off=True), not "
                f"{marker.name}({marker.args or ''}{marker.kwargs})"
            )


def _positive_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def _plan(item: pytest.Item) -> tuple[str | None, int | None]:
    """(mode, accumulate contract) for this test; mode None = not guarded."""
    mode = item.config.stash[_SESSION_KEY]["mode"]
    marker = _guard_marker(item)
    if item.get_closest_marker(OLD_OFF_MARKER) is not None or _is_off(marker):
        return None, None
    if marker is not None and marker.kwargs.get("off") is False:
        marker = None  # off=False: as if unmarked
    contract = marker.kwargs.get("accumulate") if marker is not None else None
    if mode == "off":
        return ("error" if marker is not None else None), contract
    return mode, contract


class GuardedTest:
    """The guard of one test, from setup through teardown.

    Extension point: per-test work that must follow the guard (child processes'
    findings, engine adapters) hooks into ``__init__``/``close`` and ``update_report``.
    """

    def __init__(self, item: pytest.Item, mode: str, contract: int | None, counted: bool) -> None:
        from zerograd_guard.runtime import GradientGuardWarning, Guard

        self.item = item
        self.guard = Guard(mode, accumulate=contract)
        self.counted = counted  # in the summary and JSON report (not for fixture-only use)
        self._reported = 0
        self.expected = ExpectedViolations()  # caught by pytest.raises: not violations
        self.held_warnings = HeldWarnings(GradientGuardWarning)  # folded at the end
        self.guard.__enter__()
        # Python processes the test starts are guarded too and report back.
        self.children = TestChildren(self.guard.mode, contract)

    def update_report(self, report: pytest.TestReport, call: pytest.CallInfo[None]) -> None:
        """Guard errors in ``--tb``'s style; fail a phase whose violation was swallowed."""
        if (
            report.failed
            and call.excinfo is not None
            and call.excinfo.errisinstance(AssertionError)
            and hasattr(call.excinfo.value, "finding")  # a GradientGuardError
        ):
            report.longrepr = guard_failure_repr(self.item, call.excinfo)
        violations = self.guard.report.violations
        delegated = self.guard.delegated  # a guard opened inside the test decided these
        unreported = [
            v
            for v in violations[self._reported :]
            if all(v is not d for d in delegated) and not self.expected.includes(v)
        ]
        if self.guard.mode == "error" and unreported and report.passed:
            report.outcome = "failed"
            report.longrepr = (
                "zerograd-guard violation (exception swallowed by the code under test):\n"
                + "\n\n".join(violation.render() for violation in unreported)
            )
        if report.failed or hasattr(report, "wasxfail"):  # xfail: the expected failure
            self._reported = len(violations)
        if call.when != "setup":
            self.children.update_report(report)
        if call.when == "teardown" and self.counted:
            # An extra report attribute (not user_properties, which junitxml would print):
            # pytest and xdist carry extra JSON-ready attributes from workers to the controller.
            setattr(report, _PROPERTY, {**self._results(), **self.children.summary()})

    def _results(self) -> dict[str, Any]:
        """The guard's report, less the violations the test expected (``pytest.raises``)."""
        results = self.guard.report.as_dict()
        violations = self.guard.report.violations
        kept = [i for i, v in enumerate(violations) if not self.expected.includes(v)]
        results["violations"] = [results["violations"][i] for i in kept]
        results["expected_violations"] = len(violations) - len(kept)
        return results

    def close(self) -> None:
        try:
            self.guard.__exit__(None, None, None)  # may warn: an optimizer that stalled
        finally:
            self.expected.close()
            report = self.guard.report
            self.held_warnings.release([*report.violations, *report.warnings])
            self.children.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None]:
    mode, contract = _plan(item)
    wants_fixture = bool(set(FIXTURES) & set(getattr(item, "fixturenames", ())))
    if mode is None and not wants_fixture:
        yield
        return
    guarded = GuardedTest(item, mode or "error", contract, counted=mode is not None)
    item.stash[_TEST_KEY] = guarded
    try:
        yield
    finally:
        guarded.close()


@pytest.fixture
def gradient_guard(request: pytest.FixtureRequest) -> Any:
    """The guard for this test (guarded even without --zerograd-guard); inspect ``.report``.

    (Named so that it does not shadow ``import zerograd_guard`` in a test's arguments; the
    older name ``zerograd_guard`` is kept.)"""
    return request.node.stash[_TEST_KEY].guard


@pytest.fixture(name="zerograd_guard")
def _zerograd_guard_fixture(request: pytest.FixtureRequest) -> Any:
    """Old name of the ``gradient_guard`` fixture."""
    return request.node.stash[_TEST_KEY].guard


FIXTURES = ("gradient_guard", "zerograd_guard")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None]:
    outcome = yield
    guarded = item.stash.get(_TEST_KEY, None)
    if guarded is not None:
        guarded.update_report(outcome.get_result(), call)


class _Recorder:
    """Collects per-test guard results from reports (also those sent by xdist workers)."""

    def __init__(self, state: dict[str, Any]) -> None:
        self._state = state
        self._outcomes: dict[str, str] = {}  # nodeid -> the test's outcome so far

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        # The test's outcome as pytest reports it: the first failing phase decides
        # (setup/teardown failures are errors); an expected failure is "xfailed".
        if report.when == "call" or report.failed or report.skipped:
            previous = self._outcomes.get(report.nodeid)
            if previous is None or previous == "passed":
                self._outcomes[report.nodeid] = _outcome(report)
        value = getattr(report, _PROPERTY, None)
        if report.when == "teardown" and value is not None:
            outcome = self._outcomes.pop(report.nodeid, "passed")
            self._state["tests"].append({"nodeid": report.nodeid, "outcome": outcome, **value})
        elif report.when == "teardown":
            self._outcomes.pop(report.nodeid, None)


def _outcome(report: pytest.TestReport) -> str:
    if hasattr(report, "wasxfail"):
        return "xfailed" if report.skipped else "xpassed"
    if report.failed and report.when != "call":
        return "error"
    return report.outcome


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    state = config.stash.get(_SESSION_KEY, None)
    if state is None or state["mode"] == "off":
        return
    tests = state["tests"]
    children = [child for test in tests for child in test.get("children", ())]
    steps = sum(result["steps_checked"] for result in [*tests, *children])
    violations = sum(len(result["violations"]) for result in [*tests, *children])
    warnings = sum(len(result["warnings"]) for result in [*tests, *children])
    including = f" (including {_count(len(children), 'child process', 'child processes')})"
    terminalreporter.write_line(
        f"zerograd-guard: {_count(len(tests), 'test')} guarded, "
        f"{_count(steps, 'optimizer step')} checked, {_count(violations, 'violation')}, "
        f"{_count(warnings, 'warning')}" + (including if children else "")
    )
    if config.getoption("zerograd_guard_strict", False) and warnings:
        terminalreporter.write_line(
            f"zerograd-guard: --zerograd-guard-strict: {warnings} warning(s) fail the run"
        )


def _warning_count(state: dict[str, Any]) -> int:
    tests = state["tests"]
    children = [child for test in tests for child in test.get("children", ())]
    return sum(len(result["warnings"]) for result in [*tests, *children])


def _count(number: int, singular: str, plural: str | None = None) -> str:
    return f"{number} {singular if number == 1 else plural or singular + 's'}"


def pytest_sessionfinish(session: pytest.Session) -> None:
    config = session.config
    state = config.stash.get(_SESSION_KEY, None)
    strict = config.getoption("zerograd_guard_strict", False)
    if (
        strict
        and state is not None
        and not hasattr(config, "workerinput")
        and session.exitstatus == pytest.ExitCode.OK
        and _warning_count(state)
    ):
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    path = config.getoption("zerograd_guard_report", None)
    if state is None or not path or hasattr(config, "workerinput"):
        return
    from zerograd_guard._version import __version__

    root = str(config.rootpath)
    report = {
        "version": __version__,
        "rootdir": root,
        "mode": state["mode"],
        "tests": [_relative_files(test, root) for test in state["tests"]],
    }
    parent = os.path.dirname(os.path.abspath(path))
    os.makedirs(parent, exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(report, handle, indent=2)


def _relative_files(value: Any, root: str) -> Any:
    """The report with every ``file`` under the rootdir made relative to it (POSIX form)."""
    if isinstance(value, dict):
        return {
            key: _relative_path(item, root) if key == "file" else _relative_files(item, root)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [_relative_files(item, root) for item in value]
    return value


def _relative_path(path: Any, root: str) -> Any:
    if not isinstance(path, str) or not os.path.isabs(path):
        return path
    relative = os.path.relpath(path, root)
    return path if relative.startswith("..") else relative.replace(os.sep, "/")
