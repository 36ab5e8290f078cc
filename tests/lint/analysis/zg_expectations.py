"""``# expect: ZG101`` marks, shared by the rule-example and case-file tests."""

from __future__ import annotations

import re

from zerograd_guard.lint.analyze import analyze_source
from zerograd_guard.lint.findings import Edit

EXPECT = re.compile(r"#\s*expect:\s*(ZG\d{3}(?:\s*,\s*ZG\d{3})*)")


def expected(source: str) -> list[tuple[int, str]]:
    marks = []
    for number, line in enumerate(source.splitlines(), start=1):
        match = EXPECT.search(line)
        if match:
            marks.extend((number, code.strip()) for code in match.group(1).split(","))
    return sorted(marks)


def actual(source: str) -> list[tuple[int, str]]:
    return sorted((finding.line, finding.code) for finding in analyze_source(source))


def apply_edits(source: str, edits: tuple[Edit, ...]) -> str:
    for edit in sorted(edits, reverse=True):
        source = source[: edit.start] + edit.content + source[edit.end :]
    return source
