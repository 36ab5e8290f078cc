"""The linter never imports torch, not even indirectly."""

from __future__ import annotations

import subprocess
import sys

from cli_helpers import BUGGY, write

PROGRAM = """
import sys
sys.modules["torch"] = None  # any import of torch now raises ImportError
from zerograd_guard.lint.cli import main
code = main(["--no-cache", "-j", "1", "--format", "json", "."])
assert sys.modules["torch"] is None
sys.exit(code)
"""


def test_linting_works_with_torch_unimportable(tmp_path):
    write(tmp_path, "bad.py", BUGGY)
    write(tmp_path, "nb/train.ipynb", '{"cells": [], "metadata": {}, "nbformat": 4}')
    completed = subprocess.run(
        [sys.executable, "-c", PROGRAM], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert completed.returncode == 1, completed.stderr
    assert '"code": "ZG101"' in completed.stdout
