"""The closing summary when files failed, and ``--diff`` on files with ``\r`` line endings."""

from __future__ import annotations

from cli_helpers import BUGGY, CORRECT, write

from zerograd_guard.lint.runner import unified_diff


def test_errors_never_end_with_all_checks_passed(tmp_path, lint):
    write(tmp_path, "syntax.py", "def f(:\n    loss.backward()\n")
    write(tmp_path, "ok.py", CORRECT)
    result = lint("syntax.py", "ok.py", "missing.py")
    assert result.code == 2
    assert "All checks passed!" not in result.out
    assert result.out == "No findings; 2 files could not be checked.\n"


def test_findings_and_errors_both_counted(tmp_path, lint):
    write(tmp_path, "syntax.py", "def f(:\n    loss.backward()\n")
    write(tmp_path, "bad.py", BUGGY)
    result = lint("syntax.py", "bad.py")
    assert result.code == 2
    assert result.out.endswith(
        "Found 1 error.\n[*] 1 fixable with the `--fix` option.\n1 file could not be checked.\n"
    )


def test_clean_run_still_passes(tmp_path, lint):
    write(tmp_path, "ok.py", CORRECT)
    assert lint("ok.py").out == "All checks passed!\n"


def test_diff_of_a_cr_only_file_has_no_spurious_markers(tmp_path, lint):
    path = write(tmp_path, "cr.py", BUGGY.replace("\n", "\r").encode())
    result = lint("--diff", "cr.py")
    assert result.code == 1
    assert "No newline at end of file" not in result.out
    added = [line for line in result.out.split("\n") if line.startswith("+ ")]
    assert added == ["+        optimizer.zero_grad()\r"]
    assert path.read_bytes() == BUGGY.replace("\n", "\r").encode()


def test_diff_marks_only_a_real_missing_final_newline():
    patch = unified_diff("a = 1\nb = 2", "a = 1\nb = 3", "f.py")
    assert patch.count("\\ No newline at end of file") == 2
    crlf = unified_diff("a = 1\r\nb = 2\r\n", "a = 1\r\nb = 3\r\n", "f.py")
    assert "No newline" not in crlf and "+b = 3\r\n" in crlf
    # A form feed is not a line break for Python: no line is split at it.
    assert "-b = 2\x0c c\n" in unified_diff("a\nb = 2\x0c c\n", "a\nb = 3\n", "f.py")
