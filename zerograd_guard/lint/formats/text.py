"""``path:line:col: CODE message`` (notebooks: ``path:cell N:line:col: ...``), like ruff."""

from __future__ import annotations

from collections.abc import Sequence

from zerograd_guard.lint.formats.paths import printable
from zerograd_guard.lint.runner import Reported

_BOLD, _RED, _CYAN, _RESET = "\x1b[1m", "\x1b[31m", "\x1b[36m", "\x1b[0m"


def location(item: Reported) -> str:
    cell = f"cell {item.cell}:" if item.cell is not None else ""
    return f"{printable(item.path)}:{cell}{item.line}:{item.column}"


def render(items: Sequence[Reported], colour: bool) -> str:
    lines = []
    for item in items:
        message = " ".join(item.message.split())
        fixable = " [*]" if item.fix is not None and item.fix.safe else ""
        if colour:
            lines.append(
                f"{_BOLD}{location(item)}{_RESET}: {_RED}{_BOLD}{item.code}{_RESET}"
                f"{_CYAN}{fixable}{_RESET} {message}"
            )
        else:
            lines.append(f"{location(item)}: {item.code}{fixable} {message}")
    return "".join(line + "\n" for line in lines)


def summary(remaining: int, fixed: int, fixable: int, unchecked: int = 0) -> str:
    """The closing line: counts, fixed and fixable findings, files that could not be checked.

    "All checks passed!" only when every file was checked.
    """
    failed = ""
    if unchecked:
        files = "file" if unchecked == 1 else "files"
        failed = f"{unchecked} {files} could not be checked.\n"
    if remaining == 0 and fixed == 0:
        return f"No findings; {failed}" if failed else "All checks passed!\n"
    noun = "error" if remaining == 1 else "errors"
    if fixed:
        text = f"Found {remaining + fixed} {'error' if remaining + fixed == 1 else 'errors'}"
        text += f" ({fixed} fixed, {remaining} remaining).\n"
    else:
        text = f"Found {remaining} {noun}.\n"
    if fixable:
        text += f"[*] {fixable} fixable with the `--fix` option.\n"
    return text + failed
