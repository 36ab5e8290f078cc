"""The package's public names: importable from the top level, listed, typed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import zerograd_guard

ROOT = Path(__file__).resolve().parents[1]
PUBLIC = [
    "guard",
    "accumulate",
    "discard",
    "GradientGuardError",
    "GradientGuardWarning",
    "GuardReport",
]


def _python(code: str) -> str:
    completed = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=True,
    )
    return completed.stdout


def test_public_names_come_from_the_top_level():
    from zerograd_guard import runtime

    for name in PUBLIC:
        assert name in zerograd_guard.__all__
        assert getattr(zerograd_guard, name) is getattr(runtime, name)
    assert issubclass(zerograd_guard.GradientGuardWarning, UserWarning)
    assert issubclass(zerograd_guard.GradientGuardError, AssertionError)


def test_dir_lists_them_without_importing_torch():
    out = _python(
        "import sys, zerograd_guard\n"
        "names = dir(zerograd_guard)\n"
        "print(all(n in names for n in zerograd_guard.__all__), 'torch' in sys.modules)\n"
    )
    assert out.split() == ["True", "False"]


def test_warnings_filter_on_the_top_level_class():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error", zerograd_guard.GradientGuardWarning)
        try:
            warnings.warn(zerograd_guard.GradientGuardWarning("x"), stacklevel=1)
        except zerograd_guard.GradientGuardWarning:
            raised = True
        else:
            raised = False
    assert raised


def test_pytest_warning_filter_names_the_top_level_class(pytester):
    pytester.makepyfile(
        "import warnings, zerograd_guard\n"
        "def test_warns():\n"
        "    warnings.warn(zerograd_guard.GradientGuardWarning('guard warning'))\n"
    )
    pytester.runpytest("-p", "no:randomly").assert_outcomes(passed=1, warnings=1)
    strict = pytester.runpytest(
        "-p", "no:randomly", "-W", "error::zerograd_guard.GradientGuardWarning"
    )
    strict.assert_outcomes(failed=1)


def test_the_package_ships_py_typed():
    assert (Path(zerograd_guard.__file__).parent / "py.typed").is_file()
