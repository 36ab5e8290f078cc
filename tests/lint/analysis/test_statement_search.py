"""Statements found by searching the source must be exactly where ``ast`` puts them, or
not found at all (the caller then parses the file)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import libcst as cst
import pytest

from zerograd_guard.lint.extract.positions import _map_statements
from zerograd_guard.lint.extract.statement_search import StatementSearch, _statements_in_order

ROOT = Path(__file__).resolve().parents[3]
FILES = sorted(
    [*(ROOT / "tests/lint/real_world").glob("*.py"), *(ROOT / "tests/lint/cases").glob("*.py")]
)


def _search(source: str) -> tuple[cst.Module, StatementSearch]:
    module = cst.parse_module(source)
    starts = [0, *(match.end() for match in re.finditer(r"\r\n?|\n", source))]
    return module, StatementSearch(module, source, starts)


def _ast_lines(module: cst.Module, source: str) -> dict[int, tuple[int, int]]:
    """(first, last) line of every libcst statement, from Python's ``ast`` (the oracle)."""
    mapped: dict = {}
    _map_statements(module.body, ast.parse(source).body, mapped)
    return {
        key: (first.lineno, last.end_lineno or last.lineno) for key, (first, last) in mapped.items()
    }


def _simple_lines(module: cst.Module) -> list[cst.SimpleStatementLine]:
    return [s for s in _statements_in_order(module.body) if type(s) is cst.SimpleStatementLine]


def test_statements_are_listed_in_source_order() -> None:
    source = (ROOT / "tests/lint/real_world" / "nanogpt_train.py").read_text(encoding="utf-8")
    module, _ = _search(source)
    lines = _ast_lines(module, source)
    firsts = [lines[id(statement)][0] for statement in _statements_in_order(module.body)]
    assert len(firsts) == len(lines)
    assert firsts == sorted(firsts)


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.name)
def test_found_lines_are_exact(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    module, search = _search(source)
    expected = _ast_lines(module, source)
    found = {id(s): search.lines(s) for s in _simple_lines(module)}
    assert found, "no statements"
    for key, lines in found.items():
        assert lines is None or lines == expected[key]
    assert sum(lines is not None for lines in found.values()) >= len(found) // 2


DUPLICATES = """\
def train(model, optimizer, loader):
    for batch in loader:
        loss = model(batch)
        loss.backward()
        optimizer.step()

    # a second loop with the same lines
    for batch in loader:
        loss = model(batch)
        loss.backward()
        optimizer.step()
"""


def test_duplicate_lines_are_told_apart_by_their_order() -> None:
    module, search = _search(DUPLICATES)
    steps = [s for s in _simple_lines(module) if "step" in module.code_for_node(s)]
    assert [search.lines(step) for step in steps] == [(5, 5), (11, 11)]


def test_a_copy_inside_a_string_makes_the_search_give_up() -> None:
    source = 'NOTE = """\n        optimizer.step()\n"""\n' + DUPLICATES
    module, search = _search(source)
    steps = [
        s for s in _simple_lines(module) if module.code_for_node(s).strip() == "optimizer.step()"
    ]
    assert len(steps) == 2
    assert [search.lines(step) for step in steps] == [None, None]


def test_crlf_comments_and_no_final_newline() -> None:
    source = "x = 1\r\n# about y\r\ny = (1,\r\n     2)\r\nx = 1"
    module, search = _search(source)
    assert [search.lines(s) for s in _simple_lines(module)] == [(1, 1), (3, 4), (5, 5)]
