"""The rest of the bad-input matrix (``test_cli_bad_input.py`` has the basics): encodings,
line endings, huge files, extreme nesting, files that cannot be read, symlinks, folders
and notebooks in odd places. Every bad file is one ``path: error: cause`` line on stderr
and the other files are still linted; never a traceback."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from cli_helpers import BUGGY, BUGGY_COLUMN, BUGGY_LINE, write

from zerograd_guard.lint import sourcefile


def _error_line(err: str, path: str) -> str:
    assert "Traceback" not in err
    [line] = [line for line in err.splitlines() if line.startswith(f"{path}: error: ")]
    return line


def _finding_position(out: str, path: str) -> tuple[int, int]:
    [line] = [line for line in out.splitlines() if line.startswith(f"{path}:")]
    _, row, column, _ = line.split(":", 3)
    return int(row), int(column)


def test_invalid_byte_deep_inside_an_otherwise_utf8_file(tmp_path, lint):
    body = BUGGY.encode() + b"\n" * 50 + b"name = 'caf\xe9'\n"  # latin-1 on line 63
    write(tmp_path, "mixed.py", body)
    write(tmp_path, "bad.py", BUGGY)
    result = lint(".")
    assert result.code == 2
    assert "cannot decode" in _error_line(result.err, "mixed.py")
    assert "bad.py:" in result.out


def test_bom_file_is_linted_at_the_right_position(tmp_path, lint):
    write(tmp_path, "bom.py", b"\xef\xbb\xbf" + BUGGY.encode())
    result = lint("bom.py")
    assert result.code == 1
    assert _finding_position(result.out, "bom.py") == (BUGGY_LINE, BUGGY_COLUMN)


def test_bom_contradicting_the_coding_cookie(tmp_path, lint):
    write(tmp_path, "clash.py", b"\xef\xbb\xbf# -*- coding: latin-1 -*-\n" + BUGGY.encode())
    result = lint("clash.py")
    assert result.code == 2
    assert "encoding" in _error_line(result.err, "clash.py")


@pytest.mark.parametrize("newline", ["\r\n", "\r"], ids=["crlf", "cr"])
def test_line_endings(tmp_path, lint, newline):
    write(tmp_path, "endings.py", BUGGY.replace("\n", newline).encode())
    result = lint("endings.py")
    assert result.code == 1, result.err
    assert _finding_position(result.out, "endings.py") == (BUGGY_LINE, BUGGY_COLUMN)


def test_mixed_line_endings(tmp_path, lint):
    lines = BUGGY.splitlines()
    parts = []
    for n, line in enumerate(lines):
        ending = ("\r\n", "\r", "\n")[n % 3]
        if ending == "\r" and n + 1 < len(lines) and not lines[n + 1]:
            ending = "\r\n"  # "\r" before an empty "\n" line would read as one break
        parts.append(line + ending)
    mixed = "".join(parts)
    assert {"\r\n", "\r"} <= {part[len(part.rstrip("\r\n")) :] for part in parts}
    write(tmp_path, "mixed.py", mixed.encode())
    result = lint("mixed.py")
    assert result.code == 1, result.err
    assert _finding_position(result.out, "mixed.py") == (BUGGY_LINE, BUGGY_COLUMN)


def test_fifty_megabyte_file_is_refused_fast(tmp_path, lint):
    """Policy: files over 16 MB are not read (``sourcefile.MAX_FILE_BYTES``)."""
    with (tmp_path / "huge.py").open("wb") as handle:
        handle.write(BUGGY.encode())
        handle.truncate(50 * 1024 * 1024)  # sparse: no 50 MB write on the test machine
    write(tmp_path, "bad.py", BUGGY)
    started = time.perf_counter()
    result = lint("--no-cache", ".")
    assert time.perf_counter() - started < 15
    assert result.code == 2
    assert "too large to analyse (50.0 MB" in _error_line(result.err, "huge.py")
    assert "bad.py:" in result.out


def test_too_much_code_to_parse_is_refused_fast(tmp_path, lint):
    """Policy: over 2 MB of code (``sourcefile.MAX_CODE_BYTES``) is not parsed."""
    statement = "x = [" + "1, " * 30 + "]\n"
    write(tmp_path, "generated.py", BUGGY + statement * (3 * 1024 * 1024 // len(statement)))
    started = time.perf_counter()
    result = lint("--no-cache", "generated.py")
    assert time.perf_counter() - started < 10
    assert result.code == 2
    assert "of code; the limit is 2.0 MB" in _error_line(result.err, "generated.py")


def test_big_file_without_a_backward_is_not_parsed(tmp_path, lint):
    statement = "x = [" + "1, " * 30 + "]\n"
    write(tmp_path, "table.py", statement * (8 * 1024 * 1024 // len(statement)))
    started = time.perf_counter()
    assert lint("--no-cache", "table.py").code == 0
    assert time.perf_counter() - started < 10


def test_code_size_counts_code_not_comments():
    comments = "# " + "x" * 98 + "\n"
    sourcefile.check_code_size(comments * (3 * sourcefile.MAX_CODE_BYTES // len(comments)))
    with pytest.raises(sourcefile.SourceError, match="too large to analyse"):
        sourcefile.check_code_size("x = 1\n" * (sourcefile.MAX_CODE_BYTES // 4))


@pytest.mark.parametrize(
    "source",
    [
        "x = " + "(" * 1000 + "1" + ")" * 1000 + "\n",
        "x = " + "-" * 1000 + "1\n",
        "x = 1" + " + 1" * 1000 + "\n",  # libcst's parse time grows steeply with length
        "".join("    " * depth + "if x:\n" for depth in range(1000)) + "    " * 1000 + "pass\n",
        "".join("    " * depth + f"def f{depth}():\n" for depth in range(1000))
        + "    " * 1000
        + "pass\n",
    ],
    ids=["parens", "unary", "long-sum", "ifs", "defs"],
)
def test_thousand_deep_nesting(tmp_path, lint, source):
    write(tmp_path, "deep.py", "loss.backward()\noptimizer.step()\n" + source)
    write(tmp_path, "bad.py", BUGGY)
    result = lint(".")
    assert "Traceback" not in result.out + result.err
    assert "RecursionError" not in result.err
    assert "internal error" not in result.err
    assert result.code in (0, 1, 2)
    assert "bad.py:" in result.out
    for line in result.err.splitlines():
        assert line.startswith("deep.py: error: ")


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads a chmod 000 file anyway")
def test_file_without_read_permission(tmp_path, lint):
    path = write(tmp_path, "secret.py", BUGGY)
    path.chmod(0)
    write(tmp_path, "bad.py", BUGGY)
    result = lint(".")
    assert result.code == 2
    assert "cannot read: Permission denied" in _error_line(result.err, "secret.py")


def test_read_permission_error_is_one_line(tmp_path, lint, monkeypatch):
    """The same failure without relying on the user id: the read itself is refused."""
    write(tmp_path, "secret.py", BUGGY)
    write(tmp_path, "bad.py", BUGGY)
    real = Path.read_bytes

    def refuse(self: Path) -> bytes:
        if self.name == "secret.py":
            raise PermissionError(13, "Permission denied", str(self))
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", refuse)
    result = lint(".")
    assert result.code == 2
    assert "cannot read: Permission denied" in _error_line(result.err, "secret.py")
    assert "bad.py:" in result.out


def test_named_pipe_does_not_block(tmp_path, lint):
    os.mkfifo(tmp_path / "pipe.py")
    write(tmp_path, "bad.py", BUGGY)
    result = lint(".")
    assert result.code == 2
    assert "not a regular file" in _error_line(result.err, "pipe.py")
    assert "bad.py:" in result.out


def test_broken_symlinks(tmp_path, lint):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "dangling.py").symlink_to(tmp_path / "gone.py")
    write(tmp_path, "pkg/bad.py", BUGGY)
    result = lint("pkg")
    assert result.code == 2
    assert "No such file" in _error_line(result.err, "pkg/dangling.py")
    assert "pkg/bad.py:" in result.out
    explicit = lint("pkg/dangling.py")
    assert explicit.code == 2
    assert "pkg/dangling.py: error: no such file or directory" in explicit.err


def test_symlink_loops(tmp_path, lint):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").symlink_to(tmp_path / "pkg" / "b.py")
    (tmp_path / "pkg" / "b.py").symlink_to(tmp_path / "pkg" / "a.py")
    (tmp_path / "pkg" / "again").symlink_to(tmp_path / "pkg", target_is_directory=True)
    write(tmp_path, "pkg/bad.py", BUGGY)
    started = time.perf_counter()
    result = lint("pkg")
    assert time.perf_counter() - started < 30
    assert result.code == 2
    assert "symbolic links" in _error_line(result.err, "pkg/a.py")
    assert "symbolic links" in _error_line(result.err, "pkg/b.py")
    assert result.out.count("pkg/bad.py:") == 1  # the folder loop is not followed


def test_folders_where_files_are_expected(tmp_path, lint):
    write(tmp_path, "model.py/inner.py", BUGGY)  # a folder named like a module
    write(tmp_path, "conf/placeholder.txt", "")
    result = lint("model.py")
    assert result.code == 1
    assert "model.py/inner.py:" in result.out
    config = lint("--config", "conf", "model.py")
    assert config.code == 2
    assert "Traceback" not in config.err
    assert len(config.err.strip().splitlines()) == 1


def _notebook(*cells: tuple[str, str]) -> str:
    return json.dumps(
        {
            "cells": [{"cell_type": kind, "metadata": {}, "source": text} for kind, text in cells],
            "metadata": {},
            "nbformat": 4,
            "nbformat_minor": 5,
        }
    )


def test_notebooks_without_code_cells(tmp_path, lint):
    write(tmp_path, "notes.ipynb", _notebook(("markdown", "loss.backward() in prose")))
    write(tmp_path, "empty.ipynb", _notebook())
    write(tmp_path, "raw.ipynb", _notebook(("raw", "loss.backward()\noptimizer.step()\n")))
    result = lint(".")
    assert (result.code, result.err) == (0, "")


def test_notebook_with_a_syntax_error_in_a_cell(tmp_path, lint):
    write(tmp_path, "broken.ipynb", _notebook(("code", "for x in y:\n    loss.backward(\n")))
    result = lint("broken.ipynb")
    assert result.code == 2
    # Cell-mapped since issue 12 (the other cells are still analysed).
    assert result.err.startswith("broken.ipynb:cell 1:2:18: error: syntax error")


def test_fix_through_a_symlink_writes_the_target_and_keeps_the_link(tmp_path, lint):
    target = write(tmp_path, "real/train.py", BUGGY)
    (tmp_path / "linked.py").symlink_to(target)
    result = lint("--fix", "linked.py")
    assert result.code == 0, result.out + result.err
    assert (tmp_path / "linked.py").is_symlink()
    assert "zero_grad()" in target.read_text()
    assert not list(tmp_path.rglob("*.tmp"))
