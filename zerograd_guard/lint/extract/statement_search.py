"""Where a simple statement line is, found by searching the source for its code.

libcst round-trips text exactly, so a statement's code (its comment lines above left out)
appears in the source as a whole line, or several lines, at the statement's place. When
that text occurs as whole lines once, that is the statement. When it occurs several
times, the statements of the module with that very code are listed in source order
(candidates picked by a cheap shape first, confirmed by their code); if there are as many
of them as occurrences, the n-th statement is at the n-th occurrence. Any other count
(the text also appears inside a string, say) gives up, and the caller parses the file.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator, Sequence

import libcst as cst

from zerograd_guard.lint.extract.names import key_of

NEWLINE = re.compile(r"\r\n?|\n")  # every line ending Python accepts
MAX_OCCURRENCES = 16  # more copies of one line than this: let the caller parse the file

Shape = tuple[tuple[type, str | None], ...]


def _shape(statement: cst.SimpleStatementLine) -> Shape:
    """Equal for statements with equal code (the converse need not hold)."""
    return tuple(
        (
            type(small),
            key_of(small.value.func)
            if type(small) is cst.Expr and type(small.value) is cst.Call
            else None,
        )
        for small in statement.body
    )


def _statements_in_order(statements: Sequence[cst.CSTNode]) -> Iterator[cst.CSTNode]:
    """Every statement in ``statements`` and nested in them, in source order."""
    for statement in statements:
        yield statement
        yield from _statements_in_order(_children(statement))


def _children(statement: cst.CSTNode) -> list[cst.CSTNode]:
    """The statements directly inside a compound statement, in source order (an ``elif``
    is the ``If`` node itself)."""
    kind = type(statement)
    if kind is cst.SimpleStatementLine:
        return []
    if kind is cst.Match:
        return [item for case in statement.cases for item in _suite(case.body)]  # type: ignore[attr-defined]
    clauses: list = [getattr(statement, "body", None)]
    if kind in (cst.Try, cst.TryStar):
        clauses += [*statement.handlers, statement.orelse, statement.finalbody]  # type: ignore[attr-defined]
    else:
        clauses.append(getattr(statement, "orelse", None))
    children: list[cst.CSTNode] = []
    for clause in clauses:
        if type(clause) is cst.If:
            children.append(clause)
        elif isinstance(clause, cst.BaseSuite):
            children.extend(_suite(clause))
        elif clause is not None:  # else / except / finally: their own suite
            children.extend(_suite(clause.body))
    return children


def _suite(suite: cst.BaseSuite) -> Sequence[cst.CSTNode]:
    return suite.body if type(suite) is cst.IndentedBlock else ()


class StatementSearch:
    """Lines of simple statement lines of one module, by searching its source."""

    def __init__(self, module: cst.Module, source: str, line_starts: list[int]) -> None:
        self.module = module
        self.source = source
        self.line_starts = line_starts
        self._by_shape: dict[Shape, list[cst.SimpleStatementLine]] | None = None
        self._codes: dict[int, str] = {}  # the module's nodes live as long as this object

    def lines(self, statement: cst.SimpleStatementLine) -> tuple[int, int] | None:
        """First and last line of ``statement``, or None when the search cannot tell."""
        code = self._code(statement)
        occurrences = self._whole_line_occurrences(code)
        if not occurrences or len(occurrences) > MAX_OCCURRENCES:
            return None
        start = occurrences[0]
        if len(occurrences) > 1:
            twins = [
                twin
                for twin in self._same_shape(statement)
                if twin is statement or self._code(twin) == code
            ]
            if len(twins) != len(occurrences):
                return None
            start = occurrences[twins.index(statement)]
        first = bisect.bisect_right(self.line_starts, start)
        return first, first + len(NEWLINE.findall(code))

    def _code(self, statement: cst.SimpleStatementLine) -> str:
        """The statement's code without the comment lines above it (generated once)."""
        code = self._codes.get(id(statement))
        if code is None:
            bare = (
                statement.with_changes(leading_lines=()) if statement.leading_lines else statement
            )
            code = self.module.code_for_node(bare).rstrip("\r\n")
            self._codes[id(statement)] = code
        return code

    def _whole_line_occurrences(self, code: str) -> list[int]:
        """Offsets where ``code`` fills a line: after nothing but indentation, up to the
        end of the line."""
        found: list[int] = []
        source = self.source
        position = source.find(code) if code else -1
        while position >= 0 and len(found) <= MAX_OCCURRENCES:
            end = position + len(code)
            line_start = self.line_starts[bisect.bisect_right(self.line_starts, position) - 1]
            if not source[line_start:position].strip(" \t\x0c") and (
                end == len(source) or source[end] in "\r\n"
            ):
                found.append(position)
            position = source.find(code, position + 1)
        return found

    def _same_shape(self, statement: cst.SimpleStatementLine) -> list[cst.SimpleStatementLine]:
        if self._by_shape is None:
            self._by_shape = {}
            for item in _statements_in_order(self.module.body):
                if type(item) is cst.SimpleStatementLine:
                    self._by_shape.setdefault(_shape(item), []).append(item)
        return self._by_shape.get(_shape(statement), [])
