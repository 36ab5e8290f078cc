"""``--fix`` never loses work: concurrent edits, read-only files, hard links, file
metadata, write failures, and files the running Python cannot parse."""

from __future__ import annotations

import errno
import os
import stat

import pytest
from cli_helpers import BUGGY, write

import zerograd_guard.lint.runner as runner
import zerograd_guard.lint.sourcefile as sourcefile


def test_a_file_changed_during_the_fix_is_refused_and_the_edit_kept(tmp_path, lint, monkeypatch):
    path = write(tmp_path, "loop.py", BUGGY)
    user_edit = BUGGY + "\nprint('the user typed this')\n"
    original = runner._apply_fixes

    def edit_while_fixing(*args, **kwargs):
        outcome = original(*args, **kwargs)
        path.write_text(user_edit)  # an editor saves while the analysis runs
        return outcome

    monkeypatch.setattr(runner, "_apply_fixes", edit_while_fixing)
    run = lint("--fix", "loop.py")
    assert path.read_text() == user_edit
    assert run.code == 2
    assert run.err == "loop.py: error: changed on disk while being fixed; not written\n"
    assert "loop.py:10:9: ZG101" in run.out  # the finding is still reported


def test_a_read_only_file_is_not_rewritten(tmp_path, lint):
    path = write(tmp_path, "loop.py", BUGGY)
    os.chmod(path, 0o444)
    run = lint("--fix", "loop.py")
    assert path.read_text() == BUGGY
    assert stat.S_IMODE(path.stat().st_mode) == 0o444
    assert run.code == 2
    assert run.err == "loop.py: error: read-only; not fixed\n"
    assert "loop.py:10:9: ZG101" in run.out


def test_a_hard_linked_file_is_not_silently_split(tmp_path, lint):
    path = write(tmp_path, "loop.py", BUGGY)
    other = tmp_path / "copy.py"
    os.link(path, other)
    run = lint("--fix", "loop.py")
    assert run.code == 2
    assert run.err.startswith("loop.py: error: has 2 hard links; not fixed")
    assert os.path.samefile(path, other)
    assert path.read_text() == BUGGY


def test_owner_mode_and_extended_attributes_are_kept(tmp_path, lint):
    path = write(tmp_path, "loop.py", BUGGY)
    os.chmod(path, 0o640)
    try:
        os.setxattr(path, "user.origin", b"kept")
    except OSError:
        pytest.skip("no user extended attributes on this file system")
    assert lint("--fix", "loop.py").code == 0
    assert "zero_grad" in path.read_text()
    assert os.getxattr(path, "user.origin") == b"kept"
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def test_a_write_failure_keeps_the_finding_and_exits_2(tmp_path, lint, monkeypatch):
    path = write(tmp_path, "loop.py", BUGGY)

    def full_disk(*_args, **_kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(sourcefile.os, "replace", full_disk)
    run = lint("--fix", "loop.py")
    assert path.read_text() == BUGGY
    assert run.code == 2
    assert run.err == "loop.py: error: cannot write: No space left on device\n"
    assert "loop.py:10:9: ZG101 [*]" in run.out
    assert not list(tmp_path.glob(".*.tmp"))


PEP_695 = BUGGY.replace("import torch\n", "import torch\ntype Batch = list[int]\n", 1)


def test_a_fix_the_running_python_cannot_check_is_not_offered(tmp_path, lint):
    if runner.parses(PEP_695):
        pytest.skip("this Python parses PEP 695 type aliases")
    path = write(tmp_path, "loop.py", PEP_695)
    run = lint("loop.py")
    assert run.code == 1
    assert "ZG101 gradients" in run.out and "[*]" not in run.out
    assert "fixable" not in run.out
    assert lint("--fix", "loop.py").code == 1
    assert path.read_text() == PEP_695
