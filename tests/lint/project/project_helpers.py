"""Small project trees for the project-mode tests, and an in-process linter run.

``tree(root, {path: source})`` writes a project (sources dedented); ``findings(...)``
lints it from ``root`` and returns ``(path, line, code, message)`` for each finding.
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from zerograd_guard.lint.cli import main

Finding = tuple[str, int, str, str]


def tree(root: Path, files: dict[str, str]) -> None:
    for relative, source in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(source), encoding="utf-8")


@pytest.fixture
def findings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> Callable[..., list[Finding]]:
    """Lint ``tmp_path`` in-process (``-j 1`` and no cache unless told otherwise)."""
    monkeypatch.chdir(tmp_path)

    def run(
        *args: str, files: dict[str, str] | None = None, paths: tuple[str, ...] = (".",)
    ) -> list[Finding]:
        if files is not None:
            tree(tmp_path, files)
        argv = list(args)
        if "-j" not in argv:
            argv = ["-j", "1", *argv]
        if not any(arg.startswith("--cache-dir") for arg in argv):
            argv.append("--no-cache")
        capsys.readouterr()
        code = main([*argv, "--format", "json", *paths])
        captured = capsys.readouterr()
        assert code in (0, 1), captured.err
        return [
            (item["path"], item["line"], item["code"], item["message"])
            for item in json.loads(captured.out)
        ]

    return run


def codes(found: list[Finding]) -> list[tuple[str, int, str]]:
    return [(path, line, code) for path, line, code, _ in found]
