"""``zerograd-guard run`` under Ctrl-C: exit status 130, the report printed, no traceback,
and nothing of the guard left installed — wherever in the training loop it lands."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from torch.optim import optimizer as optim_module

from tests.hardening.runtime.helpers import monitor_is_idle
from zerograd_guard.__main__ import main

SCRIPT = """
import torch
from torch.optim.optimizer import register_optimizer_step_pre_hook

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Linear(8, 1))
x = torch.randn(8, 4)
optimizer = torch.optim.{optimizer}(model.parameters(), lr=0.01, **{options})
CLEAR = {clear}


def interrupt(*_args):
    raise KeyboardInterrupt


def loss():
    return model(x).pow(2).mean()


def closure():
    optimizer.zero_grad()
    value = loss()
    value.backward()
    return value


for step in range(1, 10):
    last = step == 4
    if "{optimizer}" == "LBFGS":  # the closure clears and runs the backward pass
        optimizer.step(interrupt if last else closure)
        continue
    if CLEAR:
        optimizer.zero_grad()
    output = loss()
    if last and "{where}" == "in-backward":
        output.register_hook(interrupt)
    output.backward()
    if last and "{where}" == "in-step":
        register_optimizer_step_pre_hook(interrupt)
    optimizer.step()
raise SystemExit("not interrupted")
"""

CASES = {
    # where the interrupt lands, optimizer, loop clears?, extra command-line arguments,
    # steps checked, violations reported
    "in-backward": ("in-backward", "SGD", True, [], 3, 0),
    # the guard's step hook judges step 4 before the script's own hook interrupts it
    "in-step-warn-buggy-loop": ("in-step", "Adam", False, ["--warn"], 4, 3),
    "in-lbfgs-closure-max-steps": ("in-closure", "LBFGS", True, ["--max-steps", "50"], 3, 0),
}


@pytest.mark.parametrize("case", list(CASES))
def test_interrupt_mid_training(case, tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    where, optimizer, clear, argv, checked, violations = CASES[case]
    script = tmp_path / "train.py"
    options = {"max_iter": 1} if optimizer == "LBFGS" else {}  # one closure call per step
    script.write_text(SCRIPT.format(where=where, optimizer=optimizer, clear=clear, options=options))
    hooks_before = dict(optim_module._global_optimizer_pre_hooks)
    try:
        status = main(["run", *argv, os.fspath(script)])
        # Only the hook the script registered itself may remain (in-step case).
        leftover = set(optim_module._global_optimizer_pre_hooks) - set(hooks_before)
        assert len(leftover) == (1 if where == "in-step" else 0)
    finally:
        optim_module._global_optimizer_pre_hooks.clear()
        optim_module._global_optimizer_pre_hooks.update(hooks_before)
    assert not optim_module._global_optimizer_post_hooks and monitor_is_idle()
    err = capsys.readouterr().err
    assert status == 130, err
    summary = err.splitlines()[0]
    assert summary.startswith(f"zerograd-guard: {checked} optimizer steps checked"), err
    assert summary.endswith("(interrupted)")
    assert "Traceback" not in err and "not interrupted" not in err
    assert f"{violations} violation" in summary
    assert ("ZG101" in err) == bool(violations)


LOOP_FOREVER = """
import faulthandler, signal
faulthandler.register(signal.SIGUSR1, all_threads=True)  # for the diagnosis below
import torch

model = torch.nn.Linear(4, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
x = torch.randn(8, 4)
step = 0
while True:
    optimizer.zero_grad()
    model(x).pow(2).mean().backward()
    optimizer.step()
    step += 1
    if step == 3:
        print("training", flush=True)
"""


def _ctrl_c_answered() -> None:
    """In the child before it runs: Ctrl-C at its default, as a terminal gives it. A
    process started while its parent ignores SIGINT and SIGQUIT (what C's ``system()``
    does to its caller while a command runs, and what a non-interactive shell does to
    ``cmd &``) inherits the ignore, and Python, like ``zerograd-guard run``, keeps it:
    in the full suite (-n 2) the child has been started that way (SigIgn 0x...006 in
    its /proc status), so no press reached it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGQUIT, signal.SIG_DFL)


def _diagnosis(process: subprocess.Popen[str]) -> str:
    """The stuck run's signal masks (from /proc) and its threads' stacks (faulthandler,
    registered by the script on SIGUSR1); the run is killed."""
    status = Path(f"/proc/{process.pid}/status")
    masks = (
        [line for line in status.read_text().splitlines() if line.startswith(("State", "Sig"))]
        if status.exists()
        else []
    )
    process.send_signal(signal.SIGUSR1)
    time.sleep(3)
    process.kill()
    _, err = process.communicate()
    return f"masks: {masks}\nstderr (last 6000 characters):\n{err[-6000:]}"


def test_real_ctrl_c_in_a_subprocess(tmp_path: Path):
    script = tmp_path / "forever.py"
    script.write_text(textwrap.dedent(LOOP_FOREVER))
    process = subprocess.Popen(
        [sys.executable, "-m", "zerograd_guard", "run", os.fspath(script)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_ctrl_c_answered,
    )
    try:
        assert process.stdout is not None
        assert process.stdout.readline() == "training\n"
        # Like a user, press Ctrl-C again if the first one was lost (once, under heavy
        # load, a single SIGINT went unanswered). Presses go on for two minutes, and a
        # run that ignores them all is reported with its signal masks and every
        # thread's stack (how the inherited ignore above was found).
        err = None
        for _ in range(12):
            process.send_signal(signal.SIGINT)
            try:
                _, err = process.communicate(timeout=10)
                break
            except subprocess.TimeoutExpired:
                continue
        if err is None:
            raise AssertionError(f"the run ignored twelve Ctrl-C presses\n{_diagnosis(process)}")
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 130, err
    lines = err.splitlines()
    assert len(lines) == 1, err  # the report's summary line, nothing else
    assert lines[0].startswith("zerograd-guard: ") and lines[0].endswith("(interrupted)")
    assert "0 violations" in lines[0]
