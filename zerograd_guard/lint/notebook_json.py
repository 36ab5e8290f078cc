"""Where each cell's ``source`` lies in a notebook's JSON text, and a surgical rewrite of it.

``--fix`` must change only the edited cells' ``source`` strings: ``json.loads`` +
``json.dumps`` would rewrite numbers (``1.50``, ``1e400`` becomes ``Infinity``, which
is not JSON), escapes (``\\u003c``, ``\\/``), indentation and key order, and drop
duplicate keys. So the text is scanned for the spans of the ``source`` values (the
last one of a key given twice, as ``json.loads`` keeps the last) and only those spans
are replaced. The same spans give SARIF and GitHub the notebook file's own lines.

The scanner only runs on text that ``json.loads`` accepted, and skips nested values
without recursion.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

_WHITESPACE = re.compile(r"[ \t\n\r]*")
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_SCALAR = re.compile(r"[^\s,\]\}]+")
_BRACKETS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]\{\}]', re.DOTALL)


@dataclass(frozen=True)
class SourceSpan:
    """A cell's ``source`` value in the JSON text: its span and, for an array, each
    string element's span."""

    start: int
    end: int
    items: tuple[tuple[int, int], ...] | None  # None: the value is one string


def _skip_whitespace(text: str, position: int) -> int:
    match = _WHITESPACE.match(text, position)
    assert match is not None  # the pattern matches the empty string
    return match.end()


def _value_end(text: str, position: int) -> int:
    """The end of the JSON value starting at ``position``."""
    first = text[position]
    if first == '"':
        match = _STRING.match(text, position)
        assert match is not None
        return match.end()
    if first not in "[{":
        match = _SCALAR.match(text, position)
        assert match is not None
        return match.end()
    depth = 0
    for match in _BRACKETS.finditer(text, position):
        token = match.group()
        if token in "[{":
            depth += 1
        elif token in "]}":
            depth -= 1
            if depth == 0:
                return match.end()
    raise ValueError("unbalanced JSON")


def _members(text: str, position: int) -> dict[str, tuple[int, int]]:
    """Key -> value span of the object at ``position`` (the last of repeated keys)."""
    members: dict[str, tuple[int, int]] = {}
    position = _skip_whitespace(text, position + 1)
    while text[position] != "}":
        key_end = _value_end(text, position)
        key = json.loads(text[position:key_end])
        position = _skip_whitespace(text, _skip_whitespace(text, key_end) + 1)  # past ':'
        end = _value_end(text, position)
        members[key] = (position, end)
        position = _skip_whitespace(text, end)
        if text[position] == ",":
            position = _skip_whitespace(text, position + 1)
    return members


def _items(text: str, position: int) -> list[tuple[int, int]]:
    items: list[tuple[int, int]] = []
    position = _skip_whitespace(text, position + 1)
    while text[position] != "]":
        end = _value_end(text, position)
        items.append((position, end))
        position = _skip_whitespace(text, end)
        if text[position] == ",":
            position = _skip_whitespace(text, position + 1)
    return items


def source_spans(text: str) -> dict[int, SourceSpan]:
    """0-based cell index -> its ``source`` span, for the cells that have one."""
    start = _skip_whitespace(text, 0)
    cells = _members(text, start).get("cells")
    if cells is None or text[cells[0]] != "[":
        return {}
    spans: dict[int, SourceSpan] = {}
    for index, (cell_start, _) in enumerate(_items(text, cells[0])):
        if text[cell_start] != "{":
            continue
        source = _members(text, cell_start).get("source")
        if source is None:
            continue
        value_start, value_end = source
        items = tuple(_items(text, value_start)) if text[value_start] == "[" else None
        spans[index] = SourceSpan(value_start, value_end, items)
    return spans


def render_source(text: str, span: SourceSpan, lines: Sequence[str], ensure_ascii: bool) -> str:
    """The JSON text of a new ``source`` value holding ``lines`` (joined: the cell text),
    laid out like the value it replaces; unchanged strings keep their exact spelling."""
    if span.items is None:
        return json.dumps("".join(lines), ensure_ascii=ensure_ascii)
    spelled: dict[str, str] = {}
    for start, end in span.items:
        spelled.setdefault(json.loads(text[start:end]), text[start:end])
    if span.items:
        opening = text[span.start + 1 : span.items[0][0]]
        closing = text[span.items[-1][1] : span.end - 1]
        if len(span.items) > 1:
            separator = text[span.items[0][1] : span.items[1][0]]
        else:
            separator = "," + (opening if opening.strip() == "" else " ")
    else:
        opening, closing, separator = "", "", ", "
    rendered = [spelled.get(line) or json.dumps(line, ensure_ascii=ensure_ascii) for line in lines]
    if not rendered:
        return "[]"
    return "[" + opening + separator.join(rendered) + closing + "]"
