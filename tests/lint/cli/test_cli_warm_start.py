"""A warm run (every file answered from the cache) must not import libcst nor start a
process pool: either would dominate a run that parses nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

LOOP = """\
def train(model, optimizer, loader):
    for batch in loader:
        model(batch).sum().backward()
        optimizer.step()
"""

PROBE = """\
import sys
from zerograd_guard.lint.cli import main
code = main([sys.argv[1], "--cache-dir", sys.argv[2], "-j", sys.argv[3]])
print(code, "libcst" in sys.modules)
"""


def _run(target: Path, cache: Path, jobs: int) -> str:
    result = subprocess.run(
        [sys.executable, "-c", PROBE, str(target), str(cache), str(jobs)],
        capture_output=True,
        text=True,
        check=False,
    )
    return result.stdout.strip().splitlines()[-1]


@pytest.mark.parametrize("jobs", [1, 2])
def test_warm_run_does_not_import_libcst(tmp_path: Path, jobs: int) -> None:
    for name in ("train.py", "train_again.py", "clean.py"):
        (tmp_path / name).write_text(LOOP if name != "clean.py" else "x = 1\n")
    cache = tmp_path / "cache"
    assert _run(tmp_path, cache, jobs) == "1 True"  # cold: parsed, findings reported
    # Warm: the same findings, answered from the cache without a parser or a pool.
    assert _run(tmp_path, cache, jobs) == "1 False"


PARSE_PROBE = """\
import ast, sys
from zerograd_guard.lint.cli import main
parsed = []
real_parse = ast.parse
ast.parse = lambda source, *args, **kwargs: parsed.append(1) or real_parse(source, *args, **kwargs)
code = main([sys.argv[1], "--cache-dir", sys.argv[2], "-j", "1"])
print(code, len(parsed))
"""


def test_warm_run_does_not_reparse_a_file_with_a_fix(tmp_path: Path) -> None:
    """Whether a fix can be offered (the file parses with the running Python) is decided
    before the findings are cached: a warm run does not parse the file again for it."""
    (tmp_path / "train.py").write_text(LOOP)
    cache = tmp_path / "cache"

    def run() -> str:
        command = [sys.executable, "-c", PARSE_PROBE, str(tmp_path), str(cache)]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        return done.stdout.strip().splitlines()[-1]

    code, cold_parses = run().split()
    assert code == "1" and int(cold_parses) >= 1  # the fix was checked on the cold run
    assert run() == "1 0"


def test_a_run_under_no_gitignore_does_not_import_pathspec(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(LOOP)
    probe = (
        "import sys\nfrom zerograd_guard.lint.cli import main\n"
        "code = main([sys.argv[1], '--no-cache'])\nprint(code, 'pathspec' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, str(tmp_path)], capture_output=True, text=True, check=False
    )
    assert done.stdout.strip().splitlines()[-1] == "1 False"
    (tmp_path / ".gitignore").write_text("ignored.py\n")
    (tmp_path / "ignored.py").write_text(LOOP)
    done = subprocess.run(
        [sys.executable, "-c", probe, str(tmp_path)], capture_output=True, text=True, check=False
    )
    assert done.stdout.strip().splitlines()[-1] == "1 True"  # still honoured when present
