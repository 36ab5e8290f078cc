"""DDP and FSDP2 on gloo: 2 ranks spawned by the test; the ranks are guarded through propagation.

The training code (``loops/distributed_loop.py``) knows nothing about the guard:
the spawned ranks are guarded because the parent opened a propagation, exactly as
the pytest plugin and ``zerograd-guard run`` do.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest
import torch.multiprocessing as mp

from zerograd_guard.children import start_propagation

from .loops.distributed_loop import DistributedConfig, train_distributed

pytestmark = pytest.mark.slow

STEPS = DistributedConfig().optimizer_steps
DDP_CORRECT = (
    DistributedConfig(),
    DistributedConfig(accumulation_steps=2),
    DistributedConfig(accumulation_steps=2, no_sync=True),
    DistributedConfig(accumulation_steps=2, no_sync=True, gradient_as_bucket_view=True),
)
FSDP2_CORRECT = (
    DistributedConfig(wrapper="fsdp2"),
    DistributedConfig(wrapper="fsdp2", accumulation_steps=2),
    DistributedConfig(wrapper="fsdp2", accumulation_steps=2, no_sync=True),
)


def test_ranks_train_in_lockstep_unguarded(tmp_path: Path) -> None:
    configs = (DDP_CORRECT[0], DDP_CORRECT[2], DistributedConfig(broken=True))
    ranks = train_distributed(tmp_path, *configs)
    for rank in ranks:
        assert [result["steps"] for result in rank] == [STEPS] * len(configs)
    rank0, rank1 = ranks
    assert [r["weights"] for r in rank0] == [r["weights"] for r in rank1]
    assert rank0[-1]["weights"] != rank0[0]["weights"]  # the missing clear changes training
    assert rank0[-1]["uncleared"] == 4


@pytest.mark.parametrize(
    ("configs", "accumulate"),
    [(DDP_CORRECT, None), (DDP_CORRECT[1:], 2), (FSDP2_CORRECT, None)],
    ids=["ddp", "ddp-accumulate-2", "fsdp2"],
)
def test_correct_ranks_are_guarded_and_silent(
    runtime: ModuleType,
    tmp_path: Path,
    configs: tuple[DistributedConfig, ...],
    accumulate: int | None,
) -> None:
    with runtime.guard() as parent, start_propagation("error", accumulate) as propagation:
        train_distributed(tmp_path, *configs)
        records = propagation.records()
    assert parent.report.steps_checked == 0
    assert sorted(record.rank for record in records) == [0, 1]
    for record in records:
        assert (record.steps_checked, record.violations, record.warnings) == (
            STEPS * len(configs),
            [],
            [],
        )


@pytest.mark.parametrize("wrapper", ["ddp", "fsdp2"])
def test_ranks_skipping_zero_grad_fail_the_spawning_call(
    runtime: ModuleType, tmp_path: Path, wrapper: str
) -> None:
    with runtime.guard(), start_propagation("error") as propagation:
        with pytest.raises(mp.ProcessExitedException):
            train_distributed(tmp_path, DistributedConfig(wrapper=wrapper, broken=True))
        violations = propagation.collect()
    assert violations
    assert {violation.code for violation in violations} == {"ZG101"}
    assert {violation.rank for violation in violations} <= {0, 1}
    assert "0.weight" in violations[0].message
