"""The pytest plugin guards the processes a test starts (pytester, in subprocesses)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from zerograd_guard.children import start_propagation

from .loops.child_targets import SCRIPT

TESTS_DIR = os.fspath(Path(__file__).resolve().parents[1])

INNER = f"""
import subprocess
import sys

sys.path.insert(0, {TESTS_DIR!r})
from engines.loops.distributed_loop import DistributedConfig, train_distributed

SCRIPT = {SCRIPT!r}


def test_buggy_child_whose_exit_status_is_ignored():
    subprocess.run([sys.executable, "-c", SCRIPT, "broken"], check=False)


def test_correct_child():
    assert subprocess.run([sys.executable, "-c", SCRIPT, "correct"]).returncode == 0


def test_ddp_ranks_skipping_zero_grad(tmp_path):
    train_distributed(tmp_path, DistributedConfig(broken=True))
"""

pytestmark = pytest.mark.slow


def test_child_violations_fail_the_test_that_started_them(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_inner=INNER)
    result = pytester.runpytest_subprocess("--zerograd-guard", "--zerograd-guard-report=r.json")
    result.assert_outcomes(passed=1, failed=2)
    output = result.stdout.str()
    assert "GradientGuardError in a process started by this test:" in output
    assert "[child process pid" in output
    assert "[child process rank 0 (pid" in output or "[child process rank 1 (pid" in output
    assert "0.weight" in output and "module.0.weight" not in output  # DDP prefix dropped
    summary = next(line for line in result.outlines if "tests guarded" in line)
    assert "3 tests guarded" in summary
    assert "child processes" in summary
    report = json.loads((pytester.path / "r.json").read_text())
    children = {test["nodeid"].split("::")[1]: test["children"] for test in report["tests"]}
    assert [c["steps_checked"] for c in children["test_correct_child"]] == [3]
    assert [
        v["code"]
        for c in children["test_buggy_child_whose_exit_status_is_ignored"]
        for v in c["violations"]
    ] == ["ZG101"]


def test_warn_mode_reports_child_violations_without_failing(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_inner=INNER.split("\n\ndef test_ddp")[0])
    # Run from a guarded parent: the inner pytest guards its own tests and children
    # (a suite checking that some test fails must not fail itself), nothing reaches us.
    with start_propagation("error") as outer:
        result = pytester.runpytest_subprocess("--zerograd-guard=warn", "-rA")
        assert outer.records() == []
    result.assert_outcomes(passed=2)
    assert "zerograd-guard: child processes" in result.stdout.str()
    summary = next(line for line in result.outlines if "tests guarded" in line)
    assert summary == (
        "zerograd-guard: 2 tests guarded, 6 optimizer steps checked, 2 violations, "
        "0 warnings (including 2 child processes)"
    )


def test_without_the_flag_children_are_not_guarded(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_inner="""
        import os

        def test_environment_untouched():
            assert "ZEROGRAD_GUARD_CHILD_MODE" not in os.environ
            assert "zerograd_guard" not in os.environ.get("PYTHONPATH", "")
        """
    )
    result = pytester.runpytest_subprocess()
    result.assert_outcomes(passed=1)
