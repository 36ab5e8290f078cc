"""Tiny models and data shared by the engine loops (CPU, deterministic, no downloads)."""

from __future__ import annotations

from dataclasses import dataclass, field

import torch
from torch import nn
from torch.optim.optimizer import register_optimizer_step_post_hook
from torch.utils.data import DataLoader, TensorDataset

FEATURES = 4


def tiny_mlp(seed: int = 0) -> nn.Module:
    """A 2-layer MLP (4 parameter tensors) with deterministic initial weights."""
    torch.manual_seed(seed)
    return nn.Sequential(nn.Linear(FEATURES, 8), nn.ReLU(), nn.Linear(8, 1))


def regression_data(batches: int, batch_size: int = 4, seed: int = 0) -> TensorDataset:
    """``batches * batch_size`` random regression samples."""
    generator = torch.Generator().manual_seed(seed)
    inputs = torch.randn(batches * batch_size, FEATURES, generator=generator)
    targets = inputs.sum(dim=1, keepdim=True)
    return TensorDataset(inputs, targets)


def regression_loader(batches: int, batch_size: int = 4) -> DataLoader:
    """A non-shuffled loader yielding exactly ``batches`` batches."""
    return DataLoader(regression_data(batches, batch_size), batch_size=batch_size)


def flat_parameters(model: nn.Module) -> torch.Tensor:
    """All parameters of ``model`` as one detached vector (to compare two runs)."""
    tensors = []
    for parameter in model.parameters():
        full = getattr(parameter, "full_tensor", None)  # FSDP2 DTensor shards
        tensors.append((full() if full is not None else parameter).detach().reshape(-1))
    return torch.cat(tensors)


@dataclass
class StepCounter:
    """Counts ``step()`` calls of torch optimizers through the global post hook.

    Used by the unguarded sanity runs to check how many times the real (inner)
    torch optimizer stepped, independently of the guard.
    """

    steps: int = 0
    per_optimizer: dict[str, int] = field(default_factory=dict)

    def __enter__(self) -> StepCounter:
        self._handle = register_optimizer_step_post_hook(self._count)
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._handle.remove()

    def _count(self, optimizer: torch.optim.Optimizer, args: object, kwargs: object) -> None:
        self.steps += 1
        name = type(optimizer).__name__
        self.per_optimizer[name] = self.per_optimizer.get(name, 0) + 1
