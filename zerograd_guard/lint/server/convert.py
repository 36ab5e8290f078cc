"""Findings and fixes in LSP terms: 0-based lines, columns in UTF-16 code units (LSP's
default position encoding; the linter counts code points)."""

from __future__ import annotations

from collections.abc import Sequence

from lsprotocol import types

from zerograd_guard.codes import docs_url
from zerograd_guard.lint.add_noqa import with_noqa
from zerograd_guard.lint.formats.help import help_text
from zerograd_guard.lint.runner import LocatedEdit, Reported

SOURCE = "zerograd-lint"
_SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "note": types.DiagnosticSeverity.Information,
}


def utf16_column(line_text: str, column: int) -> int:
    """The UTF-16 offset of 1-based code-point ``column`` in ``line_text``."""
    prefix = line_text[: max(column - 1, 0)]
    return len(prefix.encode("utf-16-le")) // 2


def position(lines: Sequence[str], line: int, column: int) -> types.Position:
    text = lines[line - 1] if 1 <= line <= len(lines) else ""
    return types.Position(line=max(line - 1, 0), character=utf16_column(text, column))


def diagnostic(item: Reported, lines: Sequence[str], level: str) -> types.Diagnostic:
    """The finding as an LSP diagnostic: its message, then its fix hint on a second line
    (editors show a diagnostic's message whole; related information needs a location)."""
    hint = help_text(item)
    return types.Diagnostic(
        range=types.Range(
            start=position(lines, item.line, item.column),
            end=position(lines, item.end_line, item.end_column),
        ),
        message=item.message + (f"\n{hint}" if hint else ""),
        severity=_SEVERITY.get(level, types.DiagnosticSeverity.Error),
        code=item.code,
        code_description=types.CodeDescription(href=docs_url(item.code)),
        source=SOURCE,
    )


def text_edit(edit: LocatedEdit, lines: Sequence[str]) -> types.TextEdit:
    return types.TextEdit(
        range=types.Range(
            start=position(lines, edit.line, edit.column),
            end=position(lines, edit.end_line, edit.end_column),
        ),
        new_text=edit.content,
    )


def noqa_edit(item: Reported, lines: Sequence[str]) -> types.TextEdit | None:
    """The edit that puts ``# noqa: CODE`` on the finding's line, or None where none fits."""
    if not 1 <= item.line <= len(lines):
        return None
    old = lines[item.line - 1]
    new = with_noqa(old, [item.code])
    if new is None or new == old:
        return None
    start = types.Position(line=item.line - 1, character=0)
    end = types.Position(line=item.line - 1, character=utf16_column(old, len(old) + 1))
    return types.TextEdit(range=types.Range(start=start, end=end), new_text=new)


def overlaps(diagnostic_range: types.Range, wanted: types.Range) -> bool:
    def key(pos: types.Position) -> tuple[int, int]:
        return (pos.line, pos.character)

    return key(diagnostic_range.start) <= key(wanted.end) and key(wanted.start) <= key(
        diagnostic_range.end
    )
