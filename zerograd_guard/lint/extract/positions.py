"""Line, column and character offsets of the few nodes that are reported.

libcst nodes carry no positions; its position provider regenerates the whole module's code
(several milliseconds). Reported nodes are few, so instead a simple statement is found by
searching the source for its code (see ``statement_search``). Failing that, statements
get their lines from Python's own ``ast`` parse of the same text (a fraction of libcst's
parse time, statements matched to libcst's by walking both trees in step). A node inside
a statement is found by searching its exact code from the start of that statement. Nodes
that cannot be placed that way fall back to one code-generation pass for all of them,
stopped as soon as they are all placed.
"""

from __future__ import annotations

import ast
import bisect
import warnings
from collections.abc import Callable, Iterable
from contextlib import nullcontext, suppress
from dataclasses import dataclass, field
from typing import Any

import libcst as cst

# Private, and pinned (libcst<2 in pyproject): the public metadata API regenerates the
# whole module per file. tests/lint/hardening/test_libcst_codegen_state.py checks it
# against the public PositionProvider on the installed libcst.
from libcst._nodes.internal import CodegenState

from zerograd_guard.lint.extract.statement_search import NEWLINE, StatementSearch


@dataclass(frozen=True)
class Span:
    """1-based lines and columns; ``start_offset`` / ``end_offset`` index the source text
    (for a statement line the end is just after its newline); ``indent`` is the
    indentation of the line the node starts on."""

    line: int
    column: int
    end_line: int
    end_column: int
    start_offset: int
    end_offset: int
    indent: str


class _Done(Exception):
    """Every wanted node has been positioned: stop generating code."""


_NO_RECORD = nullcontext()


@dataclass
class _TrackingState(CodegenState):
    """Counts lines, columns and offsets while generating code; records only the wanted
    nodes and stops as soon as all of them are done."""

    targets: frozenset[int] = frozenset()
    found: dict[int, Span] = field(default_factory=dict)
    line: int = 1
    column: int = 0
    offset: int = 0
    starts: dict[int, tuple[int, int, int, str]] = field(default_factory=dict)

    def add_indent_tokens(self) -> None:
        for token in self.indent_tokens:
            self.add_token(token)

    def add_token(self, value: str) -> None:
        self.offset += len(value)
        if "\n" not in value and "\r" not in value:
            self.column += len(value)
            return
        parts = NEWLINE.split(value)
        self.line += len(parts) - 1
        self.column = len(parts[-1])

    def record_syntactic_position(self, node: cst.CSTNode, **_: object) -> Any:
        return _NO_RECORD

    def before_codegen(self, node: cst.CSTNode) -> None:
        if id(node) in self.targets:
            self.starts[id(node)] = (
                self.line, self.column, self.offset, "".join(self.indent_tokens)
            )  # fmt: skip

    def after_codegen(self, node: cst.CSTNode) -> None:
        key = id(node)
        if key in self.targets and key in self.starts:
            line, column, offset, indent = self.starts.pop(key)
            self.found[key] = Span(
                line, column + 1, self.line, self.column + 1, offset, self.offset, indent
            )
            if len(self.found) == len(self.targets):
                raise _Done


def _map_statements(
    body: Any, statements: list[ast.stmt], out: dict[int, tuple[ast.stmt, ast.stmt]]
) -> None:
    """Pair libcst statements with ``ast`` ones (``a; b`` is one libcst line, two ast)."""
    index = 0
    for statement in body:
        if isinstance(statement, cst.SimpleStatementLine):
            count = len(statement.body)
            out[id(statement)] = (statements[index], statements[index + count - 1])
            index += count
            continue
        node = statements[index]
        index += 1
        out[id(statement)] = (node, node)
        _map_compound(statement, node, out)


def _map_suite(suite: Any, statements: list[ast.stmt], out: dict) -> None:
    if isinstance(suite, cst.IndentedBlock):
        _map_statements(suite.body, statements, out)


def _map_compound(statement: Any, node: Any, out: dict) -> None:
    if isinstance(statement, cst.If):
        _map_suite(statement.body, node.body, out)
        if isinstance(statement.orelse, cst.If):
            out[id(statement.orelse)] = (node.orelse[0], node.orelse[0])
            _map_compound(statement.orelse, node.orelse[0], out)
        elif isinstance(statement.orelse, cst.Else):
            _map_suite(statement.orelse.body, node.orelse, out)
    elif isinstance(statement, (cst.For, cst.While)):
        _map_suite(statement.body, node.body, out)
        if statement.orelse is not None:
            _map_suite(statement.orelse.body, node.orelse, out)
    elif isinstance(statement, (cst.Try, cst.TryStar)):
        _map_suite(statement.body, node.body, out)
        for handler, ast_handler in zip(statement.handlers, node.handlers, strict=False):
            _map_suite(handler.body, ast_handler.body, out)
        if statement.orelse is not None:
            _map_suite(statement.orelse.body, node.orelse, out)
        if statement.finalbody is not None:
            _map_suite(statement.finalbody.body, node.finalbody, out)
    elif isinstance(statement, (cst.With, cst.FunctionDef, cst.ClassDef)):
        _map_suite(statement.body, node.body, out)
    elif isinstance(statement, cst.Match):
        for case, ast_case in zip(statement.cases, node.cases, strict=False):
            _map_suite(case.body, ast_case.body, out)


class Positions:
    """Spans of nodes of one module, computed lazily and in batches."""

    def __init__(
        self,
        module: cst.Module,
        source: str,
        anchored: Callable[[], Iterable[tuple[cst.CSTNode, cst.CSTNode | None]]] | None = None,
    ) -> None:
        """``anchored`` lists (node, the statement holding it) pairs; it is called once,
        when the first span is wanted (most files report nothing)."""
        self.module = module
        self.source = source
        self.anchors: dict[int, cst.CSTNode] = {}  # node -> the statement holding it
        self._anchored = anchored
        self._spans: dict[int, Span] = {}
        self._statements: dict[int, tuple[ast.stmt, ast.stmt]] | None = None
        self._line_starts: list[int] = []
        self._search: StatementSearch | None = None

    def anchor(self, node: cst.CSTNode, statement: cst.CSTNode | None) -> None:
        """Remember which statement holds ``node`` (lets ``span`` avoid code generation)."""
        if statement is not None:
            self.anchors[id(node)] = statement

    def compute(self, nodes: list[cst.CSTNode]) -> None:
        missing = [node for node in nodes if id(node) not in self._spans]
        if not missing:
            return
        if self._anchored is not None:
            for node, statement in self._anchored():
                self.anchor(node, statement)
            self._anchored = None
        rest = [node for node in missing if not self._place(node)]
        if rest:
            self._generate(rest)

    def span(self, node: cst.CSTNode) -> Span:
        if id(node) not in self._spans:
            self.compute([node])
        return self._spans[id(node)]

    # -- the search and ast routes ------------------------------------------------------

    def _statement_lines(self, statement: cst.CSTNode) -> tuple[int, int] | None:
        """First and last line of a libcst statement (for a compound one, its header)."""
        if not self._line_starts:
            self._line_starts = [0]
            self._line_starts.extend(match.end() for match in NEWLINE.finditer(self.source))
        if self._statements is None and isinstance(statement, cst.SimpleStatementLine):
            if self._search is None:
                self._search = StatementSearch(self.module, self.source, self._line_starts)
            found = self._search.lines(statement)  # once the file is parsed, lines are known
            if found is not None:
                return found
        mapping = self._mapping()
        if id(statement) not in mapping:
            return None
        first, last = mapping[id(statement)]
        if isinstance(statement, cst.SimpleStatementLine):
            return first.lineno, last.end_lineno or last.lineno
        return first.lineno, first.lineno

    def _mapping(self) -> dict[int, tuple[ast.stmt, ast.stmt]]:
        if self._statements is None:
            self._statements = {}
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    tree = ast.parse(self.source)
                _map_statements(self.module.body, tree.body, self._statements)
            except (SyntaxError, ValueError, IndexError, AttributeError, RecursionError):
                self._statements = {}
        return self._statements

    def _offset(self, line: int) -> int:
        return (
            self._line_starts[line - 1] if line - 1 < len(self._line_starts) else len(self.source)
        )

    def _location(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self._line_starts, offset)
        return line, offset - self._line_starts[line - 1] + 1

    def _place(self, node: cst.CSTNode) -> bool:
        if isinstance(node, cst.SimpleStatementLine):
            lines = self._statement_lines(node)
            if lines is None:
                return False
            first, last = lines
            start = self._offset(first)
            end = self._offset(last + 1)
            line_text = self.source[start:end]
            indent = line_text[: len(line_text) - len(line_text.lstrip(" \t\x0c"))]
            end_column = len(self.source[self._offset(last) : end].rstrip("\r\n")) + 1
            self._spans[id(node)] = Span(
                first, len(indent) + 1, last, end_column, start + len(indent), end, indent
            )
            return True
        if isinstance(node, cst.BaseCompoundStatement):
            lines = self._statement_lines(node)
            if lines is None:
                return False
            start = self._offset(lines[0])  # the header line
            text = self.source[start : self._offset(lines[0] + 1)]
            begin = start + len(text) - len(text.lstrip(" \t\x0c"))
            end = start + len(text.rstrip("\r\n"))
        else:
            lines = self._statement_lines(self.anchors.get(id(node), node))
            if lines is None:
                return False
            code = self.module.code_for_node(node).strip()
            begin = self.source.find(code, self._offset(lines[0])) if code else -1
            if begin < 0:
                return False
            end = begin + len(code)
        line, column = self._location(begin)
        end_line, end_column = self._location(end)
        line_start = self._line_starts[line - 1]
        prefix = self.source[line_start:begin]
        indent = prefix[: len(prefix) - len(prefix.lstrip(" \t\x0c"))]
        self._spans[id(node)] = Span(line, column, end_line, end_column, begin, end, indent)
        return True

    # -- the code-generation route ------------------------------------------------------

    def _generate(self, nodes: list[cst.CSTNode]) -> None:
        state = _TrackingState(
            default_indent=self.module.default_indent,
            default_newline=self.module.default_newline,
            targets=frozenset(id(node) for node in nodes),
        )
        with suppress(_Done):
            self.module._codegen(state)
        self._spans.update(state.found)
