"""``zerograd-guard run -m package.module [args]``: like ``python -m`` (issue 16)."""

from __future__ import annotations

import os
import sys
import textwrap
from pathlib import Path

import pytest

from zerograd_guard.__main__ import main

pytest.importorskip("torch")

TRAIN = """
import sys
import torch

torch.manual_seed(0)
model = torch.nn.Linear(3, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
print("argv", sys.argv, "name", __name__, "path0", sys.path[0])
for _ in range(int(sys.argv[1])):
    if "--clear" in sys.argv:
        optimizer.zero_grad()
    model(torch.randn(2, 3)).sum().backward()
    optimizer.step()
"""


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``trainers/train.py`` in a package under a working directory, as ``python -m`` finds it."""
    (tmp_path / "trainers").mkdir()
    (tmp_path / "trainers" / "__init__.py").write_text("")
    (tmp_path / "trainers" / "train.py").write_text(textwrap.dedent(TRAIN))
    (tmp_path / "trainers" / "__main__.py").write_text("from trainers import train\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in [name for name in sys.modules if name.startswith("trainers")]:
        monkeypatch.delitem(sys.modules, name)
    return tmp_path


def test_module_runs_as_main_with_python_m_argv(package, capsys):
    argv_before = sys.argv[:]
    status = main(["run", "-m", "trainers.train", "3", "--clear"])
    out, err = capsys.readouterr()
    assert status == 0, err
    module_file = os.path.join(str(package), "trainers", "train.py")
    # sys.argv as Python sets it for -m: the module's file first, then the arguments
    # (an option-like argument belongs to the module, not to zerograd-guard).
    assert f"argv {[module_file, '3', '--clear']!r} name __main__ path0 {package}" in out
    assert "zerograd-guard: 3 optimizer steps checked, 0 violations" in err
    assert sys.argv == argv_before


def test_module_violation_exits_1_with_the_guard_message(package, capsys):
    status = main(["run", "-m", "trainers.train", "3"])
    _, err = capsys.readouterr()
    assert status == 1
    assert "ZG101" in err and "train.py:12" in err


def test_package_runs_its_main_module(package, capsys):
    status = main(["run", "--warn", "-m", "trainers", "2"])
    _, err = capsys.readouterr()
    assert status == 0 and "1 violation" in err


def test_unknown_module_is_a_usage_error(package, capsys):
    status = main(["run", "-m", "no_such_module_here"])
    _, err = capsys.readouterr()
    assert status == 2
    assert err.strip() == "zerograd-guard: error: no_such_module_here: no module of that name"


def test_script_or_module_is_required(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["run"])
    assert exit_info.value.code == 2
    assert "a script or -m MODULE" in capsys.readouterr().err
