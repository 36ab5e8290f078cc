"""Notebooks: cells joined into one program, magics masked, positions per cell."""

from __future__ import annotations

import json

from cli_helpers import BUGGY, write

from zerograd_guard.lint.notebooks import read_notebook

SETUP = "import torch\n%matplotlib inline\nmodel = torch.nn.Linear(4, 1)\n"
OPTIMIZER = "!pip list\noptimizer = torch.optim.SGD(model.parameters(), lr=0.1)\n"
LOOP = (
    "for x, y in loader:\n"
    "    loss = torch.nn.functional.mse_loss(model(x), y)\n"
    "    loss.backward()\n"
    "    optimizer.step()"
)


def _cell(kind: str, source: str) -> dict:
    cell = {"cell_type": kind, "metadata": {}, "source": source.splitlines(keepends=True)}
    if kind == "code":
        cell.update(execution_count=None, outputs=[])
    return cell


def notebook(*cells: tuple[str, str]) -> str:
    data = {
        "cells": [_cell(kind, source) for kind, source in cells],
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


TRAINING = notebook(
    ("markdown", "# Training\nSome text.\n"),
    ("code", SETUP),
    ("code", OPTIMIZER),
    ("markdown", "The loop:"),
    ("code", LOOP),
)


def test_finding_reported_in_its_cell(tmp_path, lint):
    write(tmp_path, "train.ipynb", TRAINING)
    result = lint("train.ipynb")
    assert result.code == 1, result.err
    assert result.out.splitlines()[0].startswith("train.ipynb:cell 5:3:5: ZG101 ")


def test_json_carries_the_cell(tmp_path, lint):
    write(tmp_path, "nb/train.ipynb", TRAINING)
    result = lint("--format", "json", ".")
    [item] = json.loads(result.out)
    assert (item["path"], item["cell"], item["line"], item["column"]) == (
        "nb/train.ipynb",
        5,
        3,
        5,
    )


def test_correct_notebook_is_clean(tmp_path, lint):
    fixed = LOOP.replace("    loss = torch", "    optimizer.zero_grad()\n    loss = torch")
    write(tmp_path, "ok.ipynb", notebook(("code", SETUP), ("code", OPTIMIZER), ("code", fixed)))
    assert lint("ok.ipynb").code == 0


def test_malformed_notebooks_are_one_line_errors(tmp_path, lint):
    write(tmp_path, "broken.ipynb", '{"cells": [')
    write(tmp_path, "nocells.ipynb", '{"metadata": {}}')
    write(tmp_path, "bad.py", BUGGY)
    result = lint(".")
    assert result.code == 2
    assert "Traceback" not in result.err
    errors = sorted(line.split(":")[0] for line in result.err.splitlines())
    assert errors == ["broken.ipynb", "nocells.ipynb"]
    assert "bad.py:" in result.out


def test_masking_keeps_one_line_per_cell_line():
    text = notebook(
        ("code", "%%bash\necho hi\n"),
        ("code", "%%time\nx = 1\n"),
        ("code", "files = !ls\nhelp?\n    \nif x:\n    %time f()\n"),
    )
    parsed = read_notebook(text)
    assert parsed.source == "pass\npass\npass\nx = 1\npass\npass\n    \nif x:\n    pass\n"
    compile(parsed.source, "nb", "exec")
    assert parsed.position(9, 5) == (3, 5, 5)


def test_fix_inside_a_cell_preserves_the_rest(tmp_path, lint):
    path = write(tmp_path, "train.ipynb", TRAINING)
    result = lint("--fix", "train.ipynb")
    assert result.code == 0, result.out + result.err
    fixed = json.loads(path.read_text(encoding="utf-8"))
    original = json.loads(TRAINING)
    assert fixed["metadata"] == original["metadata"]
    assert fixed["cells"][:4] == original["cells"][:4]
    loop = "".join(fixed["cells"][4]["source"])
    assert "optimizer.zero_grad()" in loop
    assert lint("train.ipynb").code == 0
    before = path.read_text(encoding="utf-8")
    assert lint("--fix", "train.ipynb").code == 0
    assert path.read_text(encoding="utf-8") == before
