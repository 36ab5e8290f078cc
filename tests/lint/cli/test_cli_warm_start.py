"""A warm run (every file answered from the cache) must not import libcst: its ~0.15 s
import would dominate a run that parses nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

LOOP = """\
def train(model, optimizer, loader):
    for batch in loader:
        model(batch).sum().backward()
        optimizer.step()
"""

PROBE = """\
import sys
from zerograd_guard.lint.cli import main
code = main([sys.argv[1], "--cache-dir", sys.argv[2]])
print(code, "libcst" in sys.modules)
"""


def _run(target: Path, cache: Path) -> str:
    result = subprocess.run(
        [sys.executable, "-c", PROBE, str(target), str(cache)],
        capture_output=True,
        text=True,
        check=False,
    )
    return result.stdout.strip().splitlines()[-1]


def test_warm_run_does_not_import_libcst(tmp_path: Path) -> None:
    target = tmp_path / "train.py"
    target.write_text(LOOP)
    cache = tmp_path / "cache"
    assert _run(target, cache) == "1 True"  # cold: parsed, finding reported
    assert _run(target, cache) == "1 False"  # warm: same finding, no parser loaded
