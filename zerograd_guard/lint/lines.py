"""Lines and offsets as Python reads source: a line ends at ``\\n``, ``\\r\\n`` or ``\\r``.

``str.splitlines`` also breaks on ``\\f``, ``\\v``, ``\\x1c``-``\\x1e``, U+0085, U+2028
and U+2029, which Python (and libcst, which computes the reported positions) treat
as ordinary characters. Every place that numbers lines (suppression comments, notebook
cells, fix edits, fingerprints, diffs) goes through this module, so they all agree
with the analyzer.
"""

from __future__ import annotations

import re
from bisect import bisect_right

# One source line with its ending, or the unterminated last line.
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")
_ENDING = re.compile(r"(?:\r\n|\r|\n)\Z")


def split_lines(text: str, keepends: bool = False) -> list[str]:
    """``text``'s lines by Python's rule (like ``str.splitlines`` otherwise)."""
    lines = _LINE.findall(text)
    return lines if keepends else [strip_ending(line) for line in lines]


def strip_ending(line: str) -> str:
    """``line`` without its line ending (``\\n``, ``\\r\\n`` or ``\\r``)."""
    return _ENDING.sub("", line, count=1)


def line_ending(line: str) -> str:
    """The ending of ``line`` (empty for an unterminated last line)."""
    return line[len(strip_ending(line)) :]


class LineIndex:
    """Line starts of one text, for turning offsets into lines and columns."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0]
        for line in _LINE.findall(text):
            self.starts.append(self.starts[-1] + len(line))
        # An unterminated last line owns the end of the text.
        self._open_end = bool(text) and not _ENDING.search(text)

    @property
    def count(self) -> int:
        """The number of lines."""
        return len(self.starts) - 1

    def line(self, number: int) -> str:
        """The 1-based line ``number`` with its ending ("" outside the text)."""
        if not 1 <= number <= self.count:
            return ""
        return self.text[self.starts[number - 1] : self.starts[number]]

    def position(self, offset: int) -> tuple[int, int]:
        """1-based (line, column) of ``offset``.

        The offset just past a line's ending is column 1 of the next line; the end
        of an unterminated last line stays on that line.
        """
        index = max(bisect_right(self.starts, offset) - 1, 0)
        if self._open_end and index == self.count and index > 0:
            index -= 1
        return index + 1, offset - self.starts[index] + 1
