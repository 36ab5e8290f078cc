"""``zerograd-guard run script.py``: unmodified scripts, ``__main__`` semantics, exit statuses."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from zerograd_guard.__main__ import main
from zerograd_guard.children import env, start_propagation

LOOP = """
import sys
import torch

torch.manual_seed(0)
model = torch.nn.Linear(3, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)


def train(steps, clear=True):
    for _ in range(steps):
        if clear:
            optimizer.zero_grad()
        model(torch.randn(2, 3)).sum().backward()
        optimizer.step()
"""


def write_script(directory: Path, body: str, name: str = "train.py") -> Path:
    path = directory / name
    path.write_text(LOOP + textwrap.dedent(body))
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["run", *argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_correct_script_runs_as_main_with_its_arguments_and_directory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "sibling.py").write_text("VALUE = 'imported from the script directory'\n")
    script = write_script(
        tmp_path,
        """
        import sibling
        print(__name__, sys.argv[1:], sibling.VALUE)
        if __name__ == "__main__":
            train(int(sys.argv[1]))
        """,
    )
    argv_before, path_before = sys.argv[:], sys.path[:]
    status, out, err = run(capsys, os.fspath(script), "4", "--flag")
    assert status == 0
    assert out == "__main__ ['4', '--flag'] imported from the script directory\n"
    assert err.splitlines()[0] == (
        "zerograd-guard: 4 optimizer steps checked, 0 violations, 0 warning(s)"
    )
    assert (sys.argv, sys.path) == (argv_before, path_before)


def test_missing_clear_exits_1_with_the_rule_and_the_script_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = write_script(tmp_path, "train(5, clear=False)\n")
    status, _, err = run(capsys, os.fspath(script))
    assert status == 1
    assert "1 violation" in err.splitlines()[0]
    assert "ZG101" in err
    assert "train.py:15  optimizer.step()" in err
    assert "docs: https://zerograd-guard.readthedocs.io/en/latest/rules/zg101/" in err


def test_warn_mode_reports_each_distinct_violation_once_and_exits_with_the_script_status(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = write_script(tmp_path, "train(5, clear=False)\n")
    status, _, err = run(capsys, "--warn", os.fspath(script))
    assert status == 0
    assert "5 optimizer steps checked, 4 violations" in err
    assert err.count("ZG101 gradients were not cleared") == 1
    assert "(also at 3 later step(s): 3, 4, 5)" in err


def test_environment_selects_warn_mode(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ZEROGRAD_GUARD", "warn")
    script = write_script(tmp_path, "train(3, clear=False)\n")
    status, _, err = run(capsys, os.fspath(script))
    assert (status, "2 violations" in err) == (0, True)


def test_max_steps_stops_an_endless_script_even_through_except_exception(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = write_script(
        tmp_path,
        """
        while True:
            try:
                train(1)
            except Exception:
                print("swallowed")
        """,
    )
    status, out, err = run(capsys, "--max-steps", "3", os.fspath(script))
    assert (status, out) == (0, "")
    assert err.splitlines()[0] == (
        "zerograd-guard: 3 optimizer steps checked, 0 violations, 0 warning(s) "
        "(stopped after 3 steps: --max-steps)"
    )


def test_max_steps_counts_a_wrapper_and_its_inner_optimizer_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = write_script(
        tmp_path,
        """
        class Wrapper(torch.optim.Optimizer):
            def __init__(self, inner):
                super().__init__(list(model.parameters()), {})
                self.inner = inner

            def step(self, closure=None):
                return self.inner.step(closure)

        optimizer = Wrapper(optimizer)
        count = 0
        while True:
            train(1)
            count += 1
            print(count)
        """,
    )
    status, out, _ = run(capsys, "--max-steps", "2", os.fspath(script))
    assert (status, out) == (0, "1\n")


@pytest.mark.parametrize(
    ("body", "status", "stream_text"),
    [
        ("raise ValueError('boom')\n", 1, "ValueError: boom"),
        ("sys.exit(3)\n", 3, ""),
        ("sys.exit('bye')\n", 1, "bye"),
        ("raise KeyboardInterrupt\n", 130, "(interrupted)"),
    ],
    ids=["exception", "exit-code", "exit-message", "ctrl-c"],
)
def test_script_endings_keep_python_exit_statuses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], body: str, status: int, stream_text: str
) -> None:
    script = write_script(tmp_path, "train(2)\n" + body)
    actual, _, err = run(capsys, os.fspath(script))
    assert actual == status
    assert stream_text in err
    assert "2 optimizer steps checked" in err


def test_uncaught_error_traceback_shows_only_the_scripts_frames(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = write_script(tmp_path, "def fail():\n    raise ValueError('boom')\nfail()\n")
    status, _, err = run(capsys, os.fspath(script))
    assert status == 1
    frames = [line for line in err.splitlines() if line.startswith("  File ")]
    assert frames == [
        f'  File "{script}", line 18, in <module>',
        f'  File "{script}", line 17, in fail',
    ]
    assert err.startswith("Traceback (most recent call last):\n")


def test_syntax_error_is_printed_without_runner_frames(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "broken.py"
    script.write_text("x = (\n")
    status, _, err = run(capsys, os.fspath(script))
    assert status == 1
    assert err.startswith(f'  File "{script}", line 1\n')
    assert "SyntaxError" in err and "Traceback" not in err


def test_json_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = write_script(tmp_path, "train(3, clear=False)\n")
    report = tmp_path / "report.json"
    status, _, _ = run(capsys, "--warn", "--report", os.fspath(report), os.fspath(script))
    data = json.loads(report.read_text())
    assert status == 0
    assert data["steps_checked"] == 3
    assert [v["code"] for v in data["violations"]] == ["ZG101", "ZG101"]
    assert data["violations"][0]["step_site"]["line"] == 15
    assert data["children"] == []


def test_accumulation_contract(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = write_script(tmp_path, "train(3)\n")
    status, _, err = run(capsys, "--accumulate", "2", os.fspath(script))
    assert status == 1
    assert "ZG103" in err


@pytest.mark.parametrize(
    "argv",
    [["run"], ["run", "--max-steps", "0", "x.py"], ["walk", "x.py"], []],
    ids=["no-script", "zero-steps", "unknown-command", "nothing"],
)
def test_usage_errors_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "usage: zerograd-guard" in err
    assert "required: script, args" not in err  # the script's arguments are optional


def test_missing_script_is_a_one_line_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = run(capsys, os.fspath(tmp_path / "absent.py"))
    assert status == 2
    assert err == f"zerograd-guard: error: {tmp_path / 'absent.py'}: no such script file\n"


@pytest.mark.slow
def test_python_dash_m_guards_the_script_children_and_leaves_its_own_parent_out(
    tmp_path: Path,
) -> None:
    child = write_script(tmp_path, "train(3, clear=False)\n", name="child.py")
    parent = tmp_path / "launcher.py"
    parent.write_text(
        "import subprocess, sys\n"
        f"code = subprocess.run([sys.executable, {os.fspath(child)!r}]).returncode\n"
        "print('child exit status', code)\n"
    )
    # Run from a guarded parent: the run reports its script's children itself, and
    # the outer parent (a test checking that the run fails) hears nothing.
    with start_propagation("error") as outer:
        result = subprocess.run(
            [sys.executable, "-m", "zerograd_guard", "run", os.fspath(parent)],
            capture_output=True,
            text=True,
            timeout=180,
            check=False,
        )
        assert outer.records() == []
    assert result.returncode == 1
    assert result.stdout == "child exit status 1\n"
    summary = next(
        line for line in result.stderr.splitlines() if line.startswith("zerograd-guard:")
    )
    assert summary == (
        "zerograd-guard: 0 optimizer steps checked, 1 violation, 0 warning(s), "
        "1 guarded child process(es), 2 steps"
    )
    assert "[child process pid" in result.stderr
    assert "child.py:15  optimizer.step()" in result.stderr


def test_an_in_process_run_inside_a_propagation_restores_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = write_script(tmp_path, "train(1)\n")
    names = ("PYTHONPATH", env.CHILD_MODE, env.CHILD_REPORT_DIR, env.CHILD_ACCUMULATE)
    with start_propagation("error") as outer:
        before = {name: os.environ.get(name) for name in names}
        status, _, _ = run(capsys, os.fspath(script))
        assert {name: os.environ.get(name) for name in names} == before
        assert os.environ[env.CHILD_REPORT_DIR] == outer.report_dir
    assert status == 0


CLEAR_EVERY_MICRO_BATCH = """
for index in range(8):
    optimizer.zero_grad()
    model(torch.randn(2, 3)).sum().backward()
    if index % 4 == 3:
        optimizer.step()
"""


@pytest.mark.parametrize(("strict", "status"), [(False, 0), (True, 1)])
def test_strict_fails_a_run_that_only_warns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], strict: bool, status: int
) -> None:
    script = write_script(tmp_path, CLEAR_EVERY_MICRO_BATCH)
    code, _, err = run(capsys, *(["--strict"] if strict else []), str(script))
    assert code == status
    assert "0 violations, 1 warning(s)" in err and "ZG103" in err


MANUAL_SGD = """
for _ in range(3):
    model.zero_grad()
    model(torch.randn(2, 3)).sum().backward()
    with torch.no_grad():
        for p in model.parameters():
            p.data.add_(p.grad, alpha=-0.1)
"""


@pytest.mark.parametrize(("strict", "status"), [(False, 0), (True, 1)])
def test_nothing_watched_is_said_loudly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], strict: bool, status: int
) -> None:
    script = tmp_path / "manual.py"
    script.write_text("import torch\nmodel = torch.nn.Linear(3, 1)\n" + MANUAL_SGD)
    code, _, err = run(capsys, *(["--strict"] if strict else []), str(script))
    assert code == status
    assert "NO OPTIMIZER WAS WATCHED" in err


def test_a_stalled_optimizer_fails_under_strict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = write_script(
        tmp_path,
        """
        steps = 0
        for _ in range(12):
            model(torch.randn(2, 3)).sum().backward()
            if steps % 4 == 0:
                optimizer.step()
                optimizer.zero_grad()
                steps += 1
        """,
    )
    code, _, err = run(capsys, "--strict", str(script))
    assert code == 1 and "stopped stepping" in err and "11 backward pass(es)" in err


@pytest.mark.parametrize("value", ["disabled", "none", "warning"])
def test_unknown_environment_mode_is_a_usage_error(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    value: str,
) -> None:
    monkeypatch.setenv("ZEROGRAD_GUARD", value)
    code, _, err = run(capsys, str(write_script(tmp_path, "train(2)\n")))
    assert code == 2 and "ZEROGRAD_GUARD" in err and value in err
