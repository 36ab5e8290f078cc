"""Safe fixes: applying them gives code that parses, the fixed findings are gone and a
second analysis offers no fix (idempotent)."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest
from zg_expectations import apply_edits

from zerograd_guard.lint.analyze import analyze_source
from zerograd_guard.lint.rules import BUILTIN_RULES
from zerograd_guard.lint.testing import source_of

CASES = sorted((Path(__file__).parent.parent / "cases").glob("*.py"))


def fix_all(source: str) -> tuple[str, int]:
    findings = analyze_source(source)
    edits = {edit for finding in findings if finding.fix for edit in finding.fix.edits}
    return apply_edits(source, tuple(edits)), sum(1 for f in findings if f.fix)


SOURCES = [pytest.param(path.read_text(encoding="utf-8"), id=path.name) for path in CASES] + [
    pytest.param(source_of(example), id=f"{rule.code}-invalid-{index}")
    for rule in BUILTIN_RULES
    for index, example in enumerate(rule.INVALID)
]


@pytest.mark.parametrize("source", SOURCES)
def test_fixes_parse_remove_their_findings_and_are_idempotent(source: str) -> None:
    before = analyze_source(source)
    fixed, count = fix_all(source)
    cst.parse_module(fixed)
    after = analyze_source(fixed)
    assert len(after) == len(before) - count
    assert not any(finding.fix for finding in after)
    assert fix_all(fixed)[0] == fixed


def test_fixes_exist_for_both_fixable_rules() -> None:
    codes = {
        finding.code
        for path in CASES
        for finding in analyze_source(path.read_text(encoding="utf-8"))
        if finding.fix
    }
    assert codes == {"ZG101", "ZG102"}


def test_zg101_fix_inserts_clear_after_step_with_same_indent_and_newlines() -> None:
    source = "for b in loader:\r\n    loss(b).backward()\r\n    opt.step()\r\n    log(b)\r\n"
    (finding,) = analyze_source(source)
    assert finding.fix is not None and finding.fix.safe
    fixed = apply_edits(source, finding.fix.edits)
    assert fixed == (
        "for b in loader:\r\n    loss(b).backward()\r\n    opt.step()\r\n"
        "    opt.zero_grad()\r\n    log(b)\r\n"
    )
    assert analyze_source(fixed) == []


def test_zg101_fix_inside_accumulation_window() -> None:
    source = (
        "for i, b in enumerate(loader):\n"
        "    loss(b).backward()\n"
        "    if (i + 1) % k == 0:\n"
        "        scaler.step(self.optimizer)\n"
        "        scaler.update()\n"
    )
    (finding,) = analyze_source(source)
    assert finding.fix is not None
    fixed = apply_edits(source, finding.fix.edits)
    assert "        scaler.step(self.optimizer)\n        self.optimizer.zero_grad()\n" in fixed
    assert analyze_source(fixed) == []


def test_zg101_fix_at_end_of_file_without_newline() -> None:
    source = "for b in loader:\n    loss(b).backward()\n    opt.step()"
    (finding,) = analyze_source(source)
    assert finding.fix is not None
    fixed = apply_edits(source, finding.fix.edits)
    assert fixed == source + "\n    opt.zero_grad()"
    assert analyze_source(fixed) == []


def test_zg102_fix_moves_the_clear_after_the_step() -> None:
    source = (
        "for b in loader:\n"
        "    loss(b).backward()\n"
        "    optimizer.zero_grad(set_to_none=True)  # clear\n"
        "    optimizer.step()\n"
        "    done(b)\n"
    )
    (finding,) = analyze_source(source)
    assert finding.code == "ZG102" and finding.fix is not None
    fixed = apply_edits(source, finding.fix.edits)
    assert fixed == (
        "for b in loader:\n"
        "    loss(b).backward()\n"
        "    optimizer.step()\n"
        "    optimizer.zero_grad(set_to_none=True)  # clear\n"
        "    done(b)\n"
    )


def test_no_fix_when_step_is_in_another_function() -> None:
    source = (
        "def update():\n"
        "    optimizer.step()\n"
        "for b in loader:\n"
        "    loss(b).backward()\n"
        "    update()\n"
    )
    (finding,) = analyze_source(source)
    assert finding.code == "ZG101" and finding.fix is None


def test_no_fix_for_manual_updates_and_zg103() -> None:
    manual = "for b in loader:\n    loss(b).backward()\n    w -= lr * w.grad\n"
    window = (
        "for i, b in enumerate(loader):\n"
        "    opt.zero_grad()\n"
        "    loss(b).backward()\n"
        "    if (i + 1) % k == 0:\n"
        "        opt.step()\n"
    )
    assert [(f.code, f.fix) for f in analyze_source(manual)] == [("ZG101", None)]
    assert [(f.code, f.fix) for f in analyze_source(window)] == [("ZG103", None)]
