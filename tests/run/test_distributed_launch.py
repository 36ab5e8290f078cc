"""Guarding a ``torchrun`` job: ``torchrun --nproc-per-node 2 -m zerograd_guard run train.py``
(docs/runtime.md). Two CPU processes on gloo: a correct DDP loop exits 0, a loop that
never clears exits non-zero with the guard's message from a rank."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
distributed = pytest.importorskip("torch.distributed")

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not (distributed.is_available() and distributed.is_gloo_available()),
        reason="torch.distributed with gloo is not available",
    ),
]

DDP_TRAIN = """
import sys

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel

dist.init_process_group("gloo")
torch.manual_seed(0)
model = DistributedDataParallel(torch.nn.Linear(3, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for _ in range(3):
    if sys.argv[1] == "correct":
        optimizer.zero_grad()
    model(torch.randn(2, 3)).sum().backward()
    optimizer.step()
dist.destroy_process_group()
"""


def torchrun(script: Path, variant: str) -> subprocess.CompletedProcess[str]:
    root = Path(__file__).resolve().parents[2]
    environment = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")])),
        "OMP_NUM_THREADS": "1",
    }
    command = [
        sys.executable,
        "-m",
        "torch.distributed.run",  # the module behind the torchrun command
        "--standalone",
        "--nproc-per-node",
        "2",
        "-m",
        "zerograd_guard",
        "run",
        str(script),
        variant,
    ]
    return subprocess.run(
        command, capture_output=True, text=True, env=environment, cwd=script.parent, timeout=120
    )


@pytest.fixture(scope="module")
def script(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("ddp") / "train.py"
    path.write_text(textwrap.dedent(DDP_TRAIN))
    return path


def test_correct_ddp_job_under_torchrun_exits_0(script):
    result = torchrun(script, "correct")
    assert result.returncode == 0, result.stderr[-3000:]
    # Each rank ran under the guard and checked its steps.
    assert result.stderr.count("zerograd-guard: 3 optimizer steps checked, 0 violations") == 2


def test_buggy_ddp_job_under_torchrun_fails_with_the_guard_message(script):
    result = torchrun(script, "buggy")
    assert result.returncode != 0
    assert "ZG101" in result.stderr and "optimizer.step()" in result.stderr
    assert "1 violation" in result.stderr
