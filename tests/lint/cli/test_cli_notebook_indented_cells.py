"""A cell indented as a whole runs in IPython, which strips the indent of its first line
that is not blank from every line that starts with it (``leading_indent``): it is
analysed as IPython runs it, positions and fixes are in the cell's own text."""

from __future__ import annotations

import json

from cli_helpers import write
from test_cli_notebooks import OPTIMIZER, SETUP, notebook

from zerograd_guard.lint.notebooks import leading_indent, read_notebook

INDENTED_LOOP = (
    "\n"
    "  for x, y in loader:\n"
    "      loss = torch.nn.functional.mse_loss(model(x), y)\n"
    "\n"
    "      loss.backward()\n"
    "      optimizer.step()\n"
)


def test_the_indent_ipython_strips():
    assert leading_indent(["", "  a", "    b", "c", "  "]) == [0, 2, 2, 0, 2]
    assert leading_indent(["a", "  b"]) == [0, 0]
    assert leading_indent(["\tx", "\t\ty", " z"]) == [1, 1, 0]


def test_an_indented_cell_is_analysed_at_its_own_columns(tmp_path, lint):
    write(
        tmp_path,
        "train.ipynb",
        notebook(("code", SETUP), ("code", OPTIMIZER), ("code", INDENTED_LOOP)),
    )
    result = lint("--format", "json", "train.ipynb")
    assert result.code == 1, result.err
    [item] = json.loads(result.out)
    assert (item["code"], item["cell"], item["line"], item["column"]) == (
        "ZG101",
        3,
        5,
        7,
    )
    assert "already applied at cell 3, line 6" in item["message"]


def test_the_fix_keeps_the_cells_indent(tmp_path, lint):
    path = write(
        tmp_path,
        "train.ipynb",
        notebook(("code", SETUP), ("code", OPTIMIZER), ("code", INDENTED_LOOP)),
    )
    result = lint("--fix", "train.ipynb")
    assert result.code == 0, result.out + result.err
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    assert "".join(cells[2]["source"]) == INDENTED_LOOP + "      optimizer.zero_grad()\n"
    assert lint("train.ipynb").code == 0


def test_a_syntax_error_in_an_indented_cell_is_placed_in_the_cell(tmp_path, lint):
    broken = "  x = (\n  loss.backward()\n"
    path = write(tmp_path, "bad.ipynb", notebook(("code", SETUP), ("code", broken)))
    assert lint("bad.ipynb").code == 2
    [error] = read_notebook(path.read_text(encoding="utf-8")).without_broken_cells().left_out
    # the "(" the parser names, at its column in the cell's own text
    assert (error.cell, error.line, error.column) == (2, 1, 7)
