"""The bundled examples: findings must be exactly the ``# expect:`` marks.

Every script in ``examples/`` marks each line the linter must flag with a
trailing ``# expect: ZGxxx`` comment; unmarked lines must stay silent.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from zerograd_guard.lint.analyze import analyze_source
from zerograd_guard.lint.testing import expected

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SCRIPTS = sorted(EXAMPLES.glob("*.py"))


def expected_findings(source: str) -> set[tuple[int, str]]:
    return set(expected(source))


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.name for p in SCRIPTS])
def test_example_findings_match_marks(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    found = {(finding.line, finding.code) for finding in analyze_source(source)}
    assert found == expected_findings(source)


def test_examples_cover_every_rule_and_both_verdicts() -> None:
    assert 6 <= len(SCRIPTS) <= 10
    marked = {code for p in SCRIPTS for _, code in expected_findings(p.read_text("utf-8"))}
    assert {"ZG101", "ZG102", "ZG103"} <= marked
    assert any(not expected_findings(p.read_text("utf-8")) for p in SCRIPTS)


def test_every_example_says_what_it_shows() -> None:
    for path in SCRIPTS:
        source = path.read_text(encoding="utf-8")
        docstring = source.split('"""')[1]
        verdict = "BUGGY" if expected_findings(source) else "Correct"
        assert docstring.startswith(verdict), path.name
