"""``zerograd-guard run`` when the script ends abruptly (``os._exit``) or trains in a thread."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.run.test_run_command import run, write_script

BUGGY_THEN_EXIT = """
from zerograd_guard.runtime import GradientGuardError
try:
    train(3, clear=False)
except GradientGuardError:
    pass  # the script swallows the guard's error itself
import os
os._exit({code})
"""


def run_subprocess(script: Path, *options: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PYTHONPATH": os.getcwd()}
    return subprocess.run(
        [sys.executable, "-m", "zerograd_guard", "run", *options, str(script)],
        capture_output=True,
        text=True,
        env=environment,
        timeout=120,
        check=False,
    )


@pytest.mark.slow
def test_violation_is_reported_before_os_exit_and_fails_the_run(tmp_path: Path) -> None:
    script = write_script(tmp_path, BUGGY_THEN_EXIT.format(code=0))
    result = run_subprocess(script)
    assert "ZG101" in result.stderr
    assert "1 violation" in result.stderr
    assert result.returncode == 1


@pytest.mark.slow
def test_os_exit_in_warn_mode_keeps_the_scripts_status_and_still_reports(
    tmp_path: Path,
) -> None:
    script = write_script(tmp_path, BUGGY_THEN_EXIT.format(code=3))
    result = run_subprocess(script, "--warn")
    assert "ZG101" in result.stderr
    assert result.returncode == 3


@pytest.mark.slow
def test_os_exit_of_a_forked_child_does_not_print_the_parents_report(tmp_path: Path) -> None:
    if not hasattr(os, "fork"):
        pytest.skip("needs fork")
    script = write_script(
        tmp_path,
        """
        import os
        train(2)
        pid = os.fork()
        if pid == 0:
            os._exit(0)
        os.waitpid(pid, 0)
        """,
    )
    result = run_subprocess(script)
    assert result.stderr.count("optimizer steps checked") == 1, result.stderr
    assert result.returncode == 0


def test_max_steps_stops_training_in_a_thread_with_the_guards_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = write_script(
        tmp_path,
        """
        import threading
        def endless():
            while True:
                train(1)
        worker = threading.Thread(target=endless)
        worker.start()
        worker.join()
        print("joined")
        """,
    )
    status, out, err = run(capsys, "--max-steps", "4", str(script))
    assert "stopped after 4 steps: --max-steps" in err
    assert "Traceback" not in err
    assert "_StepLimitReached" not in err
    assert "joined" not in out  # the script stopped: the line after join() never ran
    assert status == 0


def test_hand_written_accumulation_is_no_false_alarm(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = write_script(
        tmp_path,
        textwrap.dedent(
            """
            for _ in range(3):
                optimizer.zero_grad()
                g = [torch.ones_like(p) for p in model.parameters()]
                for p, extra in zip(model.parameters(), g):
                    p.grad = extra.clone()
                for p, extra in zip(model.parameters(), g):
                    p.grad.add_(extra)
                optimizer.step()
            for _ in range(3):
                for p in model.parameters():
                    p.grad = p.grad + torch.ones_like(p)
                optimizer.step()
            """
        ),
    )
    status, _, err = run(capsys, str(script))
    assert "ZG10" not in err, err
    assert status == 0


def test_summary_starts_on_a_fresh_line_after_a_progress_bar(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = write_script(
        tmp_path,
        """
        train(2)
        sys.stderr.write("\\repoch 1: 100%")
        """,
    )
    status, _, err = run(capsys, str(script))
    assert "100%\nzerograd-guard: 2 optimizer steps checked" in err
    assert status == 0


def test_summary_adds_no_blank_line_after_a_finished_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = write_script(tmp_path, 'train(2)\nsys.stderr.write("epoch 1: 100%\\n")\n')
    _, _, err = run(capsys, str(script))
    assert "100%\nzerograd-guard: 2 optimizer steps checked" in err


def test_summary_adds_no_blank_line_after_text_that_is_not_a_bar(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Only a ``\\r`` since the last newline is a bar's open line; a prompt-like
    ``end=""`` or a bar already ended with a newline is not."""
    script = write_script(
        tmp_path,
        'train(2)\nsys.stderr.write("\\repoch 1: 100%\\n")\n'
        'print("done", end="", file=sys.stderr)\n',
    )
    _, _, err = run(capsys, str(script))
    assert "donezerograd-guard: 2 optimizer steps checked" in err, err


IN_HOUSE_TRAINER = """
def fit(model, optimizer, x, steps):
    for _ in range(steps):
        model(x).sum().backward()
        optimizer.step()
"""


def test_listed_library_modules_are_skipped_by_sites(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    package = tmp_path / "inhouse_trainer"
    package.mkdir()
    (package / "__init__.py").write_text(IN_HOUSE_TRAINER)
    script = write_script(
        tmp_path,
        "import inhouse_trainer\ninhouse_trainer.fit(model, optimizer, torch.ones(2, 3), 3)\n",
    )
    _, _, plain = run(capsys, str(script))
    assert "__init__.py:5" in plain  # the trainer's own optimizer.step() line
    status, _, listed = run(capsys, "--library", "inhouse_trainer", str(script))
    assert status == 1
    assert "train.py:" in listed and "inhouse_trainer.fit(model" in listed
    assert "__init__.py" not in listed
    assert os.environ.get("ZEROGRAD_GUARD_LIBRARY") is None


def test_an_unknown_library_module_is_a_one_line_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = write_script(tmp_path, "train(1)\n")
    status, _, err = run(capsys, "--library", "no_such_trainer_module", str(script))
    assert status == 2
    assert err.strip().splitlines() == [
        "zerograd-guard: error: --library no_such_trainer_module: no such module "
        "(is it importable here?)"
    ]
