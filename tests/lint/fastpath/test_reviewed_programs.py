"""Programs adversarial reviews (2026-12-02) found where the fast path's findings
differed from the whole file's, each minimised. Kept as files (some hold identifier
characters an editor may normalise). The whole-file result is the reference.

Round 2: 01-03, identifier characters the word pattern does not match (``fix·up``,
``℘run``, an import alias): such a file is analysed whole. 04-05: a backward called
through parentheses, ``(loss.backward)()``. 06: a fastai clear spelled across a comment.
07: an engine imported under an alias (``Engine as E``). 08-10: a function that never
backpropagates but reaches a kept function's step (its run is judged and what that step
sees is read by ZG102), from a method, a function and a fastai callback.

Round 3: 01-02, module-level statements that only change gradient state before a
module-level call of a stepping function (the module body's run is judged). 03-05: the
flow engine's memo of "may this function reach a backward" (``FlowEngine.reaches``)
depended on which function asked first (a cycle's provisional answer, a depth cut-off),
so a function nothing calls could change whether another one was judged, and blanking it
changed the order; the answers are now a property of the call graph alone."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastpath_helpers import fast_path, whole_file

from zerograd_guard.lint.options import DEFAULT_OPTIONS, AnalysisOptions, IterationFunction
from zerograd_guard.lint.plugins.manager import builtin_options

FOLDER = Path(__file__).parent / "reviewed"
IGNITE = AnalysisOptions(iteration_functions=frozenset({IterationFunction("ignite", "Engine")}))


def _options(name: str) -> AnalysisOptions:
    if name in ("round2_06.py", "round2_10.py"):
        return builtin_options()
    if name == "round2_07.py":
        return IGNITE
    return DEFAULT_OPTIONS


@pytest.mark.parametrize("name", sorted(path.name for path in FOLDER.glob("*.py")))
def test_fast_path_finds_what_the_whole_file_finds(name: str) -> None:
    text = (FOLDER / name).read_text(encoding="utf-8")
    options = _options(name)
    assert fast_path(text, options) == whole_file(text, options)
