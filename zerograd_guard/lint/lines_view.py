"""Lines of linted files read back for display (``--output-format full``)."""

from __future__ import annotations

from pathlib import Path

from zerograd_guard.lint.lines import split_lines
from zerograd_guard.lint.runner import Reported


class LineReader:
    """Reads each displayed file once; ``stdin_text`` stands for the file read from stdin."""

    def __init__(self, stdin_text: str | None = None) -> None:
        self._stdin_text = stdin_text
        self._files: dict[str, list[str] | None] = {}

    def _lines(self, path: str) -> list[str] | None:
        if path not in self._files:
            text = self._stdin_text if self._stdin_text is not None else _read(path)
            self._files[path] = None if text is None else split_lines(text)
        return self._files[path]

    def line(self, item: Reported, number: int) -> str | None:
        if item.cell is not None:
            return None  # a notebook: its lines live in cells, not in the file
        lines = self._lines(item.path)
        if lines is None or not 1 <= number <= len(lines):
            return None
        return lines[number - 1]


def _read(path: str) -> str | None:
    try:
        return Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
