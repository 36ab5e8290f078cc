"""``--zerograd-guard-library`` / ini ``zerograd_guard_library_modules``: sites skip an
in-house trainer's frames (pytest subprocesses: the guard is global state)."""

from __future__ import annotations

import pytest

TRAINER = """
def fit(model, optimizer, x, steps):
    for _ in range(steps):
        model(x).sum().backward()
        optimizer.step()
"""

TEST = """
import torch
import inhouse_trainer


def test_fit():
    model = torch.nn.Linear(3, 1)
    inhouse_trainer.fit(model, torch.optim.SGD(model.parameters(), lr=0.1), torch.ones(2, 3), 3)
"""


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.mkpydir("inhouse_trainer").joinpath("__init__.py").write_text(TRAINER)
    pytester.makepyfile(test_fit=TEST)
    return pytester


@pytest.mark.parametrize("how", ["option", "ini"])
def test_listed_trainer_frames_are_skipped(project: pytest.Pytester, how: str) -> None:
    if how == "ini":
        project.makeini("[pytest]\nzerograd_guard_library_modules =\n    inhouse_trainer\n")
        options = []
    else:
        options = ["--zerograd-guard-library", "inhouse_trainer"]
    result = project.runpytest_subprocess("--zerograd-guard", "-p", "no:randomly", *options)
    result.assert_outcomes(failed=1)
    output = result.stdout.str()
    assert "ZG101" in output
    assert "step:       test_fit.py:7  inhouse_trainer.fit(model" in output
    # The guard's own site lines (pytest's traceback still shows the trainer's frames).
    assert "step:       inhouse_trainer" not in output
    assert "backward:   inhouse_trainer" not in output


def test_without_the_list_sites_point_into_the_trainer(project: pytest.Pytester) -> None:
    result = project.runpytest_subprocess("--zerograd-guard", "-p", "no:randomly")
    result.assert_outcomes(failed=1)
    assert "step:       inhouse_trainer/__init__.py:5" in result.stdout.str()


def test_an_unknown_library_module_is_a_usage_error(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_x="def test_x():\n    pass\n")
    result = pytester.runpytest_subprocess(
        "--zerograd-guard", "--zerograd-guard-library", "no_such_trainer_module"
    )
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "zerograd-guard library module 'no_such_trainer_module': no such module" in (
        result.stderr.str()
    )
