"""Suppression comments.

* ``# noqa`` on the reported line suppresses every finding on that line;
* ``# noqa: ZG101`` or ``# noqa: ZG101, ZG102`` suppresses only those codes (prefixes too);
* ``# zerograd: noqa`` on a line of its own opts the whole file out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from zerograd_guard.lint.findings import Finding

_LINE_NOQA = re.compile(
    r"#\s*noqa(?::\s*(?P<codes>[A-Z]+[0-9]*(?:[\s,]+[A-Z]+[0-9]*)*))?",
    re.IGNORECASE,
)
_FILE_NOQA = re.compile(r"^\s*#\s*zerograd\s*:\s*noqa\b", re.IGNORECASE | re.MULTILINE)

ALL_CODES: frozenset[str] = frozenset({"*"})


def file_opted_out(source: str) -> bool:
    return _FILE_NOQA.search(source) is not None


def line_suppressions(source: str) -> dict[int, frozenset[str]]:
    """1-based line -> suppressed codes (``ALL_CODES`` for a bare ``# noqa``)."""
    result: dict[int, frozenset[str]] = {}
    if "noqa" not in source.lower():
        return result
    for number, line in enumerate(source.splitlines(), start=1):
        match = _LINE_NOQA.search(line)
        if match is None:
            continue
        codes = match.group("codes")
        if codes is None:
            result[number] = ALL_CODES
        else:
            result[number] = frozenset(code.upper() for code in re.split(r"[\s,]+", codes) if code)
    return result


def is_suppressed(code: str, line: int, suppressions: dict[int, frozenset[str]]) -> bool:
    codes = suppressions.get(line)
    if codes is None:
        return False
    return codes is ALL_CODES or any(code.startswith(prefix) for prefix in codes)


def filter_suppressed(findings: Iterable[Finding], source: str) -> list[Finding]:
    """Drop findings suppressed by ``# noqa`` comments on their reported line."""
    items = list(findings)
    if not items:
        return items
    suppressions = line_suppressions(source)
    return [item for item in items if not is_suppressed(item.code, item.line, suppressions)]
