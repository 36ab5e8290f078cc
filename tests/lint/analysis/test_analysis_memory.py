"""The analysis leaves nothing for the cyclic garbage collector: the model's reference
cycles are broken when ``analyze_source`` returns, so each file's libcst tree is freed at
once instead of piling up until a full collection (which then walks all of them)."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from zerograd_guard.lint.analyze import analyze_source

ROOT = Path(__file__).resolve().parents[3]
SAMPLES = [
    *sorted((ROOT / "examples").glob("*.py"))[:4],
    *sorted((ROOT / "tests/lint/real_world").glob("*.py"))[:6],
]


@pytest.mark.parametrize("path", SAMPLES, ids=lambda path: path.name)
def test_analysis_leaves_no_reference_cycles(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    analyze_source(source)  # imports and caches first
    gc.collect()
    gc.disable()
    try:
        findings = analyze_source(source)
        unreachable = gc.collect()
    finally:
        gc.enable()
    assert unreachable == 0
    assert isinstance(findings, list)
