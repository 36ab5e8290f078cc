"""The chains a statement's imported modules lead through (``regions._chains_on``) are
those ``CHAIN.findall`` finds there, on generated text built from the fragments the
pattern turns on (dots after spaces and line continuations, names inside longer names,
digits, non-ASCII letters) and on every ``.py`` of ``tests/lint`` and ``examples``."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from zerograd_guard.lint.regions import CHAIN, SPACE, _chains_on

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tests" / "lint" / "hardening"))

from fuzz_budget import fuzz_settings  # noqa: E402

HEADS = frozenset({"torch", "nn", "F"})
FRAGMENTS = ("torch", "nn", "F", "torchvision", "xtorch", ".", ". ", " .", "..", "\\\n", " ")
FRAGMENTS += ("\n", "(", ")", ",", "1", "1.", "é", "_", "a", "cuda", "#", '"', "=", "\t")
texts = st.lists(st.sampled_from(FRAGMENTS), max_size=24).map("".join)


def _head(chain: str) -> str:
    return SPACE.sub("", chain).partition(".")[0]


def _check(text: str, start: int = 0, end: int | None = None) -> None:
    end = len(text) if end is None else end
    expected = {chain for chain in CHAIN.findall(text, start, end) if _head(chain) in HEADS}
    found = {chain for chain in _chains_on(text, start, end, HEADS) if _head(chain) in HEADS}
    assert found == expected


@fuzz_settings(400)
@given(texts, st.integers(0, 6), st.integers(0, 6))
def test_chains_on_generated_text(text, cut_start, cut_end):
    start = min(cut_start, len(text))
    _check(text, start, max(start, len(text) - cut_end))


@pytest.mark.parametrize(
    "text",
    [
        "torch.nn.Linear(3, 4)",
        "x = torch .nn. F.relu(y)",
        "model = (a.\n    torch.nn)",  # torch continues a chain that starts at a
        "y = 1. torch.cuda",
        "torchvision.models.x + xtorch.y + torch",
        "torch\\\n.cuda.synchronize()",
    ],
)
def test_chains_on_examples(text):
    _check(text)


def test_chains_on_the_repository_files():
    files = [*(ROOT / "tests" / "lint").rglob("*.py"), *(ROOT / "examples").rglob("*.py")]
    for path in files:
        _check(path.read_text(encoding="utf-8", errors="replace"))
