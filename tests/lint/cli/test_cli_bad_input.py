"""Exit codes and bad input: one line per bad file, the others still linted, no traceback."""

from __future__ import annotations

import time

import pytest
from cli_helpers import BUGGY, CORRECT, write


def _assert_one_error_line(err: str, path: str) -> str:
    assert "Traceback" not in err
    [line] = [line for line in err.splitlines() if line.startswith(f"{path}: error: ")]
    return line


def test_exit_codes(tmp_path, lint):
    write(tmp_path, "bad.py", BUGGY)
    write(tmp_path, "ok.py", CORRECT)
    assert lint("ok.py").code == 0
    assert lint("bad.py").code == 1
    assert lint("--exit-zero", "bad.py").code == 0
    assert lint("--no-such-option").code == 2


def test_syntax_error_is_reported_and_others_still_linted(tmp_path, lint):
    # Issue 16: a syntax error is a diagnostic at path:line:col (it was "path: error: ...").
    write(tmp_path, "broken.py", "for x in y:\n    loss.backward(\n")
    write(tmp_path, "bad.py", BUGGY)
    result = lint(".")
    assert result.code == 2
    assert "Traceback" not in result.err
    [line] = [line for line in result.err.splitlines() if line.startswith("broken.py:")]
    assert line.startswith("broken.py:3:1: error: syntax error: ")
    assert "bad.py:" in result.out


def test_exit_zero_does_not_hide_errors(tmp_path, lint):
    write(tmp_path, "broken.py", "loss.backward(\n")
    assert lint("--exit-zero", "broken.py").code == 2


@pytest.mark.parametrize(
    ("content", "cause"),
    [
        (b"x = '\xff\xfe'\nloss.backward()\n", "cannot decode"),
        (b"loss.backward()\x00\n", "NUL"),
        (b"# -*- coding: no-such-codec -*-\nloss.backward()\n", "encoding"),
    ],
    ids=["undecodable", "nul-bytes", "unknown-codec"],
)
def test_unreadable_source(tmp_path, lint, content, cause):
    write(tmp_path, "weird.py", content)
    write(tmp_path, "bad.py", BUGGY)
    result = lint(".")
    assert result.code == 2
    assert cause in _assert_one_error_line(result.err, "weird.py")
    assert "bad.py:" in result.out


def test_latin1_cookie_is_honoured(tmp_path, lint):
    source = "# -*- coding: latin-1 -*-\n# caf\xe9\n" + BUGGY.split("\n", 1)[1]
    write(tmp_path, "latin.py", source.encode("latin-1"))
    result = lint("latin.py")
    assert result.code == 1
    assert result.out.startswith("latin.py:")


def test_empty_file(tmp_path, lint):
    write(tmp_path, "empty.py", "")
    assert lint("empty.py").code == 0


def test_missing_path(tmp_path, lint):
    write(tmp_path, "bad.py", BUGGY)
    result = lint("nope.py", "bad.py")
    assert result.code == 2
    assert "nope.py: error: no such file or directory" in result.err
    assert "bad.py:" in result.out


def test_directory_without_python_files(tmp_path, lint):
    write(tmp_path, "docs/readme.txt", "hello")
    result = lint("docs")
    assert result.code == 0
    assert "no Python files found" in result.err


def test_ten_megabyte_file(tmp_path, lint):
    padding = "# " + "x" * 98 + "\n"
    body = BUGGY + padding * (10 * 1024 * 1024 // len(padding))
    write(tmp_path, "huge.py", body)
    started = time.perf_counter()
    result = lint("--no-cache", "huge.py")
    elapsed = time.perf_counter() - started
    assert result.code == 1, result.err
    assert result.out.startswith("huge.py:")
    assert elapsed < 60


def test_deep_nesting(tmp_path, lint):
    nested = "x = " + "(" * 200 + "1" + ")" * 200 + "\n"
    blocks = "".join("    " * depth + "if x:\n" for depth in range(200))
    write(tmp_path, "parens.py", nested + BUGGY)
    write(tmp_path, "blocks.py", "loss.backward()\n" + blocks + "    " * 200 + "pass\n")
    write(tmp_path, "bad.py", BUGGY)
    result = lint(".")
    assert "Traceback" not in result.err + result.out
    assert result.code in (1, 2)
    assert "bad.py:" in result.out
    for line in result.err.splitlines():
        assert ": error: " in line


def test_bad_jobs_value(lint):
    assert lint("-j", "0").code == 2
