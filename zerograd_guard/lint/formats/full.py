"""``--output-format full``: each finding with its source line and a caret under it, then
its fix hint (``= help: ...``), as ruff prints by default; ``text`` (alias ``concise``)
stays the one-line form."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from zerograd_guard.lint.formats.help import help_text
from zerograd_guard.lint.formats.text import render as render_concise
from zerograd_guard.lint.runner import Reported

# The text of line N (1-based) of a finding's file or notebook cell; None when unknown.
LineSource = Callable[[Reported, int], "str | None"]


def _snippet(item: Reported, line_text: str) -> list[str]:
    number = str(item.line)
    gutter = " " * len(number)
    text = line_text.expandtabs(1)
    start = max(item.column - 1, 0)
    if item.end_line == item.line and item.end_column > item.column:
        width = item.end_column - item.column
    else:
        width = max(len(text.rstrip()) - start, 1)
    return [
        f"{gutter} |",
        f"{number} | {text.rstrip()}",
        f"{gutter} | {' ' * start}{'^' * width}",
    ]


def render(items: Sequence[Reported], colour: bool, line_source: LineSource) -> str:
    blocks = []
    for item in items:
        lines = [render_concise([item], colour).rstrip("\n")]
        line_text = line_source(item, item.line)
        if line_text is not None:
            lines.extend(_snippet(item, line_text))
        hint = help_text(item)
        if hint:
            lines.append(f"  = help: {hint}")
        blocks.append("\n".join(lines) + "\n")
    return "\n".join(blocks) + ("\n" if blocks else "")
