"""``regions.holds_name`` with the statement's text searches only the lines that name a
backward, and answers exactly as the search of the whole tree."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest

from zerograd_guard.lint.prefilter import backward_names
from zerograd_guard.lint.regions import first_line, holds_name

ROOT = Path(__file__).resolve().parents[3]
NAMES = backward_names() | {"step", "zero_grad"}  # more words: more subtrees searched

SHAPES = {
    "a decorator above the def": (
        """\
        @hooks.backward
        def f():
            pass
        """,
        True,
    ),
    "a class decorator": (
        """\
        @register(loss.backward)
        class A:
            x = 1
        """,
        True,
    ),
    "an attribute split over lines": (
        """\
        def f(loss):
            (loss
             .backward)()
        """,
        True,
    ),
    "a multi-line f-string": (
        '''\
        def f(loss):
            print(f"""
            {loss.backward()}
            """)
        ''',
        True,
    ),
    "only in a string": (
        """\
        def f():
            "call loss.backward() here"
            return 1
        """,
        False,
    ),
    "only in a comment, twice": (
        """\
        def f():  # backward
            x = 1  # backward(
            return x
        """,
        False,
    ),
    "a method among many": (
        """\
        class Trainer:
            def a(self):
                return 1

            def b(self, loss):
                loss.backward()

            def c(self):
                return 2
        """,
        True,
    ),
    # fullwidth letters, which Python reads as ``loss.backward`` (NFKC), written as escapes
    "a name that is not ASCII": (
        "def f(\uff4c\uff4f\uff53\uff53):\n"
        "    \uff4c\uff4f\uff53\uff53.\uff42\uff41\uff43\uff4b\uff57\uff41\uff52\uff44()\n",
        True,
    ),
}


@pytest.mark.parametrize("name", list(SHAPES))
def test_shapes(name: str) -> None:
    source, expected = SHAPES[name]
    text = textwrap.dedent(source)
    nodes = ast.parse(text).body
    assert holds_name(nodes, NAMES) is expected
    assert holds_name(nodes, NAMES, text, first_line(nodes[0])) is expected


def _units(text: str, tree: ast.Module) -> list[tuple[list[ast.stmt], str, int]]:
    """Every top-level statement and every member of every class, with its text and
    first line, as the fast path cuts them."""
    starts = [0]
    starts.extend(index + 1 for index, char in enumerate(text) if char == "\n")
    starts.append(len(text))
    units = []
    pending: list[ast.stmt] = list(tree.body)
    while pending:
        node = pending.pop()
        first, last = first_line(node), node.end_lineno or node.lineno
        units.append(([node], text[starts[first - 1] : starts[min(last, len(starts) - 1)]], first))
        if isinstance(node, ast.ClassDef):
            pending.extend(node.body)
    return units


def test_every_statement_and_member_of_the_corpora() -> None:
    files = sorted(
        path
        for folder in ("examples", "tests/lint/cases", "tests/lint/real_world", "zerograd_guard")
        for path in (ROOT / folder).rglob("*.py")
    )
    assert len(files) > 300
    checked = found = 0
    for path in files:
        text = path.read_text(encoding="utf-8")
        if "\r" in text:
            continue  # the fast path analyses such a file whole
        for nodes, segment, first in _units(text, ast.parse(text)):
            expected = holds_name(nodes, NAMES)
            assert holds_name(nodes, NAMES, segment, first) is expected, (path, first)
            checked += 1
            found += expected
    assert found > 100
    assert checked > 5 * found
