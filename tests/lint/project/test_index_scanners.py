"""The index's fast text scanners find exactly what the plain patterns they replace
find (``zerograd_guard.lint.project.index``): the gradient markers with a literal first
character, and the line patterns (imports, loops, top-level definitions) tried only on
lines holding their keyword. Checked on generated texts built from the fragments the
patterns turn on, and on every ``.py`` of ``tests/lint`` and ``examples``."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from zerograd_guard.lint.project import index

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tests" / "lint" / "hardening"))

from fuzz_budget import fuzz_settings  # noqa: E402

# The patterns as first written: correct, and slow (tried at every position).
_PLAIN_BACKWARD = r"(?<!def )\bbackward\s*\(|\.backward\b|\bmanual_backward\b"
PLAIN_GRADIENT = re.compile(
    rf"{_PLAIN_BACKWARD}|zero_grad\b|\.step\b|\.grad\b|\.(?:optimizer|first|second)_step\b"
)
PLAIN_BACKWARD = re.compile(_PLAIN_BACKWARD)
PLAIN_STEP = re.compile(r"zero_grad\b|\.step\b|\.grad\b|\.(?:optimizer|first|second)_step\b")
PLAIN_LOOP = re.compile(r"^([ \t]*)(?:async[ \t]+)?(?:for|while)\b", re.MULTILINE)
PLAIN_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+\.*[\w.]*[ \t]+)?import[ \t][^\n]*", re.MULTILINE)
PLAIN_DEFINITION = re.compile(r"^(?:async[ \t]+)?def[ \t]+(\w+)|^class[ \t]+(\w+)", re.MULTILINE)

FRAGMENTS = (
    "backward",
    "backward(",
    ".backward",
    "_backward",
    "xbackward (",
    "def ",
    "def backward(",
    "manual_backward",
    "_step",
    ".optimizer_step",
    ".first_step(",
    ".second_step",
    "x.first_step",
    "first_step",
    "_steps",
    "é",
    "zero_grad",
    "zero_grads",
    ".step",
    ".steps",
    ".grad",
    "import ",
    "import\t",
    "importlib",
    "from ",
    "from . ",
    "from .a.b ",
    "for",
    "for ",
    "while",
    "whiles",
    "async ",
    "async\tfor",
    "asyncfor",
    "c for",
    "x.Cls(",
    "torch.nn.Linear (",
    ".A(",
    "1.B(",
    "def",
    "def ",
    "class\t",
    "classy ",
    "async def ",
    "x",
    "_",
    ".",
    " ",
    "\t",
    "\n",
    "(",
    ")",
    "#",
)

texts = st.lists(st.sampled_from(FRAGMENTS), max_size=30).map("".join)


def _spans(pattern: re.Pattern[str], text: str) -> list[tuple[int, int]]:
    return [match.span() for match in pattern.finditer(text)]


def _line_spans(keywords: tuple[re.Pattern[str], ...], line: re.Pattern[str], text: str) -> list:
    return [(match.span(), match.groups()) for match in index._line_matches(text, keywords, line)]


def _plain_loop_bodies(text: str) -> str:
    """``index._loop_bodies`` with the plain loop pattern and a ``^``-anchored dedent."""
    parts, reached = [], 0
    for header in PLAIN_LOOP.finditer(text):
        if header.start() < reached:
            continue
        end = text.find("\n", header.end())
        if end < 0:
            parts.append(text[header.start() :])
            break
        dedent = re.compile(rf"^[ \t]{{0,{len(header[1])}}}(?=[^ \t\r\n#])", re.MULTILINE)
        found = dedent.search(text, end + 1)
        reached = found.start() if found else len(text)
        parts.append(text[header.start() : reached])
    return "".join(parts)


def _plain_built_classes(text: str, imports: dict[str, str]) -> frozenset[str]:
    """``index._built_classes`` with the chain's start found by a regex search."""
    found = set()
    for match in re.finditer(r"\.[A-Z]\w*\s*\(", text):
        head = re.compile(r"[\w.]*$").search(text, max(0, match.start() - 200), match.start())
        chain = text[head.start() : match.end() - 1].rstrip()
        if chain.partition(".")[0] in imports and chain[:1].isidentifier():
            found.add(chain)
    return frozenset(found)


def _check(text: str) -> None:
    assert _spans(index.GRADIENT_MARKERS, text) == _spans(PLAIN_GRADIENT, text)
    assert _spans(index.BACKWARD_MARKERS, text) == _spans(PLAIN_BACKWARD, text)
    assert index.touches_gradients(text) == (PLAIN_GRADIENT.search(text) is not None)
    assert index.has_backward_marker(text) == (PLAIN_BACKWARD.search(text) is not None)
    assert index.has_step_marker(text) == (PLAIN_STEP.search(text) is not None)
    loops = _line_spans(index._LOOP_KEYWORDS, index._LOOP_LINE, text)
    assert loops == [(m.span(), m.groups()) for m in PLAIN_LOOP.finditer(text)]
    imports = _line_spans(index._IMPORT_KEYWORDS, index._IMPORT_LINE, text)
    assert imports == [(m.span(), m.groups()) for m in PLAIN_IMPORT.finditer(text)]
    assert index._loop_bodies(text) == _plain_loop_bodies(text)
    imported = {"torch": "torch", "nn": "torch.nn", "x": "x"}
    assert index._built_classes(text, imported) == _plain_built_classes(text, imported)
    definitions = [((d.start, d.end), (d.function, d.cls)) for d in index._definitions(text)]
    assert definitions == [(m.span(), m.groups()) for m in PLAIN_DEFINITION.finditer(text)]


@fuzz_settings(300)
@given(texts)
def test_scanners_match_the_plain_patterns_on_generated_text(text):
    _check(text)


@pytest.mark.parametrize(
    "text",
    [
        "loss.backward()\n",
        "backward (x)",
        "manual_backward(loss)",
        "a.backward_hook\n",
        "    def backward(ctx, grad):\n        return grad\n",
        "  async for x in y:\n    for z in w: import os\nfrom . import a  # for\n",
        "x = 1; import os\nwhile True:\n\tpass\n",
        "class A:\n    def f(self): pass\nasync def g(): pass\ndef  h(): class_ = 1\n",
        "",
    ],
)
def test_scanners_match_the_plain_patterns_on_examples(text):
    _check(text)


def test_scanners_match_the_plain_patterns_on_the_repository_files():
    files = [*(ROOT / "tests" / "lint").rglob("*.py"), *(ROOT / "examples").rglob("*.py")]
    assert len(files) > 100
    for path in files:
        _check(path.read_text(encoding="utf-8", errors="replace"))
