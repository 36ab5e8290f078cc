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


# A "library" trainer in its own module: the chain from the test to the step matters.
TRAINER = """
import torch


def train(steps):
    torch.manual_seed(0)
    model = torch.nn.Linear(2, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(steps):
        model(torch.ones(1, 2)).sum().backward()
        opt.step()  # no zero_grad: ZG101 from the second step on
"""

TRAINER_TESTS = """
import pytest
import trainer
from zerograd_guard import GradientGuardError


def run_training():
    trainer.train(3)


def test_trainer():
    run_training()
"""


@pytest.fixture(autouse=True)
def _step_imports_kept():
    """The first optimizer step imports torch._dynamo; in-process pytester runs drop the
    modules a run imported, and torch cannot import them twice: import them here once."""
    import torch

    torch.optim.SGD([torch.zeros(1, requires_grad=True)]).step()


@pytest.fixture
def trainer_project(pytester):
    pytester.makepyfile(trainer=TRAINER, test_tb=TRAINER_TESTS)
    pytester.syspathinsert()
    return pytester


def failure_text(result) -> str:
    lines = result.stdout.lines
    start = next((i for i, line in enumerate(lines) if "FAILURES" in line), len(lines))
    end = next((i for i, line in enumerate(lines) if "short test summary" in line), len(lines))
    return "\n".join(lines[start:end])


@pytest.mark.parametrize("style", ["short", "long", "native", "no", "line", "auto"])
def test_tb_style_is_honoured_with_the_guard_message(trainer_project, style):
    result = trainer_project.runpytest("--zerograd-guard", f"--tb={style}", "-p", "no:randomly")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    text = failure_text(result)
    if style == "no":
        assert text == ""  # pytest prints no failure section at all
        return
    assert "ZG101" in text
    if style == "line":
        # The crash line is the user's step line (not inside torch).
        crash = str(trainer_project.path / "trainer.py") + ":10: "
        assert [line for line in text.splitlines() if line.startswith(crash)], text
        return
    assert "optimizer: SGD #1, step 2" in text and "fix: clear once per step" in text
    if style == "native":
        assert "Traceback (most recent call last):" in text
        assert 'trainer.py", line 10, in train' in text
        return
    # short / long / auto: the chain test -> helper -> trainer, ending at the user's step
    # line; torch's and the guard's own frames are left out.
    assert "test_tb.py:11: " in text and "test_tb.py:7: " in text
    assert "trainer.py:10: " in text
    assert "torch/optim" not in text and "zerograd_guard/runtime" not in text
    if style == "long":
        assert ">           opt.step()  # no zero_grad" in text  # the whole function, marked
        assert "model = torch.nn.Linear(2, 1)" in text
    else:
        assert "model = torch.nn.Linear(2, 1)" not in text  # only the failing lines


def test_tb_styles_differ(trainer_project):
    texts = {
        style: failure_text(
            trainer_project.runpytest("--zerograd-guard", f"--tb={style}", "-p", "no:randomly")
        )
        for style in ("short", "long")
    }
    assert texts["short"] != texts["long"]
    assert len(texts["short"]) < len(texts["long"])


WARN_TESTS = """
import warnings

import pytest
import trainer
from zerograd_guard import GradientGuardWarning


def test_seven_steps():
    warnings.warn("an unrelated warning")  # still reaches pytest's summary
    trainer.train(7)


def test_pytest_warns_still_sees_each_warning():
    with pytest.warns(GradientGuardWarning) as record:
        trainer.train(3)
    assert len(record) == 2
"""


def test_warn_mode_folds_repeats_into_one_warning(pytester):
    pytester.makepyfile(trainer=TRAINER, test_warn=WARN_TESTS)
    pytester.syspathinsert()
    # In a subprocess: the test module's GradientGuardWarning must be the guard's class
    # (an in-process run may import the package a second time).
    result = pytester.runpytest_subprocess("--zerograd-guard=warn", "-p", "no:randomly")
    result.assert_outcomes(passed=2)
    output = result.stdout.str()
    # One warning for the seven-step loop (6 violations, steps 2..7), not six.
    assert output.count("GradientGuardWarning: ZG101") == 1, output
    assert "(also at 5 later step(s): 3, 4, 5, 6, 7)" in output
    assert "trainer.py:10: GradientGuardWarning" in output  # at the user's step line
    assert "UserWarning: an unrelated warning" in output
    result.stdout.fnmatch_lines(["*2 passed, 2 warnings*"])


def test_warn_mode_keeps_w_error_at_the_step(pytester):
    pytester.makepyfile(trainer=TRAINER, test_warn=WARN_TESTS)
    pytester.syspathinsert()
    result = pytester.runpytest_subprocess(
        "--zerograd-guard=warn",
        "-W",
        "error::zerograd_guard.GradientGuardWarning",
        "-p",
        "no:randomly",
        "-k",
        "seven",
    )
    result.assert_outcomes(failed=1)
    assert "trainer.py:10: " in failure_text(result)


EXPECTED_TESTS = """
import json

import pytest
import trainer
from zerograd_guard import GradientGuardError


def test_expects_the_violation():
    with pytest.raises(GradientGuardError, match="ZG101"):
        trainer.train(3)


def test_expects_it_in_the_call_form():
    excinfo = pytest.raises(GradientGuardError, trainer.train, 3)
    assert excinfo.value.finding.code == "ZG101"


def test_swallowed_is_still_a_violation():
    try:
        trainer.train(3)
    except Exception:
        pass
"""


def test_violation_expected_by_pytest_raises_is_not_counted(pytester):
    pytester.makepyfile(trainer=TRAINER, test_expected=EXPECTED_TESTS)
    pytester.syspathinsert()
    result = pytester.runpytest_subprocess(
        "--zerograd-guard", "--zerograd-guard-report=guard.json", "-p", "no:randomly"
    )
    result.assert_outcomes(passed=2, failed=1)
    assert "exception swallowed" in failure_text(result)
    result.stdout.fnmatch_lines(["zerograd-guard: 3 tests guarded, * 1 violation, 0 warnings"])
    report = json.loads((pytester.path / "guard.json").read_text())
    tests = {test["nodeid"].split("::")[1]: test for test in report["tests"]}
    for name in ("test_expects_the_violation", "test_expects_it_in_the_call_form"):
        assert tests[name]["outcome"] == "passed"
        assert tests[name]["violations"] == []
        assert tests[name]["expected_violations"] == 1
    swallowed = tests["test_swallowed_is_still_a_violation"]
    assert swallowed["outcome"] == "failed" and len(swallowed["violations"]) == 1
    assert swallowed["expected_violations"] == 0
    # Every path in the report is relative to the rootdir and exists there.
    files = {v["step_site"]["file"] for t in report["tests"] for v in t["violations"]}
    assert files == {"trainer.py"}
    assert all((pytester.path / name).is_file() for name in files)


@pytest.mark.parametrize("where", ["command line", "addopts"])
def test_unknown_mode_lists_the_valid_modes(pytester, where):
    pytester.makepyfile(test_plain="def test_x():\n    pass\n")
    if where == "addopts":
        pytester.makeini("[pytest]\naddopts = --zerograd-guard=bogus\n")
        result = pytester.runpytest_subprocess("-p", "no:randomly")
    else:
        result = pytester.runpytest_subprocess("--zerograd-guard=bogus", "-p", "no:randomly")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    errors = [line for line in result.stderr.lines if "bogus" in line]
    assert errors == [
        "ERROR: --zerograd-guard=bogus: unknown mode; expected one of error, warn, off"
    ], result.stderr.str()
