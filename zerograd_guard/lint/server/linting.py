"""Linting an editor buffer: the command line's configuration discovery, rule selection
and per-file pipeline, applied to text that need not be saved."""

from __future__ import annotations

import argparse
import dataclasses
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from zerograd_guard.lint.config import ConfigResolver
from zerograd_guard.lint.runner import FileResult, RunSettings, lint_file

# A notebook cell as the editor holds it: its kind ("code" / "markdown") and text.
CellText = tuple[str, str]


@dataclass(frozen=True)
class BufferResult:
    """What one lint of a buffer found, or the one-line reason it could not."""

    result: FileResult | None = None
    problem: str | None = None  # a configuration or selection error, for the log


class BufferLinter:
    """Lints buffers; plugins are loaded once, the configuration is read on every lint
    (a ``pyproject.toml`` edited while the editor is open counts at the next keystroke)."""

    def __init__(self, plugins: Sequence[object] = (), entry_points: bool = True) -> None:
        from zerograd_guard.lint.cli import _known_rules
        from zerograd_guard.lint.plugins.manager import load

        self._contributions = load(plugins, entry_points=entry_points)
        self._rules = _known_rules(self._contributions)

    def lint(self, path: Path, data: bytes, fix: bool = False) -> BufferResult:
        from zerograd_guard.lint.cli import UsageError, _Planner
        from zerograd_guard.lint.config import ConfigError
        from zerograd_guard.lint.selection import SelectionError

        args = argparse.Namespace(select=None, extend_select=None, ignore=None)
        run = RunSettings(fix=fix, unsafe_fixes=False, cache_dir=None)
        try:
            resolver = ConfigResolver()
            planner = _Planner(args, self._rules, self._contributions, run)
            task = planner.task(path, resolver.for_path(path, is_dir=False))
        except (ConfigError, SelectionError, UsageError) as exc:
            return BufferResult(problem=str(exc))
        task = dataclasses.replace(task, display=str(path), source=data)
        return BufferResult(result=lint_file(task))


def notebook_json(cells: Sequence[CellText]) -> bytes:
    """An ``.ipynb`` holding these cells, as the notebook reader expects one."""
    payload = {
        "cells": [
            {
                "cell_type": kind,
                "metadata": {},
                "source": text,
                **({"execution_count": None, "outputs": []} if kind == "code" else {}),
            }
            for kind, text in cells
        ],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    return json.dumps(payload).encode("utf-8")
