"""Notebooks from the adversarial round: IPython masking by tokens, broken cells,
byte-faithful ``--fix``, the size limit, and locations in SARIF and GitHub output."""

from __future__ import annotations

import difflib
import json

import pytest
from cli_helpers import write

from zerograd_guard.lint.notebooks import read_notebook

SETUP = (
    "import torch\n"
    "model = torch.nn.Linear(4, 1)\n"
    "optimizer = torch.optim.SGD(model.parameters(), lr=0.1)\n"
)
CORRECT_LOOP = (
    "for x, y in loader:\n"
    "    optimizer.zero_grad()  # needed?\n"
    "    loss = torch.nn.functional.mse_loss(model(x), y)\n"
    "    loss.backward()\n"
    "    optimizer.step()\n"
)
BUGGY_LOOP = (
    "for x, y in loader:\n"
    "    loss = torch.nn.functional.mse_loss(model(x), y)\n"
    "    loss.backward()\n"
    "    optimizer.step()\n"
)


def _cell(source: str, kind: str = "code", as_list: bool = True) -> dict:
    lines = source.splitlines(keepends=True) if as_list else source
    cell: dict = {"cell_type": kind, "metadata": {}, "source": lines}
    if kind == "code":
        cell.update(execution_count=None, outputs=[])
    return cell


def _notebook(*cells: dict, **extra: object) -> str:
    data = {"cells": list(cells), "metadata": {}, "nbformat": 4, "nbformat_minor": 5, **extra}
    return json.dumps(data, indent=1) + "\n"


# --- IPython syntax is masked by tokens, not whole-line patterns -------------------


def test_trailing_comment_ending_in_a_question_mark_is_not_help(tmp_path, lint):
    path = write(tmp_path, "nb.ipynb", _notebook(_cell(SETUP), _cell(CORRECT_LOOP)))
    before = path.read_bytes()
    run = lint("nb.ipynb")
    assert (run.code, run.err) == (0, ""), run.out
    assert lint("--fix", "nb.ipynb").code == 0
    assert path.read_bytes() == before  # no second zero_grad()


@pytest.mark.parametrize(
    "ipython",
    [
        "!pip install torch \\\n    torchvision\n",
        "%env A=1 \\\n  B=2\n",
        "files = !ls \\\n   -la\n",
        "model?\n",
        "torch.nn.Linear??\n",
        "?torch.nn\n",
    ],
)
def test_ipython_lines_and_their_continuations_are_masked(tmp_path, lint, ipython):
    write(tmp_path, "nb.ipynb", _notebook(_cell(ipython + SETUP), _cell(BUGGY_LOOP)))
    run = lint("nb.ipynb")
    assert run.err == ""
    assert run.code == 1
    assert run.out.startswith("nb.ipynb:cell 2:3:5: ZG101 ")


@pytest.mark.parametrize(
    "python",
    [
        "total = (1\n         % 7)\n",  # PEP 8 breaks before the operator
        "same = (1\n        != 2)\n",
        'def f():\n    """Is this a question?\n    Yes."""\n',
        "text = '''\n%not a magic\n!not a shell escape\n'''\n",
        "x = 1  # why?\n",
    ],
)
def test_python_that_looks_like_ipython_is_kept(python):
    parsed = read_notebook(_notebook(_cell(python)))
    assert parsed.source == python


# --- One broken cell does not void the notebook -------------------------------------


def test_a_cell_that_does_not_parse_is_reported_and_the_rest_analysed(tmp_path, lint):
    blank = "answer = \n"  # an exercise blank
    write(tmp_path, "nb.ipynb", _notebook(_cell(SETUP), _cell(blank), _cell(BUGGY_LOOP)))
    run = lint("nb.ipynb")
    assert run.code == 2
    assert run.out.startswith("nb.ipynb:cell 3:3:5: ZG101 ")
    assert run.err.startswith("nb.ipynb:cell 2:1:10: error: syntax error")
    assert len(run.err.splitlines()) == 1


def test_fix_leaves_a_broken_cell_as_it_was(tmp_path, lint):
    text = _notebook(_cell(SETUP), _cell("answer = \n"), _cell(BUGGY_LOOP))
    path = write(tmp_path, "nb.ipynb", text)
    assert lint("--fix", "nb.ipynb").code == 2
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["cells"][1] == json.loads(text)["cells"][1]
    assert "optimizer.zero_grad()" in "".join(data["cells"][2]["source"])


# --- --fix edits only the edited cells' source, byte for byte ---------------------


@pytest.mark.parametrize("as_list", [True, False])
def test_fix_keeps_every_other_byte(tmp_path, lint, as_list):
    raw = (
        '{"metadata": {"lr": 1e-5, "scale": 1.50, "big": 1e400, "html": "\\u003cb\\u003e",'
        ' "url": "a\\/b", "k": 1, "k": 2},\n'
        '\t"nbformat": 4, "nbformat_minor": 5,\n'
        '\t"cells": ['
        + json.dumps(_cell(SETUP), separators=(",", ":"))
        + ",\n\t\t"
        + json.dumps(_cell(BUGGY_LOOP, as_list=as_list), indent="\t")
        + ',{"cell_type":"code","source":"x = 1","outputs":[{"data":{"text/plain":"\\u00e9"}}]}'
        + "]}"
    )
    path = write(tmp_path, "nb.ipynb", raw.encode())
    assert lint("--fix", "nb.ipynb").code == 0
    fixed = path.read_text(encoding="utf-8")
    loop_start = raw.index('{\n\t"cell_type"', raw.index("cells"))
    loop_value = raw.index('"source"', loop_start)
    assert fixed[:loop_value] == raw[:loop_value]
    tail = raw[raw.index(',{"cell_type":"code","source":"x = 1"') :]
    assert fixed.endswith(tail)
    assert "Infinity" not in fixed
    source = json.loads(fixed.replace("1e400", "1"))["cells"][1]["source"]
    assert "    optimizer.zero_grad()\n" in "".join(source)


def test_fix_of_an_indented_notebook_keeps_its_layout(tmp_path, lint):
    text = _notebook(_cell(SETUP), _cell(BUGGY_LOOP))
    path = write(tmp_path, "nb.ipynb", text)
    assert lint("--fix", "nb.ipynb").code == 0
    fixed = path.read_text(encoding="utf-8").splitlines()
    changed = [line for line in difflib.ndiff(text.splitlines(), fixed) if line[:1] in "+-"]
    assert changed == [
        '-     "    optimizer.step()\\n"',
        '+     "    optimizer.step()\\n",',
        '+     "    optimizer.zero_grad()\\n"',
    ]


# --- the size limit counts code, not outputs -------------------------------------


def test_a_notebook_of_big_outputs_with_little_code_is_linted(tmp_path, lint):
    image = "A" * (17 * 1024 * 1024)
    loop = _cell(BUGGY_LOOP)
    loop["outputs"] = [{"output_type": "display_data", "data": {"image/png": image}}]
    write(tmp_path, "nb.ipynb", _notebook(_cell(SETUP), loop))
    run = lint("nb.ipynb")
    assert run.err == ""
    assert run.code == 1


# --- SARIF and GitHub point at the notebook file's own lines ---------------------


def test_sarif_and_github_regions_are_lines_of_the_notebook_file(tmp_path, lint):
    text = _notebook(_cell(SETUP), _cell(BUGGY_LOOP))
    write(tmp_path, "nb.ipynb", text)
    file_line = next(
        number
        for number, line in enumerate(text.splitlines(), start=1)
        if '"    loss.backward()\\n"' in line
    )
    (result,) = json.loads(lint("--format", "sarif", "nb.ipynb").out)["runs"][0]["results"]
    region = result["locations"][0]["physicalLocation"]["region"]
    assert region["startLine"] == file_line
    hint = result["properties"].pop("help")  # issue 16: the finding's own fix hint
    assert result["properties"] == {"cell": 2, "cellLine": 3, "cellColumn": 5}
    assert hint.startswith("Call `optimizer.zero_grad()` right after the step at cell 2, line ")
    assert "cell 2, line 3" in result["message"]["text"]
    github = lint("--format", "github", "nb.ipynb").out
    assert f"line={file_line}," in github
    assert "cell 2, line 3:" in github


def test_a_notebook_with_two_broken_cells_counts_as_one_file(tmp_path, lint):
    cells = (_cell(SETUP), _cell("a = \n"), _cell("b = \n"), _cell(BUGGY_LOOP))
    write(tmp_path, "nb.ipynb", _notebook(*cells))
    run = lint("nb.ipynb")
    assert run.code == 2
    assert len(run.err.splitlines()) == 2
    assert run.out.endswith("1 file could not be checked.\n")
