"""``--format github``: GitHub Actions workflow commands that annotate the diff."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from zerograd_guard.lint.runner import Reported

_LEVELS = {"error": "error", "warning": "warning", "note": "notice"}


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render(items: Sequence[Reported], levels: Mapping[str, str]) -> str:
    lines = []
    for item in items:
        command = _LEVELS.get(levels.get(item.code, "error"), "error")
        cell = f"cell {item.cell}: " if item.cell is not None else ""
        properties = ",".join(
            [
                f"file={escape_property(item.path)}",
                f"line={item.line}",
                f"col={item.column}",
                f"endLine={item.end_line}",
                f"endColumn={item.end_column}",
                f"title={escape_property(f'zerograd-lint ({item.code})')}",
            ]
        )
        lines.append(f"::{command} {properties}::{escape_data(cell + item.message)}\n")
    return "".join(lines)
