"""The fast path's statement patterns (``regions``: keyword-first, possessive) find
exactly what the plain patterns they replace find, on generated text built from the
fragments the patterns turn on and on every ``.py`` of ``tests/lint`` and ``examples``;
so does the index's dotted-chain pattern (``project.index``)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from zerograd_guard.lint import regions
from zerograd_guard.lint.project import index

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tests" / "lint" / "hardening"))

from fuzz_budget import fuzz_settings  # noqa: E402

# The patterns as first written: correct, and slow (tried at every position, or giving
# back every character of a word before failing).
PLAIN = {
    regions.CLASS: re.compile(r"(?<!\w)class\s+([^\W\d]\w*)"),
    regions.DEFINED: re.compile(r"(?<!\w)(?:def|class)\s+([^\W\d]\w*)"),
    regions.GLOBAL: re.compile(r"(?<!\w)(?:global|nonlocal)\s+([^\W\d]\w*(?:\s*,\s*[^\W\d]\w*)*)"),
    regions.WALRUS: re.compile(r"([^\W\d]\w*)\s*:="),
    regions.CHAIN: re.compile(r"(?<![\w.])[^\W\d]\w*(?:[\s\\]*\.[\s\\]*[^\W\d]\w*)+"),
    index._DOTTED: re.compile(r"(?<![\w.])[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+"),
}

FRAGMENTS = ("class", "def", "global", "nonlocal", "sub", "x", "_", "é", "1", " ", "\t")
FRAGMENTS += ("\n", ".", ",", ":=", ":", "=", "\\\n", "(", "a.b", "async ", "classy")
texts = st.lists(st.sampled_from(FRAGMENTS), max_size=24).map("".join)


def _check(text: str) -> None:
    for fast, plain in PLAIN.items():
        assert fast.findall(text) == plain.findall(text), (fast.pattern, text)


@fuzz_settings(400)
@given(texts)
def test_patterns_on_generated_text(text):
    _check(text)


@pytest.mark.parametrize(
    "text",
    [
        "class A(B):\n    def f(self): pass\nsubclass x\n",
        "def  g(): global a, b\n  nonlocal c\n",
        "if (n := len(a)) > 1: pass\n",
        "x = torch .nn. F.relu(y)\nz = a\\\n.b\n",
        "defx = 1; classx = 2; _def g\n",
    ],
)
def test_patterns_on_examples(text):
    _check(text)


def test_patterns_on_the_repository_files():
    files = [*(ROOT / "tests" / "lint").rglob("*.py"), *(ROOT / "examples").rglob("*.py")]
    for path in files:
        _check(path.read_text(encoding="utf-8", errors="replace"))
