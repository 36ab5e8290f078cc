"""``--no-fast-path`` (or ``ZEROGRAD_NO_FAST_PATH=1``) gives the very same output."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterable
from pathlib import Path

import pytest
from cli_helpers import write

from zerograd_guard.lint.findings import Finding
from zerograd_guard.lint.plugins import hookimpl
from zerograd_guard.lint.rules.base import Rule

ROOT = Path(__file__).resolve().parents[3]
NOTEBOOK = {
    "cells": [
        {"cell_type": "code", "source": ["def unrelated():\n", "    return 1\n"]},
        {
            "cell_type": "code",
            "source": [
                "for x in loader:\n",
                "    model(x).backward()\n",
                "    opt.step()\n",
            ],
        },
    ],
    "metadata": {},
    "nbformat": 4,
    "nbformat_minor": 5,
}


def _json(lint, *args: str) -> str:
    run = lint("--no-cache", "--format", "json", *args)
    assert run.code in (0, 1), run.err
    return run.out


def test_same_output_on_the_real_world_files_examples_and_a_notebook(tmp_path, lint):
    shutil.copytree(ROOT / "tests" / "lint" / "real_world", tmp_path / "real_world")
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    write(tmp_path, "nb.ipynb", json.dumps(NOTEBOOK))
    fast = _json(lint, ".")
    reported = json.loads(fast)
    assert len(reported) > 10 and any(item["path"] == "nb.ipynb" for item in reported)
    assert fast == _json(lint, "--no-fast-path", ".")


@pytest.mark.parametrize(
    ("flag", "environment", "fast"),
    [((), "", True), (("--no-fast-path",), "", False), ((), "1", False), ((), "0", True)],
)
def test_switch_and_environment_variable(tmp_path, lint, monkeypatch, flag, environment, fast):
    from zerograd_guard.lint import runner

    seen: list[bool] = []

    def record(tasks, jobs, project=None):
        seen.extend(task.run.fast_path for task in tasks)
        return []

    monkeypatch.setattr(runner, "run_tasks", record)
    monkeypatch.setenv("ZEROGRAD_NO_FAST_PATH", environment)
    write(tmp_path, "a.py", "x = 1\n")
    lint("--no-cache", *flag, "a.py")
    assert seen == [fast]


class ModuleRule(Rule):
    """A toy plugin rule reporting every analysed file whose tree has a class."""

    code = "XF001"
    name = "toy-class"
    summary = "A toy plugin rule."
    explanation = "Reports files with classes."

    def check(self, model: object) -> Iterable[Finding]:
        if "class " in getattr(model, "source", ""):
            yield Finding(self.code, "has a class", 1, 1, 1, 2)


class RulePlugin:
    @hookimpl
    def zerograd_guard_rules(self) -> Iterable[type[Rule]]:
        return [ModuleRule]


@pytest.mark.parametrize("flag", [(), ("--no-fast-path",)])
def test_plugin_rules_see_the_whole_file(tmp_path, lint, flag):
    write(tmp_path, "m.py", "class Unrelated:\n    pass\n\n\nloss.backward()\n")
    run = lint("--no-cache", *flag, "m.py", plugins=(RulePlugin(),))
    assert "XF001" in run.out
