"""Generated loops in odd clothes: other line endings, form feeds, notebooks with
IPython magics and cells that do not parse. The verdict and the fixes must be exactly
those of the plain ``.py`` rendering (issue 12)."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from fuzz_budget import fuzz_settings
from hypothesis import given
from hypothesis import strategies as st
from loop_shapes import Shape, render, shapes

from zerograd_guard.lint.options import AnalysisOptions
from zerograd_guard.lint.rules import BUILTIN_RULES
from zerograd_guard.lint.runner import FileResult, FileSettings, FileTask, RunSettings, lint_file

MAGICS = (
    "%matplotlib inline\n",
    "!pip install torch \\\n    torchvision\n",
    "files = !ls\n",
    "model?\n",
    "x = 1  # why?\n",
    "%%bash\necho hi\n",
)
BROKEN = ("answer = \n", "for i in range(3)\n    pass\n", "def f(:\n")


def _lint(name: str, raw: bytes, fix: bool) -> tuple[FileResult, bytes]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_bytes(raw)
        task = FileTask(
            path=path,
            display=name,
            settings=FileSettings(AnalysisOptions(), tuple(BUILTIN_RULES)),
            run=RunSettings(fix=fix),
        )
        return lint_file(task), path.read_bytes()


def _verdict(result: FileResult) -> list[tuple[str, int, int]]:
    return [(item.code, item.line, item.column) for item in result.reported]


@st.composite
def dressed(draw: st.DrawFn) -> tuple[str, str]:
    """A loop's plain rendering, and the same with other line endings and form feeds."""
    plain = render(draw(shapes()))
    newline = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    lines = plain.split("\n")
    blank = [index for index, line in enumerate(lines) if not line]
    feeds = draw(st.sets(st.sampled_from(blank), max_size=3))
    # Form feeds on blank lines, as PEP 8 uses them (libcst rejects one before an
    # indented statement, which CPython accepts).
    dressed_lines = ["\x0c" if index in feeds else line for index, line in enumerate(lines)]
    return plain, newline.join(dressed_lines)


@fuzz_settings(20)
@given(dressed())
def test_line_endings_and_form_feeds_change_nothing(case: tuple[str, str]) -> None:
    plain, odd = case
    expected, plain_fixed = _lint("train.py", plain.encode(), fix=True)
    result, _ = _lint("train.py", odd.encode(), fix=False)
    assert result.error is None, result.error
    unfixed, _ = _lint("train.py", plain.encode(), fix=False)
    assert _verdict(result) == _verdict(unfixed)
    fixed_result, fixed = _lint("train.py", odd.encode(), fix=True)
    assert fixed_result.fixes_applied == expected.fixes_applied
    normalised = fixed.decode().replace("\x0c", "").replace("\r\n", "\n").replace("\r", "\n")
    assert normalised == plain_fixed.decode()


def _cell(source: str) -> dict:
    return {
        "cell_type": "code",
        "execution_count": None,
        "metadata": {},
        "outputs": [],
        "source": source.splitlines(keepends=True),
    }


@st.composite
def notebooks(draw: st.DrawFn) -> tuple[Shape, list[str], int, int]:
    """(shape, cell sources, index of the loop cell, number of broken cells)."""
    shape = draw(shapes())
    extra = draw(st.lists(st.sampled_from(MAGICS + BROKEN), max_size=4))
    cells = list(extra)
    loop_index = draw(st.integers(0, len(cells)))
    cells.insert(loop_index, render(shape))
    return shape, cells, loop_index, sum(1 for cell in extra if cell in BROKEN)


@fuzz_settings(15)
@given(notebooks())
def test_notebooks_with_magics_and_broken_cells(case: tuple[Shape, list[str], int, int]) -> None:
    shape, cells, loop_index, broken = case
    text = json.dumps({"cells": [_cell(c) for c in cells], "metadata": {}, "nbformat": 4}, indent=1)
    plain, plain_fixed = _lint("train.py", render(shape).encode(), fix=True)
    unfixed, _ = _lint("train.py", render(shape).encode(), fix=False)
    result, _ = _lint("nb.ipynb", text.encode(), fix=False)
    assert result.error is None, result.error
    assert len(result.part_errors) == broken
    assert {item.cell for item in result.reported} <= {loop_index + 1}
    assert _verdict(result) == _verdict(unfixed)
    fixed_result, fixed = _lint("nb.ipynb", text.encode(), fix=True)
    assert fixed_result.fixes_applied == plain.fixes_applied
    data = json.loads(fixed)
    assert "".join(data["cells"][loop_index]["source"]) == plain_fixed.decode()
    original = json.loads(text)
    for index, cell in enumerate(data["cells"]):
        if index != loop_index:
            assert cell == original["cells"][index]
    again, refixed = _lint("nb.ipynb", fixed, fix=True)
    assert again.fixes_applied == 0 and refixed == fixed


_FRAGMENTS = st.sampled_from(
    [
        *MAGICS,
        *BROKEN,
        "    loss.backward()\n",
        "optimizer.step()\n",
        "(1\n",
        "   % 7)\n",
        '"""doc?\n',
        "\\\n",
        "?\n",
        "\u2028",
        "\x0c\n",
        "\r",
    ]
)


@fuzz_settings(60)
@given(st.lists(st.lists(_FRAGMENTS, max_size=6).map("".join), max_size=4))
def test_cells_of_ipython_fragments_never_crash(cells: list[str]) -> None:
    text = json.dumps({"cells": [_cell(c) for c in cells], "metadata": {}, "nbformat": 4})
    for fix in (False, True):
        result, _ = _lint("nb.ipynb", text.encode(), fix=fix)
        for message in [result.error or "", *(text for _, text in result.part_errors)]:
            assert "\n" not in message
            assert "internal error" not in message, message
