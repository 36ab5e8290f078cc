"""Jupyter notebooks as one analysable program.

Code cells are joined in order (a loop whose model, optimizer and step helper
live in different cells is one program). IPython syntax is masked so the program
parses (see ``ipython_masking``). Masking keeps one joined line per cell line, so
positions map back exactly: finding positions, fix edits, and the ``line N``
references inside messages (rewritten to ``cell C, line L``).

A cell that does not parse on its own is left out of the program (its lines become
blank) and reported as a syntax error at its own position; the other cells are
analysed. Fixes rewrite only the edited cells' ``source`` in the JSON text (see
``notebook_json``).
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import json
import re
import warnings
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from zerograd_guard.lint.findings import Edit
from zerograd_guard.lint.ipython_masking import mask_cell
from zerograd_guard.lint.lines import LineIndex, line_ending, split_lines, strip_ending
from zerograd_guard.lint.notebook_json import SourceSpan, render_source, source_spans

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
    joined: str  # this line in the joined source (newline included)


@dataclass(frozen=True)
class CellSyntaxError:
    """A code cell that does not parse on its own; 1-based cell, line and column."""

    cell: int
    line: int
    column: int
    message: str


@dataclass
class Notebook:
    raw: str  # the notebook's JSON text
    source: str  # the joined, masked program handed to the analyzer
    lines: list[JoinedLine]
    cell_texts: dict[int, str]
    left_out: tuple[CellSyntaxError, ...] = ()  # cells blanked out of ``source``

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

        Only the edited cells' ``source`` values change in the JSON text; None when an
        edit touches masked IPython syntax or spans two cells.
        """
        per_cell: dict[int, list[tuple[int, int, str]]] = {}
        for edit in edits:
            located = self._cell_range(edit)
            if located is None:
                return None
            cell, start, end, content = located
            per_cell.setdefault(cell, []).append((start, end, content))
        spans = self.spans
        replacements: list[tuple[int, int, str]] = []
        new_texts: dict[int, str] = {}
        for cell, cell_edits in per_cell.items():
            text = self.cell_texts[cell]
            for start, end, content in sorted(cell_edits, reverse=True):
                text = text[:start] + content + text[end:]
            span = spans.get(cell)
            if span is None:
                return None
            rendered = render_source(
                self.raw, span, split_lines(text, keepends=True), self.raw.isascii()
            )
            replacements.append((span.start, span.end, rendered))
            new_texts[cell] = text
        result = self.raw
        for start, end, rendered in sorted(replacements, reverse=True):
            result = result[:start] + rendered + result[end:]
        return result if _has_sources(result, new_texts) else None

    def file_region(self, cell: int, cell_line: int) -> tuple[int, int, int, int]:
        """The notebook file's own (line, column, end line, end column) of the JSON string
        holding ``cell_line`` of the 1-based ``cell``: what SARIF and GitHub viewers show."""
        span = self.spans.get(cell - 1)
        if span is None:
            return (1, 1, 1, 1)
        start, end = span.start, span.end
        if span.items:
            target = LineIndex(self.cell_texts[cell - 1]).starts[cell_line - 1]
            consumed = 0
            for item_start, item_end in span.items:
                length = len(json.loads(self.raw[item_start:item_end]))
                start, end = item_start, item_end
                if consumed + length > target:
                    break
                consumed += length
        line, column = self.raw_lines.position(start)
        end_line, end_column = self.raw_lines.position(end)
        return line, column, end_line, end_column

    @functools.cached_property
    def spans(self) -> dict[int, SourceSpan]:
        """Where each cell's ``source`` lies in the JSON text (scanned when first needed)."""
        return source_spans(self.raw)

    @functools.cached_property
    def raw_lines(self) -> LineIndex:
        return LineIndex(self.raw)

    def without_broken_cells(self) -> Notebook | None:
        """This notebook with each code cell that does not parse alone blanked out and
        recorded in ``left_out``; None when every cell parses (the fault is elsewhere)."""
        broken = {error.cell - 1: error for error in _cell_syntax_errors(self.lines)}
        if not broken:
            return None
        lines: list[JoinedLine] = []
        offset = 0
        for entry in self.lines:
            if entry.cell in broken:
                blank = line_ending(entry.original) or "\n"
                entry = dataclasses.replace(entry, masked=True, joined=blank)
            lines.append(dataclasses.replace(entry, joined_start=offset))
            offset += len(entry.joined)
        left_out = tuple(sorted(broken.values(), key=lambda error: error.cell))
        return dataclasses.replace(
            self,
            source="".join(entry.joined for entry in lines),
            lines=lines,
            left_out=self.left_out + left_out,
        )

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


def _cell_syntax_errors(lines: Sequence[JoinedLine]) -> list[CellSyntaxError]:
    """The code cells whose masked text does not parse on its own."""
    by_cell: dict[int, list[str]] = {}
    for entry in lines:
        by_cell.setdefault(entry.cell, []).append(entry.joined)
    errors = []
    for cell, texts in by_cell.items():
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ast.parse("".join(texts))
        except SyntaxError as error:
            message = " ".join((error.msg or "invalid syntax").split())
            errors.append(CellSyntaxError(cell + 1, error.lineno or 1, error.offset or 1, message))
        except (ValueError, RecursionError, MemoryError) as error:
            errors.append(CellSyntaxError(cell + 1, 1, 1, type(error).__name__))
    return errors


def _has_sources(raw: str, texts: dict[int, str]) -> bool:
    """Whether ``raw`` is notebook JSON whose cells hold ``texts`` (a self-check of a
    surgical edit before anything is written)."""
    try:
        data = json.loads(raw)
        return all(_cell_text(data["cells"][cell], cell) == text for cell, text in texts.items())
    except (ValueError, KeyError, IndexError, TypeError, NotebookError, RecursionError):
        return False


def read_notebook(raw: str) -> Notebook:
    """Parse notebook JSON text into the joined program; ``NotebookError`` if malformed."""
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise NotebookError(f"invalid notebook JSON: {exc}") from None
    except RecursionError:
        raise NotebookError("invalid notebook JSON: nested too deeply") from None
    if not isinstance(data, dict) or not isinstance(data.get("cells"), list):
        raise NotebookError("not a notebook: no 'cells' list (nbformat 4 is required)")
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
        masks = mask_cell([strip_ending(line) for line in cell_lines])
        cell_offset = 0
        for number, (original, mask) in enumerate(zip(cell_lines, masks, strict=True), start=1):
            joined = (strip_ending(original) if mask is None else mask) + (
                line_ending(original) or "\n"
            )
            lines.append(
                JoinedLine(
                    joined_start=offset,
                    cell=index,
                    cell_line=number,
                    cell_start=cell_offset,
                    original=original,
                    masked=mask is not None,
                    joined=joined,
                )
            )
            offset += len(joined)
            cell_offset += len(original)
    return Notebook(
        raw=raw,
        source="".join(entry.joined for entry in lines),
        lines=lines,
        cell_texts=cell_texts,
    )
