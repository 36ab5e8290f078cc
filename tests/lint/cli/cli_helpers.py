"""Helpers for the CLI tests: realistic loops and an in-process ``zerograd-lint`` runner.

Imported by the test modules (``from cli_helpers import ...``); ``conftest.py``
re-exports the ``lint`` fixture.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from zerograd_guard.lint.cli import main

# A loop that never clears: ZG101 at the backward (line 9).
BUGGY = textwrap.dedent(
    """\
    import torch

    model = torch.nn.Linear(4, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)


    def train(loader):
        for x, y in loader:
            loss = torch.nn.functional.mse_loss(model(x), y)
            loss.backward()
            optimizer.step()
    """
)
BUGGY_LINE = 10
BUGGY_COLUMN = 9

CORRECT = BUGGY.replace(
    "        loss = torch.nn",
    "        optimizer.zero_grad()\n        loss = torch.nn",
)

# What every BUGGY file reports, as (line, column, code).
BUGGY_FINDING = (BUGGY_LINE, BUGGY_COLUMN, "ZG101")


@dataclass
class Run:
    code: int
    out: str
    err: str


@pytest.fixture
def lint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> Callable[..., Run]:
    """Run zerograd-lint in-process from ``tmp_path`` (serial unless ``-j`` is given)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NO_COLOR", "1")

    def run(*args: str, plugins: tuple[object, ...] = ()) -> Run:
        argv = list(args)
        if not any(arg in ("-j", "--jobs") or arg.startswith("--jobs=") for arg in argv):
            argv = ["-j", "1", *argv]
        capsys.readouterr()
        code = main(argv, plugins=plugins)
        captured = capsys.readouterr()
        return Run(code, captured.out, captured.err)

    return run


def write(root: Path, relative: str, text: str | bytes) -> Path:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path
