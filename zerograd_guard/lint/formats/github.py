"""``--format github``: GitHub Actions workflow commands that annotate the diff.

A pull request's diff of a notebook is its JSON text, so a notebook finding is
annotated on the line of the JSON string holding the reported cell line, and the
message starts with "cell C, line L". The fix hint
(:mod:`zerograd_guard.lint.formats.help`) follows the message on a line of its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from zerograd_guard.lint.formats.help import help_text
from zerograd_guard.lint.formats.paths import lossless_text
from zerograd_guard.lint.runner import Reported

_LEVELS = {"error": "error", "warning": "warning", "note": "notice"}


def escape_data(text: str) -> str:
    """Workflow-command escaping, plus ESC (a GitHub log renders terminal colours)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A").replace("\x1b", "%1B")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render(items: Sequence[Reported], levels: Mapping[str, str]) -> str:
    lines = []
    for item in items:
        command = _LEVELS.get(levels.get(item.code, "error"), "error")
        line, column, end_line, end_column = item.file_region or (
            item.line,
            item.column,
            item.end_line,
            item.end_column,
        )
        cell = f"cell {item.cell}, line {item.line}: " if item.cell is not None else ""
        properties = ",".join(
            [
                f"file={escape_property(lossless_text(item.path))}",
                f"line={line}",
                f"col={column}",
                f"endLine={end_line}",
                f"endColumn={end_column}",
                f"title={escape_property(f'zerograd-lint ({item.code})')}",
            ]
        )
        hint = help_text(item)
        text = cell + item.message + (f"\n{hint}" if hint else "")
        lines.append(f"::{command} {properties}::{escape_data(text)}\n")
    return "".join(lines)
