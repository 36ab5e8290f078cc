"""``--fix`` killed at the worst moments leaves the old file or the new one, never a torn one.

A child process runs the real command line with one system call of the atomic write
replaced by ``SIGKILL`` to itself: just before the rename (the temporary file is complete,
the target untouched) and just after it. A third test kills a ``--fix`` run over many files
at random moments. Every file is then checked to be exactly the original or exactly what
an uninterrupted ``--fix`` writes.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_helpers import BUGGY

CHILD = """
import os, signal, sys
from zerograd_guard.lint import sourcefile
from zerograd_guard.lint.cli import main

moment = sys.argv[1]
real_replace = os.replace

def replace(src, dst):
    if moment == "before-rename":
        os.kill(os.getpid(), signal.SIGKILL)
    real_replace(src, dst)
    if moment == "after-rename":
        os.kill(os.getpid(), signal.SIGKILL)

sourcefile.os.replace = replace
sys.exit(main(["--fix", "--no-cache", "-j", "1", *sys.argv[2:]]))
"""


def _fixed_text(tmp_path: Path, original: bytes) -> bytes:
    reference = tmp_path / "reference"
    reference.mkdir(parents=True)
    path = reference / "train.py"
    path.write_bytes(original)
    subprocess.run(
        [sys.executable, "-m", "zerograd_guard.lint", "--fix", "--no-cache", str(path)],
        check=True,
        capture_output=True,
    )
    fixed = path.read_bytes()
    assert fixed != original
    return fixed


def _originals() -> dict[str, bytes]:
    return {
        "lf.py": BUGGY.encode(),
        "crlf.py": b"\xef\xbb\xbf" + BUGGY.replace("\n", "\r\n").encode(),
    }


@pytest.mark.parametrize("moment", ["before-rename", "after-rename"])
def test_kill_around_the_rename(tmp_path, moment):
    work = tmp_path / "work"
    work.mkdir()
    for name, content in _originals().items():
        (work / name).write_bytes(content)
        os.chmod(work / name, 0o640)
    child = subprocess.run(
        [sys.executable, "-c", CHILD, moment, "lf.py"],
        cwd=work,
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert child.returncode == -signal.SIGKILL, child.stderr
    content = (work / "lf.py").read_bytes()
    expected = _originals()["lf.py"]
    if moment == "before-rename":
        assert content == expected
        [leftover] = work.glob(".lf.py.*.tmp")  # the complete new text, never renamed
        assert leftover.read_bytes() == _fixed_text(tmp_path, expected)
    else:
        assert content == _fixed_text(tmp_path, expected)
        assert not list(work.glob("*.tmp"))
        assert oct(os.stat(work / "lf.py").st_mode & 0o777) == oct(0o640)


def test_sigkill_at_random_moments_never_tears_a_file(tmp_path):
    originals = {f"m{index:03d}.py": BUGGY.encode() for index in range(60)}
    originals.update({f"w{name}": content for name, content in _originals().items()})
    fixed = {
        name: _fixed_text(tmp_path / name, content)
        for name, content in {"lf": BUGGY.encode(), **_originals()}.items()
    }
    expected_fixed = {
        name: fixed["lf"] if name.startswith("m") else fixed[name[1:]] for name in originals
    }
    rng = random.Random(7)
    work = tmp_path / "work"
    outcomes = set()
    for _ in range(4):
        work.mkdir()
        for name, content in originals.items():
            (work / name).write_bytes(content)
        process = subprocess.Popen(
            [sys.executable, "-m", "zerograd_guard.lint", "--fix", "--no-cache", "-j", "1", "."],
            cwd=work,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(rng.uniform(0.5, 1.6))
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=60)
        for name, content in originals.items():
            now = (work / name).read_bytes()
            assert now in (content, expected_fixed[name]), f"{name} is torn"
            outcomes.add("fixed" if now == expected_fixed[name] else "original")
        for path in work.iterdir():
            path.unlink()
        work.rmdir()
    assert outcomes  # the kills landed before, during or after the writes
