"""The pytest plugin surface, exercised in pytest subprocesses (the guard is global state)."""

from __future__ import annotations

import json

import pytest

TESTS = """
import pytest


def setup(seed=0):
    import torch  # imported inside tests: collection must stay torch-free

    torch.manual_seed(seed)
    model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Linear(8, 1))
    return model, torch.optim.Adam(model.parameters()), torch.randn(8, 4)


def test_missing_clear():
    model, opt, x = setup()
    for _ in range(3):
        model(x).sum().backward()
        opt.step()


def test_correct():
    model, opt, x = setup()
    for _ in range(3):
        opt.zero_grad()
        model(x).sum().backward()
        opt.step()


def test_swallowed():
    model, opt, x = setup()
    for _ in range(3):
        model(x).sum().backward()
        try:
            opt.step()
        except AssertionError:
            pass


@pytest.mark.zerograd_guard_off
def test_excluded():
    model, opt, x = setup()
    for _ in range(3):
        model(x).sum().backward()
        opt.step()


@pytest.mark.zerograd(accumulate=2)
def test_contract():
    model, opt, x = setup()
    for i in range(4):
        opt.zero_grad()
        model(x).sum().backward()
        if i % 2:
            opt.step()


def test_fixture(zerograd_guard):
    model, opt, x = setup()
    for _ in range(2):
        opt.zero_grad()
        model(x).sum().backward()
        opt.step()
    assert zerograd_guard.report.steps_checked == 2
    assert [event.backward_passes for event in zerograd_guard.report.events] == [1, 1]
"""

CONFTEST = """
import sys


def pytest_collection_finish(session):
    with open("torch_at_collection.txt", "w") as handle:
        handle.write(str("torch" in sys.modules))
"""


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makepyfile(test_training=TESTS)
    pytester.makeconftest(CONFTEST)
    return pytester


def test_flag_fails_violations_and_writes_report(project):
    # The flag right before a path: the path stays a path (R5).
    result = project.runpytest_subprocess(
        "--zerograd-guard",
        "test_training.py",
        "--zerograd-guard-report=guard.json",
        "-p",
        "no:randomly",
    )
    result.assert_outcomes(passed=3, failed=3)
    output = result.stdout.str()
    for failed in ("test_missing_clear", "test_swallowed", "test_contract"):
        assert f"FAILED test_training.py::{failed}" in output
    assert "GradientGuardError: ZG101" in output
    assert "optimizer: Adam #1, step 2" in output
    assert "parameters (4): 0.weight, 0.bias, 1.weight, 1.bias" in output
    assert "opt.step()" in output and "model(x).sum().backward()" in output
    assert "fix: clear once per step" in output
    assert "rules/zg101/" in output
    assert "exception swallowed" in output
    assert "ZG103" in output and "contract: accumulate(2)" in output
    result.stdout.fnmatch_lines(
        ["zerograd-guard: 5 tests guarded, * optimizer steps checked, 4 violations*"]
    )

    report = json.loads((project.path / "guard.json").read_text())
    tests = {test["nodeid"].split("::")[1]: test for test in report["tests"]}
    assert "test_excluded" not in tests
    violation = tests["test_missing_clear"]["violations"][0]
    assert violation["code"] == "ZG101"
    assert violation["optimizer"] == "Adam #1"
    assert violation["parameters"] == ["0.weight", "0.bias", "1.weight", "1.bias"]
    assert violation["step_site"]["source"] == "opt.step()"
    assert violation["step_site"]["file"].endswith("test_training.py")
    assert violation["backward_sites"][0]["source"] == "model(x).sum().backward()"
    assert tests["test_correct"]["violations"] == []
    assert tests["test_correct"]["steps_checked"] == 3
    assert (project.path / "torch_at_collection.txt").read_text() == "False"


def test_flag_off_costs_nothing_but_markers_and_fixture_still_guard(project):
    result = project.runpytest_subprocess("-p", "no:randomly")
    result.assert_outcomes(passed=5, failed=1)
    assert "FAILED test_training.py::test_contract" in result.stdout.str()
    assert "zerograd-guard:" not in result.stdout.str()
    assert (project.path / "torch_at_collection.txt").read_text() == "False"


def test_warn_mode_before_a_path(project):
    result = project.runpytest_subprocess("--zerograd-guard=warn", "test_training.py")
    result.assert_outcomes(passed=6)
    result.stdout.fnmatch_lines(["zerograd-guard: 5 tests guarded, *, 6 violations*"])


@pytest.mark.parametrize(
    ("args", "addopts", "expected_mode", "expected_paths"),
    [
        (["--zerograd-guard", "sub"], None, "error", ["sub"]),
        (["--zerograd-guard=warn", "sub"], None, "warn", ["sub"]),
        (["sub", "--zerograd-guard"], None, "error", ["sub"]),
        (["sub", "--zerograd-guard", "warn"], None, "warn", ["sub"]),
        (["--zerograd-guard", "off", "sub"], None, "off", ["sub"]),
        (["--zerograd-guard", "off_dir"], None, "error", ["off_dir"]),
        (["sub"], "env:--zerograd-guard", "error", ["sub"]),
        (["sub"], "ini:--zerograd-guard", "error", ["sub"]),
        (["sub"], "ini:--zerograd-guard=warn", "warn", ["sub"]),
    ],
)
def test_flag_never_swallows_a_path(
    pytester, monkeypatch, args, addopts, expected_mode, expected_paths
):
    from zerograd_guard.pytest_plugin import _SESSION_KEY

    monkeypatch.delenv("ZEROGRAD_GUARD", raising=False)
    monkeypatch.delenv("PYTEST_ADDOPTS", raising=False)
    pytester.mkdir("sub")
    pytester.mkdir("off_dir")
    if addopts is not None:
        where, words = addopts.split(":", 1)
        if where == "env":
            monkeypatch.setenv("PYTEST_ADDOPTS", words)
        else:
            pytester.makeini(f"[pytest]\naddopts = {words}\n")
    config = pytester.parseconfigure(*args)
    assert config.stash[_SESSION_KEY]["mode"] == expected_mode
    assert config.args == expected_paths


def test_mode_word_naming_an_existing_path_stays_a_path(pytester, monkeypatch):
    from zerograd_guard.pytest_plugin import _SESSION_KEY

    monkeypatch.delenv("ZEROGRAD_GUARD", raising=False)
    pytester.mkdir("warn")
    config = pytester.parseconfigure("--zerograd-guard", "warn")
    assert config.stash[_SESSION_KEY]["mode"] == "error"
    assert config.args == ["warn"]


def test_unknown_mode_is_a_usage_error(pytester):
    result = pytester.runpytest("--zerograd-guard=sometimes")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    # Issue 16 changed the message: the valid modes, on one line (not argparse's
    # "ignored explicit argument 'sometimes'").
    assert (
        "--zerograd-guard=sometimes: unknown mode; expected one of error, warn, off"
        in result.stderr.str()
    )


def test_env_var_warn_mode_under_xdist(project, monkeypatch):
    monkeypatch.setenv("ZEROGRAD_GUARD", "warn")
    result = project.runpytest_subprocess("-p", "xdist", "-n", "2", "-p", "no:randomly")
    result.assert_outcomes(passed=6)
    # Collected from both workers: warn mode lets every loop run to its end.
    result.stdout.fnmatch_lines(["zerograd-guard: 5 tests guarded, *, 6 violations*"])


@pytest.mark.parametrize(
    ("ini", "env", "args", "expected"),
    [
        ("true", None, [], "error"),
        ("warn", None, [], "warn"),
        ("off", None, [], "off"),
        (None, None, [], "off"),
        (None, "1", [], "error"),
        ("warn", "1", [], "error"),
        ("true", None, ["--zerograd-guard=off"], "off"),
        (None, "warn", ["--zerograd-guard"], "error"),
        (None, None, ["--zerograd-guard=warn"], "warn"),
    ],
)
def test_mode_resolution(pytester, monkeypatch, ini, env, args, expected):
    from zerograd_guard.pytest_plugin import _SESSION_KEY

    monkeypatch.delenv("ZEROGRAD_GUARD", raising=False)
    if env is not None:
        monkeypatch.setenv("ZEROGRAD_GUARD", env)
    if ini is not None:
        pytester.makeini(f"[pytest]\nzerograd_guard = {ini}\n")
    config = pytester.parseconfigure(*args)
    assert config.stash[_SESSION_KEY]["mode"] == expected


def test_bad_ini_value_is_a_one_line_usage_error(pytester):
    pytester.makeini("[pytest]\nzerograd_guard = sometimes\n")
    result = pytester.runpytest()
    assert "ini option zerograd_guard: expected true, warn or off, not 'sometimes'" in (
        result.stderr.str()
    )


def test_bad_marker_is_a_one_line_usage_error(pytester):
    pytester.makepyfile(
        "import pytest\n@pytest.mark.zerograd(accumulate=0)\ndef test_x():\n    pass\n"
    )
    result = pytester.runpytest()
    # Issue 16: the message names the one marker namespace (zerograd_guard(...)).
    assert "use @pytest.mark.zerograd_guard(accumulate=k) with k a positive integer" in (
        result.stderr.str()
    )
    assert "not zerograd({'accumulate': 0})" in result.stderr.str()
    assert result.ret == pytest.ExitCode.USAGE_ERROR


def test_help_documents_options_ini_and_markers(pytester):
    help_text = pytester.runpytest("--help").stdout.str()
    assert "--zerograd-guard " in help_text and "--zerograd-guard=warn only" in help_text
    assert "--zerograd-guard=off," not in help_text  # the mode spellings stay out of the list
    assert "--zerograd-guard-report=PATH" in help_text
    assert "zerograd_guard (string):" in help_text
    markers = pytester.runpytest("--markers").stdout.str()
    assert "@pytest.mark.zerograd_guard_off:" in markers
    assert "@pytest.mark.zerograd(accumulate=k):" in markers


def test_env_var_unknown_value_is_a_usage_error(pytester, monkeypatch):
    monkeypatch.setenv("ZEROGRAD_GUARD", "disabled")
    result = pytester.runpytest()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "ZEROGRAD_GUARD='disabled': expected true, warn or off" in result.stderr.str()


WARNING_ONLY = """
import torch

def test_clear_every_micro_batch():
    model = torch.nn.Linear(3, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for index in range(4):
        opt.zero_grad()
        model(torch.randn(2, 3)).sum().backward()
        if index % 2 == 1:
            opt.step()
"""


@pytest.mark.parametrize(("strict", "status"), [(False, 0), (True, 1)])
def test_strict_fails_a_run_that_only_warns(pytester, strict, status):
    pytester.makepyfile(test_warns=WARNING_ONLY)
    args = ["--zerograd-guard", "-p", "no:randomly"] + (
        ["--zerograd-guard-strict"] if strict else []
    )
    result = pytester.runpytest_subprocess(*args)
    result.assert_outcomes(passed=1, warnings=1)
    assert result.ret == status
    if strict:
        result.stdout.fnmatch_lines(["*--zerograd-guard-strict: 1 warning(s) fail the run"])
