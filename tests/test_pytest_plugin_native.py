"""The pytest plugin behaves like pytest-randomly / pytest-timeout (issue 16): a header
line, singular/plural in the summary, one marker namespace, a fixture that does not
shadow the package, a JSON report with outcomes, a version and rootdir-relative paths."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("torch")

LOOPS = """
import pytest
import torch
import zerograd_guard


def setup():
    torch.manual_seed(0)
    model = torch.nn.Linear(3, 1)
    return model, torch.optim.SGD(model.parameters(), lr=0.1), torch.randn(2, 3)


def test_missing_clear():
    model, opt, x = setup()
    for _ in range(2):
        model(x).sum().backward()
        opt.step()


def test_correct():
    model, opt, x = setup()
    opt.zero_grad()
    model(x).sum().backward()
    opt.step()


@pytest.mark.zerograd_guard(off=True)
def test_off_new_name():
    test_missing_clear()


@pytest.mark.zerograd_guard_off
def test_off_old_name():
    test_missing_clear()


@pytest.mark.zerograd_guard(accumulate=2)
def test_contract_new_name():
    model, opt, x = setup()
    opt.zero_grad()
    model(x).sum().backward()
    opt.step()  # one backward pass, not 2: ZG103


@pytest.mark.xfail(strict=True)
def test_expected_failure():
    test_missing_clear()


def test_fixture_does_not_shadow_the_package(gradient_guard):
    model, opt, x = setup()
    opt.zero_grad()
    model(x).sum().backward()
    opt.step()
    assert gradient_guard.report.steps_checked == 1
    assert zerograd_guard.guard is not None  # the package, not the fixture
"""


def test_header_summary_markers_fixture_and_report(pytester):
    pytester.makepyfile(test_loops=LOOPS)
    result = pytester.runpytest(
        "--zerograd-guard", "--zerograd-guard-report=out/guard.json", "-p", "no:randomly"
    )
    result.assert_outcomes(passed=4, failed=2, xfailed=1)
    output = result.stdout.str()
    assert "zerograd-guard: on (error mode)" in result.stdout.lines[:10]  # the header
    failed = {line.split("::")[1].split()[0] for line in output.splitlines() if "FAILED" in line}
    assert failed == {"test_missing_clear", "test_contract_new_name"}
    report = json.loads((pytester.path / "out" / "guard.json").read_text())
    from zerograd_guard import __version__

    assert report["version"] == __version__ and report["mode"] == "error"
    assert report["rootdir"] == str(pytester.path)
    outcomes = {test["nodeid"].split("::")[1]: test["outcome"] for test in report["tests"]}
    assert outcomes == {
        "test_missing_clear": "failed",
        "test_correct": "passed",
        "test_contract_new_name": "failed",
        "test_expected_failure": "xfailed",
        "test_fixture_does_not_shadow_the_package": "passed",
    }
    [missing] = [t for t in report["tests"] if t["nodeid"].endswith("test_missing_clear")]
    assert missing["violations"][0]["step_site"]["file"] == "test_loops.py"


def test_summary_grammar_for_one(pytester):
    pytester.makepyfile(
        test_one="""
import torch

def test_one():
    model = torch.nn.Linear(2, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(2):
        model(torch.ones(1, 2)).sum().backward()
        opt.step()
"""
    )
    result = pytester.runpytest_subprocess("--zerograd-guard=warn", "-p", "no:randomly")
    result.stdout.fnmatch_lines(
        ["zerograd-guard: 1 test guarded, 2 optimizer steps checked, 1 violation, 0 warnings"]
    )
    assert "zerograd-guard: on (warn mode)" in result.stdout.str()


def test_no_header_when_off(pytester):
    pytester.makepyfile(test_plain="def test_x():\n    pass\n")
    result = pytester.runpytest("-p", "no:randomly")
    assert "zerograd-guard: on" not in result.stdout.str()
