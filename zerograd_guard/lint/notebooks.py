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
    dedent: int = 0  # characters of the cell's leading indent left out (``leading_indent``)


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
        return (entry.cell + 1, entry.cell_line, column + entry.dedent)

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
        dedented: dict[int, list[Edit]] = {}
        for edit in edits:
            located = self._cell_range(edit)
            if located is None:
                cell = self._edit_cell(edit)
                if cell is None or self._dedented_cell(cell) is None:
                    return None
                dedented.setdefault(cell, []).append(edit)
                continue
            cell, start, end, content = located
            per_cell.setdefault(cell, []).append((start, end, content))
        if set(per_cell) & set(dedented):
            return None
        spans = self.spans
        replacements: list[tuple[int, int, str]] = []
        new_texts: dict[int, str] = {}
        for cell in [*per_cell, *dedented]:
            if cell in dedented:
                edited = self._edited_dedented(cell, dedented[cell])
                if edited is None:
                    return None
                text = edited
            else:
                text = self.cell_texts[cell]
                for start, end, content in sorted(per_cell[cell], reverse=True):
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

    def _edit_cell(self, edit: Edit) -> int | None:
        """The cell ``edit`` lies in (as ``_cell_range`` places it); None: two cells."""
        if not self.lines:
            return None
        insertion = edit.start == edit.end
        first, _ = self._locate(edit.start, insertion)
        last = self._locate(edit.end, insertion)[0] if not insertion else first
        cell = self.lines[first].cell
        return cell if self.lines[last].cell == cell else None

    def _cell_range(self, edit: Edit) -> tuple[int, int, int, str] | None:
        if not self.lines:
            return None
        insertion = edit.start == edit.end
        first, start_col = self._locate(edit.start, insertion)
        last, end_col = self._locate(edit.end, insertion) if not insertion else (first, start_col)
        span = self.lines[first : last + 1]
        if any(entry.masked or entry.dedent for entry in span) or span[0].cell != span[-1].cell:
            return None
        content = edit.content
        head, tail = self.lines[first], self.lines[last]
        start = head.cell_start + min(start_col, len(head.original))
        end = tail.cell_start + min(end_col, len(tail.original))
        if start_col > len(head.original) and not head.original.endswith("\n"):
            # Appending after a cell's last line, which has no newline of its own.
            content = "\n" + content.removesuffix("\n")
        return head.cell, start, end, content

    def _dedented_cell(self, cell: int) -> tuple[list[JoinedLine], str] | None:
        """The lines of ``cell`` and the indent IPython runs it without, when the cell is
        indented as a whole (``leading_indent``), and every line has that indent or is
        empty, and none is masked: then an edit of the text it runs maps back exactly."""
        entries = [entry for entry in self.lines if entry.cell == cell]
        indented = next((entry for entry in entries if entry.dedent), None)
        if indented is None:
            return None
        prefix = indented.original[: indented.dedent]
        for entry in entries:
            if entry.masked or not (entry.dedent or not strip_ending(entry.original)):
                return None
        return entries, prefix

    def _edited_dedented(self, cell: int, edits: list[Edit]) -> str | None:
        """``cell``'s text with ``edits`` (joined-source offsets inside it) applied to the
        text IPython runs, then indented back: every line but an empty one gets the
        cell's indent again, so the lines no edit touched are as they were."""
        found = self._dedented_cell(cell)
        if found is None:
            return None
        entries, prefix = found
        base = entries[0].joined_start
        text = "".join(entry.joined for entry in entries)
        for edit in sorted(edits, key=lambda edit: edit.start, reverse=True):
            start, end = edit.start - base, edit.end - base
            if not 0 <= start <= end <= len(text):
                return None
            text = text[:start] + edit.content + text[end:]
        result = "".join(
            line if not strip_ending(line) else prefix + line
            for line in split_lines(text, keepends=True)
        )
        if not self.cell_texts[cell].endswith("\n"):
            result = result.removesuffix("\n")  # the joined program ends each cell
        return result


def leading_indent(lines: Sequence[str]) -> list[int]:
    """How many characters IPython strips from the start of each of a cell's ``lines``
    before running it (its ``leading_empty_lines`` and ``leading_indent`` transforms):
    when the first line that is not blank starts with spaces or tabs, that whitespace is
    removed from every line that starts with it, so a cell indented as a whole runs."""
    first = next((line for line in lines if line.strip()), "")
    indent = first[: len(first) - len(first.lstrip(" \t"))]
    if not indent:
        return [0] * len(lines)
    return [len(indent) if line.startswith(indent) else 0 for line in lines]


def _cell_text(cell: Any, index: int) -> str:
    source = cell.get("source", "")
    if isinstance(source, str):
        return source
    if isinstance(source, list) and all(isinstance(part, str) for part in source):
        return "".join(source)
    raise NotebookError(f"cell {index + 1} has a malformed 'source'")


def _cell_syntax_errors(lines: Sequence[JoinedLine]) -> list[CellSyntaxError]:
    """The code cells whose masked text does not parse on its own."""
    by_cell: dict[int, list[JoinedLine]] = {}
    for entry in lines:
        by_cell.setdefault(entry.cell, []).append(entry)
    errors = []
    for cell, entries in by_cell.items():
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ast.parse("".join(entry.joined for entry in entries))
        except SyntaxError as error:
            message = " ".join((error.msg or "invalid syntax").split())
            line = error.lineno or 1
            dedent = entries[line - 1].dedent if 0 < line <= len(entries) else 0
            column = (error.offset or 1) + dedent
            errors.append(CellSyntaxError(cell + 1, line, column, message))
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
        dedents = leading_indent([strip_ending(line) for line in cell_lines])
        masks = mask_cell(
            [strip_ending(line)[cut:] for line, cut in zip(cell_lines, dedents, strict=True)]
        )
        cell_offset = 0
        for number, (original, mask, cut) in enumerate(
            zip(cell_lines, masks, dedents, strict=True), start=1
        ):
            joined = (strip_ending(original)[cut:] if mask is None else mask) + (
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
                    dedent=cut,
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
