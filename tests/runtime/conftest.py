"""Tiny models and loop helpers for the runtime guard tests."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")


def make_model(seed: int = 0) -> torch.nn.Sequential:
    torch.manual_seed(seed)
    return torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 1))


def batch(seed: int = 1) -> torch.Tensor:
    generator = torch.Generator().manual_seed(seed)
    return torch.randn(16, 4, generator=generator)


def loss_of(model: torch.nn.Module, x: torch.Tensor) -> torch.Tensor:
    return model(x).pow(2).mean()


@pytest.fixture
def model() -> torch.nn.Sequential:
    return make_model()


@pytest.fixture
def x() -> torch.Tensor:
    return batch()
