"""The analyzer's verdict on generated training loops against the oracle in ``loop_shapes``.

* precision: a finding only on a loop the oracle finds buggy (any shape);
* stale gradients (the oracle's ZG101 truth) always reported (any shape);
* the exact verdict on the documented shapes: everything unconditional, an accumulation
  step at the window end, or a micro-batch loop, with the clears anywhere. Elsewhere the
  analyzer is deliberately conservative where gradients are discarded (a clear under a
  window condition that discards on some iterations only is not reported as ZG102), which
  precision still checks;
* ``--fix``: the result parses, a second run changes nothing, the fixed loop has no stale
  gradients by the oracle and no bug the original did not have.
"""

from __future__ import annotations

import ast
import tempfile
from pathlib import Path

from fuzz_budget import fuzz_settings
from hypothesis import given
from hypothesis import strategies as st
from loop_shapes import (
    Cond,
    If,
    Inner,
    Shape,
    Simple,
    Stmt,
    describe,
    oracle,
    parse_shape,
    render,
    shapes,
)

from zerograd_guard.lint.analyze import analyze_source
from zerograd_guard.lint.options import AnalysisOptions
from zerograd_guard.lint.rules import BUILTIN_RULES
from zerograd_guard.lint.runner import FileResult, FileSettings, FileTask, RunSettings, lint_file

WINDOW_END = Cond(end=True, negated=False)


def _codes(shape: Shape) -> set[str]:
    return {finding.code for finding in analyze_source(render(shape))}


def test_rendering_round_trips() -> None:
    shape = Shape(
        clear_before=True,
        body=(
            If(Cond(end=False, negated=False), (Simple("clear"),)),
            Inner((Simple("backward"),)),
            If(WINDOW_END, (Simple("step"), Simple("clear")), (Simple("continue"),)),
        ),
    )
    assert parse_shape(render(shape)) == shape


def test_oracle_on_known_loops() -> None:
    """The oracle itself, on the textbook shapes (so a broken oracle cannot pass)."""
    backward, step, clear = Simple("backward"), Simple("step"), Simple("clear")
    assert not oracle(Shape(False, (clear, backward, step))).buggy
    assert not oracle(Shape(True, (backward, step, clear))).buggy
    assert oracle(Shape(False, (backward, step))).stale
    assert oracle(Shape(False, (backward, clear, step))).discarded
    accumulate = If(WINDOW_END, (step, clear))
    assert not oracle(Shape(True, (backward, accumulate))).buggy
    assert oracle(Shape(True, (clear, backward, If(WINDOW_END, (step,))))).discarded
    assert oracle(Shape(True, (backward, If(WINDOW_END, (step,))))).stale
    assert oracle(Shape(False, (clear, Inner((backward, clear)), step))).discarded
    assert not oracle(Shape(False, (clear, Inner((backward,)), step))).buggy


@fuzz_settings(200)
@given(shapes())
def test_findings_only_on_buggy_loops(shape: Shape) -> None:
    verdict = oracle(shape)
    codes = _codes(shape)
    assert not codes or verdict.buggy or verdict.restep, (codes, describe(shape))
    if verdict.stale:
        assert codes, f"stale gradients not reported:\n{describe(shape)}"


@st.composite
def documented_shapes(draw: st.DrawFn) -> Shape:
    """Random orders of one backward, one step and up to two clears, all unconditional,
    or with the step at the accumulation window's end, or with the backward in an inner
    micro-batch loop and the step after it."""
    family = draw(st.sampled_from(("plain", "accumulation", "micro-batches")))
    clears = draw(st.integers(0, 2))
    backward, step, clear = Simple("backward"), Simple("step"), Simple("clear")
    body: list[Stmt]
    if family == "micro-batches":
        in_inner = draw(st.integers(0, clears))
        inner = draw(st.permutations([backward] + [clear] * in_inner))
        body = list(draw(st.permutations([step] + [clear] * (clears - in_inner))))
        body.insert(draw(st.integers(0, len(body))), Inner(tuple(inner)))
    else:
        stepping: Stmt = step if family == "plain" else If(WINDOW_END, (step,))
        body = list(draw(st.permutations([backward, stepping] + [clear] * clears)))
    return Shape(clear_before=draw(st.booleans()), body=tuple(body))


@fuzz_settings(150)
@given(documented_shapes())
def test_verdict_matches_oracle_on_documented_shapes(shape: Shape) -> None:
    verdict = oracle(shape)
    codes = _codes(shape)
    assert bool(codes) == verdict.buggy, (codes, verdict, describe(shape))
    if verdict.stale:
        assert "ZG101" in codes, (codes, describe(shape))


def _fix(path: Path) -> FileResult:
    task = FileTask(
        path=path,
        display=path.name,
        settings=FileSettings(AnalysisOptions(), tuple(BUILTIN_RULES)),
        run=RunSettings(fix=True),
    )
    return lint_file(task)


@fuzz_settings(100)
@given(shapes())
def test_fix_output_parses_is_idempotent_and_clean(shape: Shape) -> None:
    source = render(shape)
    findings = analyze_source(source)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "train.py"
        path.write_text(source, encoding="utf-8")
        first = _fix(path)
        fixed = path.read_text(encoding="utf-8")
        second = _fix(path)
        assert path.read_text(encoding="utf-8") == fixed, "a second --fix changed the file"
    assert first.error is None and second.error is None
    assert second.fixes_applied == 0
    ast.parse(fixed)
    if not any(finding.fix for finding in findings):
        assert fixed == source
        return
    assert first.fixes_applied > 0
    before, after = oracle(shape), oracle(parse_shape(fixed))
    assert not after.stale, f"stale gradients left after --fix:\n{fixed}"
    assert not after.discarded or before.discarded, f"--fix discards gradients:\n{fixed}"
    if not before.discarded:
        assert not after.buggy, f"fixed loop still buggy:\n{fixed}"
