"""The real ``pre-commit`` against this checkout: a buggy loop fails, a fixed one passes.

pre-commit installs hooks from committed files, so the package as it is in the
working tree is copied into a temporary git repository and committed first.
pre-commit then builds a virtualenv and pip-installs the package with the
machine's pip configuration (offline indexes included).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import BUGGY, CORRECT, write

ROOT = Path(__file__).resolve().parents[3]

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


IDENTITY = {
    "GIT_AUTHOR_NAME": "zerograd tests",
    "GIT_AUTHOR_EMAIL": "tests@example.invalid",
    "GIT_COMMITTER_NAME": "zerograd tests",
    "GIT_COMMITTER_EMAIL": "tests@example.invalid",
}


def _git(*args: str, cwd: Path) -> str:
    completed = subprocess.run(
        ["git", *args],
        cwd=cwd,
        env={**os.environ, **IDENTITY},
        capture_output=True,
        text=True,
        check=True,
    )
    return completed.stdout


def _snapshot_checkout(destination: Path) -> None:
    """Commit what the hook installs: the package, its metadata and the hook manifest."""
    for name in ("pyproject.toml", "README.md", ".pre-commit-hooks.yaml"):
        shutil.copy2(ROOT / name, destination / name)
    shutil.copytree(
        ROOT / "zerograd_guard",
        destination / "zerograd_guard",
        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"),
    )
    _git("init", "-q", cwd=destination)
    _git("add", "-A", cwd=destination)
    _git("commit", "-q", "--no-verify", "-m", "snapshot", cwd=destination)


def test_hook_fails_a_buggy_commit_and_passes_a_fixed_one(tmp_path):
    """The documented configuration (``repo`` and ``rev``): the hook's environment is
    built once and reused by the three runs; ``try-repo`` (also documented) once."""
    hook_repo, user_repo = tmp_path / "hook", tmp_path / "user"
    hook_repo.mkdir()
    user_repo.mkdir()
    env = {
        **os.environ,
        **IDENTITY,
        "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
        "NO_COLOR": "1",
    }
    _snapshot_checkout(hook_repo)
    rev = _git("rev-parse", "HEAD", cwd=hook_repo).strip()
    _git("init", "-q", cwd=user_repo)
    config = (
        f"repos:\n  - repo: {hook_repo.as_posix()}\n    rev: {rev}\n"
        "    hooks:\n      - id: zerograd-lint\n"
    )
    write(user_repo, ".pre-commit-config.yaml", config)
    _git("add", ".pre-commit-config.yaml", cwd=user_repo)

    def pre_commit(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "pre_commit", *args],
            cwd=user_repo,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )

    write(user_repo, "notes.txt", "no Python staged yet\n")
    _git("add", "notes.txt", cwd=user_repo)
    empty = pre_commit("run")
    assert empty.returncode == 0, empty.stdout + empty.stderr
    assert "no files to check" in empty.stdout

    write(user_repo, "train.py", BUGGY)
    _git("add", "train.py", cwd=user_repo)
    failed = pre_commit("run")
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "train.py:10:9: ZG101" in failed.stdout
    tried = pre_commit("try-repo", str(hook_repo), "zerograd-lint")
    assert tried.returncode == 1, tried.stdout + tried.stderr
    assert "train.py:10:9: ZG101" in tried.stdout

    write(user_repo, "train.py", CORRECT)
    _git("add", "train.py", cwd=user_repo)
    passed = pre_commit("run")
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "Passed" in passed.stdout
