"""Notebook coordinates everywhere the user reads them: messages, fix edits, the JSON file."""

from __future__ import annotations

import json
import re

from cli_helpers import write
from test_cli_notebooks import OPTIMIZER, SETUP, TRAINING, notebook

from zerograd_guard.lint.notebooks import read_notebook

ZG102_LOOP = (
    "for x in loader:\n"
    "    loss = model(x).sum()\n"
    "    loss.backward()\n"
    "    optimizer.zero_grad()\n"
    "    optimizer.step()\n"
)
ZG103_LOOP = (
    "for i, x in enumerate(loader):\n"
    "    model(x).sum().backward()\n"
    "    if (i + 1) % 4 == 0:\n"
    "        optimizer.step()\n"
    "    optimizer.zero_grad()\n"
)


def _messages(result) -> list[str]:
    return [item["message"] for item in json.loads(result.out)]


def _no_joined_line(message: str) -> bool:
    """Every ``line N`` is preceded by a cell: no joined-program line is left."""
    return all(
        message[: match.start()].endswith(", ") for match in re.finditer(r"\bline \d+", message)
    )


def test_zg101_message_cites_the_step_in_its_cell(tmp_path, lint):
    write(tmp_path, "train.ipynb", TRAINING)
    result = lint("--format", "json", "train.ipynb")
    [item] = json.loads(result.out)
    message, hint = item["message"], item["help"]
    assert "already applied at cell 5, line 4," in message
    # the finding's own hint cites notebook lines as its message does
    assert hint == "Call `optimizer.zero_grad()` right after the step at cell 5, line 4"
    assert _no_joined_line(message) and _no_joined_line(hint)
    text = lint("train.ipynb").out
    assert "at cell 5, line 4" in text and "at line" not in text


def test_zg102_and_zg103_messages_cite_cells(tmp_path, lint):
    cells = (("markdown", "# x\n"), ("code", SETUP), ("code", OPTIMIZER))
    write(tmp_path, "early.ipynb", notebook(*cells, ("code", ZG102_LOOP)))
    write(tmp_path, "window.ipynb", notebook(*cells, ("code", ZG103_LOOP)))
    early = lint("--format", "json", "early.ipynb")
    [message] = _messages(early)
    assert "the clear at cell 4, line 4 discards" in message and _no_joined_line(message)
    window = lint("--format", "json", "window.ipynb")
    [message] = _messages(window)
    assert "the loop at cell 4, line 1," in message and _no_joined_line(message)


def test_github_and_sarif_use_the_cell_citation(tmp_path, lint):
    write(tmp_path, "train.ipynb", TRAINING)
    github = lint("--format", "github", "train.ipynb").out
    assert "at cell 5, line 4" in github
    sarif = json.loads(lint("--format", "sarif", "train.ipynb").out)
    [result] = sarif["runs"][0]["results"]
    assert "at cell 5, line 4" in result["message"]["text"]


def test_cite_lines_leaves_code_and_unknown_lines_alone():
    program = read_notebook(notebook(("code", "a = 1\nb = 2\n"), ("code", "c = 3\n")))
    assert program.cite_lines("at line 3 and line 1") == "at cell 2, line 1 and cell 1, line 1"
    assert program.cite_lines("`f('line 2')` at line 9") == "`f('line 2')` at line 9"
    assert program.cite_lines("outline 2, line 2") == "outline 2, cell 1, line 2"


def test_json_fix_edit_is_in_cell_coordinates(tmp_path, lint):
    path = write(tmp_path, "train.ipynb", TRAINING)
    [item] = json.loads(lint("--format", "json", "train.ipynb").out)
    [edit] = item["fix"]["edits"]
    assert edit["cell"] == item["cell"] == 5
    # The loop cell has no final newline: the clear goes after its last line.
    assert (edit["line"], edit["column"], edit["end_line"], edit["end_column"]) == (4, 21, 4, 21)
    cell_lines = json.loads(TRAINING)["cells"][4]["source"]
    text = "".join(cell_lines)
    offset = sum(len(line) for line in cell_lines[: edit["line"] - 1]) + edit["column"] - 1
    expected = text[:offset] + edit["content"] + text[offset:]
    assert lint("--fix", "train.ipynb").code == 0
    assert "".join(json.loads(path.read_text())["cells"][4]["source"]) == expected


def test_json_fix_edit_inside_a_cell_with_a_final_newline(tmp_path, lint):
    cells = (("code", SETUP), ("code", OPTIMIZER), ("code", "for x in loader:\n"))
    body = "    model(x).sum().backward()\n    optimizer.step()\n"
    write(tmp_path, "t.ipynb", notebook(*cells[:2], ("code", cells[2][1] + body), ("code", "")))
    [item] = json.loads(lint("--format", "json", "t.ipynb").out)
    [edit] = item["fix"]["edits"]
    assert (edit["cell"], edit["line"], edit["column"]) == (3, 4, 1)
    assert edit["content"] == "    optimizer.zero_grad()\n"


def test_fix_keeps_a_crlf_notebook_line_endings(tmp_path, lint):
    original = TRAINING.replace("\n", "\r\n").encode()
    path = write(tmp_path, "train.ipynb", original)
    assert lint("--fix", "train.ipynb").code == 0
    fixed = path.read_bytes()
    assert fixed.count(b"\n") == fixed.count(b"\r\n")
    before, after = original.split(b"\r\n"), fixed.split(b"\r\n")
    changed = [line for line in after if line not in before]
    # The step line gains its newline and the clear follows it; nothing else moves.
    assert len(after) == len(before) + 1 and len(changed) == 2
    assert b"optimizer.step()\\n" in changed[0] and b"zero_grad()" in changed[1]
