"""One notion of a line (Python's: ``\\n``, ``\\r\\n``, ``\\r``) in every place that counts lines.

Form feeds, vertical tabs, U+0085 and U+2028 are ordinary characters to Python and
libcst; ``str.splitlines`` breaks on them. Each test failed while a part of the
linter used ``splitlines``.
"""

from __future__ import annotations

import json

import pytest
from cli_helpers import BUGGY, BUGGY_LINE, write

from zerograd_guard.lint.lines import LineIndex, split_lines

# A form feed (PEP 8 allows them between sections) before the loop.
FORM_FEED = BUGGY.replace("\n\ndef train", "\n\x0c\ndef train")
assert FORM_FEED.count("\n") == BUGGY.count("\n")


def _with_comment(source: str, line: int, comment: str) -> str:
    lines = source.split("\n")
    lines[line - 1] += f"  {comment}"
    return "\n".join(lines)


@pytest.mark.parametrize("odd", ["\x0c", "\x0b", "\x1c", "\x85", "\u2028", "\u2029"])
def test_split_lines_breaks_only_where_python_does(odd):
    text = f"a{odd}b\nc\r\nd\re"
    assert split_lines(text) == [f"a{odd}b", "c", "d", "e"]
    index = LineIndex(text)
    assert index.position(text.index("c")) == (2, 1)
    assert index.position(len(text)) == (4, 2)  # the end of an unterminated last line


def test_noqa_on_the_line_above_a_finding_after_a_form_feed_hides_nothing(tmp_path, lint):
    write(tmp_path, "loop.py", _with_comment(FORM_FEED, BUGGY_LINE - 1, "# noqa"))
    run = lint("loop.py")
    assert run.code == 1
    assert f"loop.py:{BUGGY_LINE}:" in run.out


def test_noqa_on_the_finding_line_after_a_form_feed_suppresses_it(tmp_path, lint):
    write(tmp_path, "loop.py", _with_comment(FORM_FEED, BUGGY_LINE, "# noqa: ZG101"))
    assert lint("loop.py").code == 0


def test_fix_edits_after_a_form_feed_are_on_the_right_line(tmp_path, lint):
    write(tmp_path, "loop.py", FORM_FEED)
    (finding,) = json.loads(lint("--format", "json", "loop.py").out)
    (edit,) = finding["fix"]["edits"]
    assert edit["line"] == BUGGY_LINE + 2  # after `optimizer.step()`, not a line lower
    assert edit["column"] == 1


def test_sarif_fingerprint_hashes_the_reported_line(tmp_path, lint):
    write(tmp_path, "plain.py", BUGGY)
    write(tmp_path, "feed.py", FORM_FEED)

    def fingerprint(name: str) -> str:
        (result,) = json.loads(lint("--format", "sarif", name).out)["runs"][0]["results"]
        return next(iter(result["partialFingerprints"].values()))

    # Same code on the reported line: the hashes differ only by the file's URI, so
    # compare against a copy of the form-feed file under the plain file's name.
    plain = fingerprint("plain.py")
    write(tmp_path, "plain.py", FORM_FEED)
    assert fingerprint("plain.py") == plain


@pytest.mark.parametrize("newline", ["\r", "\r\n"])
def test_file_level_opt_out_in_cr_only_and_crlf_files(tmp_path, lint, newline):
    source = ("x = 1\n# zerograd: noqa\n" + BUGGY).replace("\n", newline)
    path = write(tmp_path, "loop.py", source.encode())
    assert lint("loop.py").code == 0
    assert lint("--fix", "loop.py").code == 0
    assert path.read_bytes() == source.encode()


def _notebook(*sources: str) -> str:
    cells = [
        {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [], "source": s}
        for s in sources
    ]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


NOTEBOOK_LOOP = BUGGY.split("\n\n\n")[0] + "\n"
NOTEBOOK_TRAIN = "def train(loader):" + BUGGY.split("def train(loader):")[1]


@pytest.mark.parametrize("odd", ["\u2028", "\x0c", "\x85"])
def test_notebook_cell_with_odd_characters_in_a_string(tmp_path, lint, odd):
    write(tmp_path, "nb.ipynb", _notebook(NOTEBOOK_LOOP + f"label = 'a{odd}b'\n", NOTEBOOK_TRAIN))
    run = lint("nb.ipynb")
    assert (run.code, run.err) == (1, "")
    assert run.out.startswith("nb.ipynb:cell 2:4:9: ZG101 ")


@pytest.mark.parametrize("odd", ["\u2028", "\x0c"])
def test_notebook_cell_with_odd_characters_in_a_comment(tmp_path, lint, odd):
    write(tmp_path, "nb.ipynb", _notebook(NOTEBOOK_LOOP, f"# a{odd}b\n" + NOTEBOOK_TRAIN))
    run = lint("nb.ipynb")
    assert (run.code, run.err) == (1, "")
    assert run.out.startswith("nb.ipynb:cell 2:5:9: ZG101 ")
