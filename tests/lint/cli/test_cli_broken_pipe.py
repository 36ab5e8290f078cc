"""Output piped into a command that stops reading (``zerograd-lint . | head -1``) must
not turn findings into a clean exit, nor print a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

LOOP = """\
def train_{n}(model, optimizer, loader):
    for batch in loader:
        model(batch).sum().backward()
        optimizer.step()
"""


def test_findings_still_exit_1_when_the_reader_stops_early(tmp_path: Path) -> None:
    # Enough findings that the output overflows the pipe buffer.
    (tmp_path / "loops.py").write_text("".join(LOOP.format(n=n) for n in range(1500)))
    process = subprocess.Popen(
        [sys.executable, "-m", "zerograd_guard.lint", "--no-cache", str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    assert b"ZG101" in process.stdout.readline()
    process.stdout.close()
    err = process.stderr.read()
    assert process.wait(timeout=120) == 1
    assert b"Traceback" not in err
