"""``torch.compile``d model (CPU inductor backend) trained with gradient accumulation."""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass

import torch
import torch._dynamo

from .common import flat_parameters, regression_data, tiny_mlp


def cpu_backend() -> str:
    """``inductor`` (C++ kernels) where a C++ compiler exists, else ``aot_eager``.

    Both trace forward and backward into graphs (dynamo + AOTAutograd); inductor
    additionally needs a compiler that a bare CI image may lack.
    """
    compiler = os.environ.get("CXX") or shutil.which("g++") or shutil.which("clang++")
    return "inductor" if compiler else "aot_eager"


@dataclass(frozen=True)
class CompiledRun:
    """What a compiled run observed: graph breaks, compiled graphs, trained weights."""

    graph_breaks: int
    unique_graphs: int
    weights: torch.Tensor


def train_compiled(
    accumulation_steps: int = 2, optimizer_steps: int = 3, broken: bool = False
) -> CompiledRun:
    """Compiled forward+backward, eager ``step``; ``broken`` drops ``zero_grad``."""
    torch._dynamo.reset()
    torch._dynamo.utils.counters.clear()
    model = tiny_mlp()
    compiled = torch.compile(model, backend=cpu_backend())
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    data = regression_data(optimizer_steps * accumulation_steps)
    micro_batches = zip(data.tensors[0].split(4), data.tensors[1].split(4), strict=True)
    for index, (inputs, targets) in enumerate(micro_batches):
        loss = torch.nn.functional.mse_loss(compiled(inputs), targets) / accumulation_steps
        loss.backward()
        if (index + 1) % accumulation_steps == 0:
            optimizer.step()
            if not broken:
                optimizer.zero_grad()
    counters = torch._dynamo.utils.counters
    return CompiledRun(
        graph_breaks=sum(counters["graph_break"].values()),
        unique_graphs=counters["stats"]["unique_graphs"],
        weights=flat_parameters(model),
    )
