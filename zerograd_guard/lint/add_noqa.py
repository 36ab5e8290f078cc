"""``--add-noqa``: append ``# noqa: CODE`` to every reported line, to adopt the linter on
legacy code (new findings then stand out; the comments mark what to review).

A line that already has a ``# noqa: ...`` gets the missing codes added to it; a line
that ends in a backslash continuation (where a comment cannot go) or whose edited file
would no longer compile is left alone and counted as skipped. Notebooks are skipped
(their cells are JSON strings; add the comment in the notebook editor).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from zerograd_guard.lint.runner import Reported

_NOQA = re.compile(r"#\s*noqa(?::\s*(?P<codes>[A-Za-z]+[0-9]*(?:[\s,]+[A-Za-z]+[0-9]*)*))?")
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


@dataclass(frozen=True)
class NoqaEdit:
    text: str  # the new file text
    added: int  # lines that got a comment (or more codes)
    skipped: int  # reported lines that could not take one


def with_noqa(line: str, codes: Sequence[str]) -> str | None:
    """``line`` (with its ending) carrying ``# noqa`` for ``codes``; None where a comment
    cannot go (after a backslash continuation)."""
    body = line.rstrip("\r\n")
    ending = line[len(body) :]
    if body.rstrip().endswith("\\"):
        return None
    match = _NOQA.search(body)
    if match is not None:
        if match.group("codes") is None:
            return line  # a bare noqa already silences everything
        present = [code for code in re.split(r"[\s,]+", match.group("codes")) if code]
        missing = [code for code in codes if code not in present]
        if not missing:
            return line
        merged = ", ".join([*present, *missing])
        return body[: match.start()] + f"# noqa: {merged}" + body[match.end() :] + ending
    return f"{body.rstrip()}  # noqa: {', '.join(codes)}{ending}"


def add_noqa(text: str, items: Iterable[Reported]) -> NoqaEdit:
    """Add ``# noqa`` comments for ``items`` (findings of one Python file) to ``text``."""
    by_line: dict[int, list[str]] = {}
    for item in items:
        codes = by_line.setdefault(item.line, [])
        if item.code not in codes:
            codes.append(item.code)
    lines = _LINE.findall(text)
    added = skipped = 0
    for number, codes in sorted(by_line.items()):
        if not 1 <= number <= len(lines):
            skipped += 1
            continue
        new = with_noqa(lines[number - 1], codes)
        if new is None:
            skipped += 1
        elif new != lines[number - 1]:
            lines[number - 1] = new
            added += 1
    edited = "".join(lines)
    try:
        compile(edited, "<add-noqa>", "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return NoqaEdit(text, 0, len(by_line))
    return NoqaEdit(edited, added, skipped)
