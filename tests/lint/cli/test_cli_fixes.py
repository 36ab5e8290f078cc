"""``--fix``, ``--diff``, ``--unsafe-fixes``: atomic, faithful, idempotent, never broken."""

from __future__ import annotations

import os
import stat

from cli_helpers import BUGGY, CORRECT, write

from zerograd_guard.lint.findings import Edit
from zerograd_guard.lint.fixes_apply import apply_edits, parses
from zerograd_guard.lint.sourcefile import SourceText, write_atomic


def test_fix_writes_a_clean_file_and_is_idempotent(tmp_path, lint):
    path = write(tmp_path, "bad.py", BUGGY)
    result = lint("--fix", "bad.py")
    assert result.code == 0, result.out
    assert "1 fixed" in result.out
    fixed = path.read_text()
    assert fixed != BUGGY and "optimizer.zero_grad()" in fixed
    assert lint("bad.py").code == 0
    assert lint("--fix", "bad.py").code == 0
    assert path.read_text() == fixed


def test_diff_prints_and_writes_nothing(tmp_path, lint):
    path = write(tmp_path, "bad.py", BUGGY)
    result = lint("--diff", "bad.py")
    assert result.code == 1
    assert result.out.startswith("--- bad.py\n+++ bad.py\n")
    assert "+        optimizer.zero_grad()" in result.out
    assert path.read_text() == BUGGY
    write(tmp_path, "ok.py", CORRECT)
    assert lint("--diff", "ok.py").code == 0


def test_fix_keeps_crlf_bom_cookie_and_permissions(tmp_path, lint):
    crlf = write(tmp_path, "crlf.py", BUGGY.replace("\n", "\r\n").encode())
    old_mac = write(tmp_path, "cr.py", BUGGY.replace("\n", "\r").encode())
    bom = write(tmp_path, "bom.py", b"\xef\xbb\xbf" + BUGGY.encode())
    latin = "# -*- coding: latin-1 -*-\n# d\xe9j\xe0 vu\n" + BUGGY
    cookie = write(tmp_path, "cookie.py", latin.encode("latin-1"))
    os.chmod(crlf, 0o751)
    assert lint("--fix", ".").code == 0
    crlf_bytes = crlf.read_bytes()
    assert b"zero_grad()" in crlf_bytes
    assert crlf_bytes.count(b"\n") == crlf_bytes.count(b"\r\n")
    assert stat.S_IMODE(os.stat(crlf).st_mode) == 0o751
    assert b"zero_grad()\r" in old_mac.read_bytes() and b"\n" not in old_mac.read_bytes()
    assert bom.read_bytes().startswith(b"\xef\xbb\xbf")
    assert b"zero_grad()" in bom.read_bytes()
    assert "d\xe9j\xe0 vu" in cookie.read_bytes().decode("latin-1")
    assert not list(tmp_path.glob(".*.tmp"))


def test_suppressed_findings_are_not_fixed(tmp_path, lint):
    source = BUGGY.replace("loss.backward()", "loss.backward()  # noqa: ZG101")
    path = write(tmp_path, "quiet.py", source)
    assert lint("--fix", "quiet.py").code == 0
    assert path.read_text() == source


def test_fix_that_would_not_parse_is_never_written(tmp_path, monkeypatch):
    from zerograd_guard.lint import runner
    from zerograd_guard.lint.findings import Finding, Fix

    source = "loss.backward()\nopt.step()\n"
    path = write(tmp_path, "x.py", source)
    broken = Fix("bad", (Edit(0, 0, "def (:\n"),))
    calls = []

    def fake(self, program):
        calls.append(program)
        return [Finding("ZG101", "m", 1, 1, 1, 2, broken)]

    monkeypatch.setattr(runner._Analysis, "__call__", fake)
    task = runner.FileTask(
        path,
        "x.py",
        runner.FileSettings(runner.AnalysisOptions(), (object,)),
        runner.RunSettings(fix=True),
    )
    result = runner.lint_file(task)
    assert result.fixes_applied == 0 and result.error is None
    assert path.read_text() == source
    assert len(calls) == 1


def test_apply_edits_and_parse_gate():
    assert apply_edits("abcdef", [Edit(4, 4, "X"), Edit(0, 1, "")]) == "bcdXef"
    assert parses("x = 1\r\n") and not parses("x = (\n")


def test_write_atomic_replaces_content_and_keeps_mode(tmp_path):
    path = write(tmp_path, "f.py", "old")
    os.chmod(path, 0o640)
    write_atomic(path, b"new")
    assert path.read_bytes() == b"new"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.py"]


def test_newline_detection():
    assert SourceText("a\r\nb", "utf-8").newline == "\r\n"
    assert SourceText("a\rb", "utf-8").newline == "\r"
    assert SourceText("a\nb\r\n", "utf-8").newline == "\n"


def test_unsafe_fixes_need_the_flag(tmp_path, monkeypatch):
    from zerograd_guard.lint import runner
    from zerograd_guard.lint.findings import Finding, Fix

    source = "loss.backward()\nopt.step()\n"
    unsafe = Fix("append a clear", (Edit(len(source), len(source), "opt.zero_grad()\n"),), False)

    def fake(self, program):
        return [] if "zero_grad" in program else [Finding("ZG101", "m", 1, 1, 1, 2, unsafe)]

    monkeypatch.setattr(runner._Analysis, "__call__", fake)
    settings = runner.FileSettings(runner.AnalysisOptions(), (object,))
    path = write(tmp_path, "x.py", source)
    safe_only = runner.lint_file(
        runner.FileTask(path, "x.py", settings, runner.RunSettings(fix=True))
    )
    assert (safe_only.fixes_applied, path.read_text()) == (0, source)
    assert len(safe_only.reported) == 1
    run = runner.RunSettings(fix=True, unsafe_fixes=True)
    fixed = runner.lint_file(runner.FileTask(path, "x.py", settings, run))
    assert (fixed.fixes_applied, fixed.reported) == (1, [])
    assert path.read_text() == source + "opt.zero_grad()\n"


def test_diff_marks_a_missing_final_newline():
    from zerograd_guard.lint.runner import unified_diff

    patch = unified_diff("a\nb", "a\nc\nb", "f.py")
    assert patch.endswith(" b\n\\ No newline at end of file\n")
    assert "+c\n" in patch


def test_a_fix_that_keeps_its_finding_is_not_applied(tmp_path, monkeypatch):
    from zerograd_guard.lint import runner
    from zerograd_guard.lint.findings import Finding, Fix

    source = "loss.backward()\nopt.step()\n"

    def fake(self, program):
        end = len(program)
        fix = Fix("append a comment", (Edit(end, end, "# fixed?\n"),))
        return [Finding("ZG101", "m", 1, 1, 1, 2, fix)]

    monkeypatch.setattr(runner._Analysis, "__call__", fake)
    settings = runner.FileSettings(runner.AnalysisOptions(), (object,))
    path = write(tmp_path, "x.py", source)
    result = runner.lint_file(runner.FileTask(path, "x.py", settings, runner.RunSettings(fix=True)))
    assert result.fixes_applied == 0
    assert path.read_text() == source
