"""The analyzer and the per-file pipeline never crash, whatever the input.

* hypothesmith-generated valid Python (with and without a training loop appended):
  ``analyze_source`` returns findings or raises ``AnalysisError``, nothing else;
* arbitrary bytes as a ``.py`` file, and arbitrary text as a notebook, through the
  runner: a result or a one-line error, never an exception or an internal error.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import hypothesmith
import pytest
from fuzz_budget import fuzz_settings
from hypothesis import given
from hypothesis import strategies as st

from zerograd_guard.lint.analyze import analyze_source
from zerograd_guard.lint.errors import AnalysisError
from zerograd_guard.lint.options import AnalysisOptions
from zerograd_guard.lint.rules import BUILTIN_RULES
from zerograd_guard.lint.runner import FileResult, FileSettings, FileTask, RunSettings, lint_file

# hypothesmith compiles what it generates; ``1()`` and friends warn while compiling.
pytestmark = pytest.mark.filterwarnings("ignore::SyntaxWarning")

LOOP = """
for x, y in loader:
    loss = criterion(model(x), y)
    loss.backward()
    optimizer.step()
"""


def _analyse(source: str) -> None:
    try:
        findings = analyze_source(source)
    except AnalysisError as error:
        assert "\n" not in str(error)
        assert "internal error" not in str(error), str(error)
        return
    for finding in findings:
        assert finding.line >= 1 and finding.column >= 1


@fuzz_settings(100)
@given(hypothesmith.from_grammar())
def test_generated_programs_never_crash_the_analyzer(source: str) -> None:
    _analyse(source)
    # The same program next to a training loop, so the flow check has events to follow.
    _analyse(source + "\n" + LOOP)
    _analyse(LOOP + "\n" + source)


def _lint_bytes(name: str, raw: bytes) -> FileResult:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_bytes(raw)
        task = FileTask(
            path=path,
            display=name,
            settings=FileSettings(AnalysisOptions(), tuple(BUILTIN_RULES)),
            run=RunSettings(fix=True),
        )
        return lint_file(task)


def _assert_clean_result(result: FileResult) -> None:
    if result.error is not None:
        assert "\n" not in result.error
        assert not result.error.startswith("internal error"), result.error


@fuzz_settings(150)
@given(
    st.one_of(
        st.binary(max_size=300),
        st.text(max_size=300).map(lambda text: (text + LOOP).encode("utf-8", "surrogatepass")),
        st.lists(st.sampled_from([*LOOP.splitlines(keepends=True), "\r", "\r\n", "\0", "\xff"]))
        .map("".join)
        .map(lambda text: text.encode("utf-8", "surrogatepass")),
    )
)
def test_arbitrary_bytes_through_the_runner(raw: bytes) -> None:
    _assert_clean_result(_lint_bytes("fuzzed.py", raw))


_CELL = st.fixed_dictionaries(
    {
        "cell_type": st.sampled_from(["code", "markdown", "raw", 3]),
        "source": st.one_of(
            st.text(max_size=40), st.lists(st.text(max_size=20), max_size=3), st.integers()
        ),
    }
)
_NOTEBOOK_JSON = st.one_of(
    st.fixed_dictionaries({"cells": st.lists(_CELL, max_size=4)}),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
    st.lists(st.integers(), max_size=2),
    st.text(max_size=10),
)


@fuzz_settings(150)
@given(st.one_of(_NOTEBOOK_JSON.map(json.dumps), st.text(max_size=200)))
def test_arbitrary_notebooks_through_the_runner(text: str) -> None:
    _assert_clean_result(_lint_bytes("fuzzed.ipynb", text.encode("utf-8", "surrogatepass")))
