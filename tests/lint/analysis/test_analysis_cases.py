"""Case files in ``tests/lint/cases/``: plain Python with ``# expect: ZGxxx`` marks on the
lines where findings must be reported; every other line must stay silent. Adding a case
is adding a file (or a few lines to one)."""

from __future__ import annotations

from pathlib import Path

import pytest
from zg_expectations import actual, expected

from zerograd_guard.lint.analyze import analyze_source

CASES = sorted((Path(__file__).parent.parent / "cases").glob("*.py"))


@pytest.mark.parametrize("path", CASES, ids=lambda path: path.name)
def test_case_file(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    assert actual(source) == expected(source)


def test_cases_cover_buggy_and_correct_code() -> None:
    marked = [path for path in CASES if expected(path.read_text(encoding="utf-8"))]
    assert len(CASES) >= 20
    assert 0 < len(marked) < len(CASES)


def test_message_names_the_loops_own_step_on_a_distance_tie() -> None:
    """The backward at line 19 is 5 lines from the step before (14) and after (24) it; the
    step that runs its closure is the one the message must cite, on every run."""
    source = (CASES[0].parent / "lbfgs_closure.py").read_text(encoding="utf-8")
    (finding,) = analyze_source(source)
    assert finding.line == 19
    assert "already applied at line 24" in finding.message


def test_an_lbfgs_finding_says_the_closure_runs_again_within_the_step() -> None:
    source = (CASES[0].parent / "lbfgs_single_step.py").read_text(encoding="utf-8")
    messages = [finding.message for finding in analyze_source(source)]
    assert len(messages) == 3
    assert all("LBFGS runs the closure again after each update" in m for m in messages)
    looped = (CASES[0].parent / "wrapper_classes.py").read_text(encoding="utf-8")
    assert not any("LBFGS" in finding.message for finding in analyze_source(looped))
