"""``# expect: ZG101`` marks, shared by the rule-example and case-file tests (the grammar
is the shipped harness's, ``zerograd_guard.lint.testing``)."""

from __future__ import annotations

from zerograd_guard.lint.analyze import analyze_source
from zerograd_guard.lint.findings import Edit
from zerograd_guard.lint.testing import EXPECT, expected

__all__ = ["EXPECT", "actual", "apply_edits", "expected"]


def actual(source: str) -> list[tuple[int, str]]:
    return sorted((finding.line, finding.code) for finding in analyze_source(source))


def apply_edits(source: str, edits: tuple[Edit, ...]) -> str:
    for edit in sorted(edits, reverse=True):
        source = source[: edit.start] + edit.content + source[edit.end :]
    return source
