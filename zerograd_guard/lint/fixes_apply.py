"""Applying the analyzer's fixes to source text (generating them is the rules' job).

Fix edits are offsets into the analysed text. Inserted text is converted to the
file's own line ending. A fix is kept only if the result still parses.
"""

from __future__ import annotations

import ast
import dataclasses
import warnings
from collections.abc import Iterable

from zerograd_guard.lint.findings import Edit, Finding, Fix


def applicable(findings: Iterable[Finding], unsafe: bool) -> list[Fix]:
    """The fixes we may apply, in source order (safe ones only unless ``unsafe``)."""
    fixes = [f.fix for f in findings if f.fix is not None and (f.fix.safe or unsafe)]
    return sorted(fixes, key=lambda fix: min((edit.start for edit in fix.edits), default=0))


def with_newline(edits: Iterable[Edit], newline: str) -> tuple[Edit, ...]:
    if newline == "\n":
        return tuple(edits)
    return tuple(
        Edit(edit.start, edit.end, edit.content.replace("\r\n", "\n").replace("\n", newline))
        for edit in edits
    )


def apply_edits(text: str, edits: Iterable[Edit]) -> str:
    """Apply non-overlapping edits (raises ValueError when they overlap or fall outside)."""
    ordered = sorted(edits, key=lambda edit: (edit.start, edit.end))
    pieces: list[str] = []
    cursor = 0
    for edit in ordered:
        if edit.start < cursor or edit.end < edit.start or edit.end > len(text):
            raise ValueError(f"invalid or overlapping edit {edit}")
        pieces.append(text[cursor : edit.start])
        pieces.append(edit.content)
        cursor = edit.end
    pieces.append(text[cursor:])
    return "".join(pieces)


def parses(text: str) -> bool:
    """Whether ``text`` is valid Python (the gate before anything is written)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def checkable(findings: list[Finding], text: str) -> list[Finding]:
    """``findings`` without their fixes when ``text`` itself does not parse with the
    running Python (newer syntax, PEP 695 ``type X = ...``): ``--fix`` cannot check a fix
    there, so none is offered. Applied before results are cached, so a warm run does not
    parse the file again to decide it."""
    if any(finding.fix is not None for finding in findings) and not parses(text):
        return [dataclasses.replace(finding, fix=None) for finding in findings]
    return findings
