"""``path:line:col: CODE message`` (notebooks: ``path:cell N:line:col: ...``), like ruff."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence

from zerograd_guard.lint.formats.paths import printable
from zerograd_guard.lint.runner import FileResult, Reported

_BOLD, _RED, _CYAN, _RESET = "\x1b[1m", "\x1b[31m", "\x1b[36m", "\x1b[0m"


def location(item: Reported) -> str:
    cell = f"cell {item.cell}:" if item.cell is not None else ""
    return f"{printable(item.path)}:{cell}{item.line}:{item.column}"


_SYNTAX_ERROR = re.compile(r"syntax error at (\d+):(\d+): (.*)", re.DOTALL)


def error_line(path: str, error: str) -> str:
    """A file that could not be checked, one line; a syntax error at ``path:line:col`` so
    terminals and editors can jump to it (not for notebooks: there the position is in the
    joined cells, not in the file)."""
    match = _SYNTAX_ERROR.fullmatch(error)
    if match is not None and not path.endswith(".ipynb"):
        line, column, detail = match.groups()
        return f"{path}:{line}:{column}: error: syntax error: {detail}"
    return f"{path}: error: {error}"


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


def fixed_listing(results: Sequence[FileResult], names: Mapping[str, str]) -> str:
    """``--show-fixes`` / ``--fix-only``: the fixes applied, per file and code (as ruff)."""
    total = sum(len(result.fixed_codes) for result in results)
    if not total:
        return "No errors fixed.\n"
    noun = "error" if total == 1 else "errors"
    lines = [f"Fixed {total} {noun}:"]
    for result in results:
        if not result.fixed_codes:
            continue
        lines.append(f"- {result.path}:")
        for code, count in sorted(Counter(result.fixed_codes).items()):
            name = f" ({names[code]})" if code in names else ""
            lines.append(f"    {count} x {code}{name}")
    return "\n".join(lines) + "\n"


def summary(
    remaining: int, fixed: int, fixable: int, unchecked: int = 0, unsafe_hidden: int = 0
) -> str:
    """The closing line: counts, fixed and fixable findings, files that could not be checked.

    "All checks passed!" only when every file was checked. ``unsafe_hidden``: findings
    whose only fix is unsafe, so ``--fix`` alone would not apply it (ruff's hint).
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
    if unsafe_hidden:
        fixes = "fix is" if unsafe_hidden == 1 else "fixes are"
        text += f"{unsafe_hidden} hidden {fixes} available with the `--unsafe-fixes` option.\n"
    return text + failed
