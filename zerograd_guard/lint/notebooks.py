"""Jupyter notebooks as one analysable program.

Code cells are joined in order (a loop whose model, optimizer and step helper
live in different cells is one program). IPython syntax is masked line by line
so the program parses: line magics (``%``), shell escapes (``!``), help
(``?``, ``obj?``), ``x = !cmd`` and ``x = %magic`` become ``pass`` at the same
indentation; a cell magic (``%%bash`` ...) masks its whole cell, except the
magics whose body is Python (``%%time`` ...), which mask only their first line.
Masking keeps one joined line per cell line, so positions map back exactly:
finding positions, fix edits, and the ``line N`` references inside messages
(rewritten to ``cell C, line L``).
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from zerograd_guard.lint.findings import Edit
from zerograd_guard.lint.lines import LineIndex, split_lines, strip_ending

PYTHON_BODY_CELL_MAGICS = frozenset({"time", "timeit", "capture", "prun", "debug"})
_ASSIGNED_MAGIC = re.compile(r"^\s*[A-Za-z_][\w.,\s]*=\s*[%!]")
_NOTEBOOK_INDENT = re.compile(r"^\{\s*?\r?\n([ \t]+)\"")
# How the rules cite another line of the analysed program ("the step at line 10").
_LINE_REFERENCE = re.compile(r"\bline (\d+)\b")


class NotebookError(Exception):
    """A notebook that cannot be read; ``str()`` is the one-line cause."""


@dataclass(frozen=True)
class JoinedLine:
    """One line of the joined program and where it came from."""

    joined_start: int  # offset of the line in the joined source
    cell: int  # 0-based index in the notebook's ``cells`` array
    cell_line: int  # 1-based line inside the cell
    cell_start: int  # offset of the line in the cell's source text
    original: str  # the cell's text of this line (newline included when present)
    masked: bool


@dataclass
class Notebook:
    data: dict[str, Any]
    source: str  # the joined, masked program handed to the analyzer
    lines: list[JoinedLine]
    cell_texts: dict[int, str]
    layout: tuple[int | None, bool, bool, str]  # (indent, ensure_ascii, trailing nl, newline)

    def position(self, line: int, column: int) -> tuple[int, int, int]:
        """Joined (line, column) -> (1-based cell, line in cell, column)."""
        if not self.lines:
            return (1, line, column)
        entry = self.lines[min(max(line, 1), len(self.lines)) - 1]
        return (entry.cell + 1, entry.cell_line, column)

    def cite_lines(self, message: str) -> str:
        """``message`` with each ``line N`` of the joined program as ``cell C, line L``.

        Code quoted in backticks is left alone: only the rules' own words cite lines.
        """

        def cell_line(match: re.Match[str]) -> str:
            number = int(match.group(1))
            if not 1 <= number <= len(self.lines):
                return match.group(0)
            entry = self.lines[number - 1]
            return f"cell {entry.cell + 1}, line {entry.cell_line}"

        parts = message.split("`")
        for index in range(0, len(parts), 2):
            parts[index] = _LINE_REFERENCE.sub(cell_line, parts[index])
        return "`".join(parts)

    def edit_in_cell(self, edit: Edit) -> tuple[int, int, int, int, int, str] | None:
        """Where ``edit`` lands in its cell, exactly as ``edited`` applies it.

        ``(1-based cell, line, column, end line, end column, content)`` in the cell's
        own text; None when the edit touches masked IPython syntax or spans two cells.
        """
        located = self._cell_range(edit)
        if located is None:
            return None
        cell, start, end, content = located
        text = self.cell_texts[cell]
        lines = LineIndex(text)
        line, column = lines.position(start)
        end_line, end_column = lines.position(end)
        return cell + 1, line, column, end_line, end_column, content

    def edited(self, edits: Sequence[Edit]) -> str | None:
        """The notebook JSON with ``edits`` (joined-source offsets) applied in its cells.

        None when an edit touches masked IPython syntax or spans two cells.
        """
        per_cell: dict[int, list[tuple[int, int, str]]] = {}
        for edit in edits:
            located = self._cell_range(edit)
            if located is None:
                return None
            cell, start, end, content = located
            per_cell.setdefault(cell, []).append((start, end, content))
        data = json.loads(json.dumps(self.data))
        for cell, cell_edits in per_cell.items():
            text = self.cell_texts[cell]
            for start, end, content in sorted(cell_edits, reverse=True):
                text = text[:start] + content + text[end:]
            source = data["cells"][cell]["source"]
            data["cells"][cell]["source"] = (
                split_lines(text, keepends=True) if isinstance(source, list) else text
            )
        indent, ensure_ascii, trailing_newline, newline = self.layout
        rendered = json.dumps(data, indent=indent, ensure_ascii=ensure_ascii)
        if trailing_newline:
            rendered += "\n"
        # json.dumps escapes newlines inside strings: every raw "\n" is layout.
        return rendered.replace("\n", newline) if newline != "\n" else rendered

    def _locate(self, offset: int, insertion: bool) -> tuple[int, int]:
        starts = [entry.joined_start for entry in self.lines]
        index = max(bisect_right(starts, offset) - 1, 0)
        column = offset - starts[index]
        entry = self.lines[index]
        if insertion and column == 0 and index > 0 and self.lines[index - 1].cell != entry.cell:
            # An insertion at a cell boundary belongs to the end of the earlier cell.
            previous = self.lines[index - 1]
            return index - 1, len(previous.original) + 1
        return index, column

    def _cell_range(self, edit: Edit) -> tuple[int, int, int, str] | None:
        if not self.lines:
            return None
        insertion = edit.start == edit.end
        first, start_col = self._locate(edit.start, insertion)
        last, end_col = self._locate(edit.end, insertion) if not insertion else (first, start_col)
        span = self.lines[first : last + 1]
        if any(entry.masked for entry in span) or span[0].cell != span[-1].cell:
            return None
        content = edit.content
        head, tail = self.lines[first], self.lines[last]
        start = head.cell_start + min(start_col, len(head.original))
        end = tail.cell_start + min(end_col, len(tail.original))
        if start_col > len(head.original) and not head.original.endswith("\n"):
            # Appending after a cell's last line, which has no newline of its own.
            content = "\n" + content.removesuffix("\n")
        return head.cell, start, end, content


def _cell_text(cell: Any, index: int) -> str:
    source = cell.get("source", "")
    if isinstance(source, str):
        return source
    if isinstance(source, list) and all(isinstance(part, str) for part in source):
        return "".join(source)
    raise NotebookError(f"cell {index + 1} has a malformed 'source'")


def _mask_line(line: str) -> str | None:
    """The ``pass`` replacement of an IPython-only line, or None for Python."""
    stripped = line.strip()
    if not stripped or stripped.startswith("#"):
        return None
    if stripped[0] in "%!?" or stripped.endswith("?") or _ASSIGNED_MAGIC.match(line):
        return line[: len(line) - len(line.lstrip())] + "pass"
    return None


def _layout(raw: str) -> tuple[int | None, bool, bool, str]:
    match = _NOTEBOOK_INDENT.match(raw)
    indent = len(match.group(1)) if match else None
    first_break = raw.find("\n")
    newline = "\r\n" if first_break > 0 and raw[first_break - 1] == "\r" else "\n"
    return indent, raw.isascii(), raw.endswith("\n"), newline


def read_notebook(raw: str) -> Notebook:
    """Parse notebook JSON text into the joined program; ``NotebookError`` if malformed."""
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise NotebookError(f"invalid notebook JSON: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("cells"), list):
        raise NotebookError("not a notebook: no 'cells' list (nbformat 4 is required)")
    pieces: list[str] = []
    lines: list[JoinedLine] = []
    cell_texts: dict[int, str] = {}
    offset = 0
    for index, cell in enumerate(data["cells"]):
        if not isinstance(cell, dict):
            raise NotebookError(f"cell {index + 1} is not an object")
        if cell.get("cell_type") != "code":
            continue
        text = _cell_text(cell, index)
        cell_texts[index] = text
        cell_lines = split_lines(text, keepends=True)
        cell_magic = bool(cell_lines) and cell_lines[0].lstrip().startswith("%%")
        whole_cell_masked = False
        if cell_magic:
            magic = cell_lines[0].lstrip()[2:].split(maxsplit=1)
            whole_cell_masked = not magic or magic[0] not in PYTHON_BODY_CELL_MAGICS
        cell_offset = 0
        for number, original in enumerate(cell_lines, start=1):
            if whole_cell_masked or (number == 1 and cell_magic):
                masked_text: str | None = "pass"
            else:
                masked_text = _mask_line(original)
            joined = masked_text if masked_text is not None else strip_ending(original)
            ending = original[len(strip_ending(original)) :] or "\n"
            joined += ending
            lines.append(
                JoinedLine(
                    joined_start=offset,
                    cell=index,
                    cell_line=number,
                    cell_start=cell_offset,
                    original=original,
                    masked=masked_text is not None,
                )
            )
            pieces.append(joined)
            offset += len(joined)
            cell_offset += len(original)
    return Notebook(
        data=data,
        source="".join(pieces),
        lines=lines,
        cell_texts=cell_texts,
        layout=_layout(raw),
    )
