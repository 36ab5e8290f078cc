"""DDP and FSDP2 (``fully_shard``) on gloo: 2 CPU processes from ``torch.multiprocessing.spawn``.

The worker ends with ``destroy_process_group()`` and ``os._exit`` because gloo
workers can abort during interpreter shutdown ("terminate called without an
active exception"); an exception in training still ends the worker with exit
code 1 so that ``spawn`` raises in the parent.
"""

from __future__ import annotations

import contextlib
import json
import os
import traceback
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch.distributed.fsdp import fully_shard
from torch.nn.parallel import DistributedDataParallel

from .common import flat_parameters, regression_data, tiny_mlp

WORLD_SIZE = 2


@dataclass(frozen=True)
class DistributedConfig:
    """One training run inside each worker.

    ``wrapper`` is ``"ddp"`` (``DistributedDataParallel``) or ``"fsdp2"``
    (``fully_shard``); ``no_sync`` skips the gradient reduction on the
    micro-batches before the last of each window (``no_sync()`` for DDP,
    ``set_requires_gradient_sync(False)`` for FSDP2).
    """

    wrapper: str = "ddp"
    accumulation_steps: int = 1
    no_sync: bool = False
    gradient_as_bucket_view: bool = False
    broken: bool = False
    optimizer_steps: int = 3


def _wrap(config: DistributedConfig) -> torch.nn.Module:
    if config.wrapper == "ddp":
        return DistributedDataParallel(
            tiny_mlp(), gradient_as_bucket_view=config.gradient_as_bucket_view
        )
    model = tiny_mlp()
    for layer in model:
        if isinstance(layer, torch.nn.Linear):
            fully_shard(layer)
    return fully_shard(model)


@contextlib.contextmanager
def _without_sync(model: torch.nn.Module) -> Iterator[None]:
    if isinstance(model, DistributedDataParallel):
        with model.no_sync():
            yield
        return
    model.set_requires_gradient_sync(False)
    try:
        yield
    finally:
        model.set_requires_gradient_sync(True)


def _train(rank: int, config: DistributedConfig) -> dict[str, object]:
    model = _wrap(config)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    data = regression_data(config.optimizer_steps * config.accumulation_steps, seed=rank)
    micro_batches = zip(data.tensors[0].split(4), data.tensors[1].split(4), strict=True)
    steps = 0
    for index, (inputs, targets) in enumerate(micro_batches):
        last_of_window = (index + 1) % config.accumulation_steps == 0
        skip_sync = config.no_sync and not last_of_window
        with _without_sync(model) if skip_sync else contextlib.nullcontext():
            loss = torch.nn.functional.mse_loss(model(inputs), targets)
            loss.backward()
        if last_of_window:
            optimizer.step()
            steps += 1
            if not config.broken:
                optimizer.zero_grad()
    uncleared = sum(p.grad is not None for p in model.parameters())
    weights = flat_parameters(model).tolist()
    return {"rank": rank, "steps": steps, "uncleared": uncleared, "weights": weights}


def _worker(rank: int, init_file: str, result_dir: str, configs: list[DistributedConfig]) -> None:
    exit_code = 0
    try:
        dist.init_process_group(
            "gloo", init_method=f"file://{init_file}", rank=rank, world_size=WORLD_SIZE
        )
        results = [_train(rank, config) for config in configs]
        Path(result_dir, f"rank{rank}.json").write_text(json.dumps(results))
    except BaseException:
        traceback.print_exc()
        exit_code = 1
    finally:
        if dist.is_initialized():
            dist.destroy_process_group()
        os._exit(exit_code)


def train_distributed(work_dir: Path, *configs: DistributedConfig) -> list[list[dict[str, object]]]:
    """Run every config in turn on 2 ranks; returns each rank's per-config results."""
    result_dir = work_dir / "results"
    result_dir.mkdir()
    mp.spawn(
        _worker,
        args=(os.fspath(work_dir / "init"), os.fspath(result_dir), list(configs)),
        nprocs=WORLD_SIZE,
        join=True,
    )
    return [json.loads((result_dir / f"rank{rank}.json").read_text()) for rank in range(WORLD_SIZE)]


def describe(config: DistributedConfig) -> str:
    return ",".join(f"{key}={value}" for key, value in asdict(config).items())
