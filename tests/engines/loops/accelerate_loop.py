"""accelerate: ``Accelerator(gradient_accumulation_steps=k)`` with ``accelerator.accumulate``."""

from __future__ import annotations

import torch
from accelerate import Accelerator
from accelerate.state import AcceleratorState, GradientState

from .common import flat_parameters, regression_loader, tiny_mlp


def _fresh_accelerator(accumulation_steps: int, mixed_precision: str) -> Accelerator:
    # accelerate keeps process-wide singleton state; each run starts from scratch so
    # runs with different accumulation settings in one process do not leak into each other.
    AcceleratorState._reset_state(reset_partial_state=True)
    GradientState._reset_state()
    return Accelerator(
        gradient_accumulation_steps=accumulation_steps, cpu=True, mixed_precision=mixed_precision
    )


def train_accelerate(
    accumulation_steps: int,
    micro_batches: int = 8,
    broken: bool = False,
    clear_first: bool = False,
    bf16_clipped: bool = False,
) -> torch.Tensor:
    """The documented accumulation loop: step and ``zero_grad`` on every micro-batch.

    The prepared optimizer only reaches the torch optimizer on sync micro-batches.
    ``clear_first`` calls ``zero_grad`` before the backward pass instead of after the
    step (also correct: it is skipped on non-sync micro-batches). ``bf16_clipped`` adds
    bf16 autocast and ``accelerator.clip_grad_norm_`` on sync micro-batches. ``broken``
    drops ``zero_grad``. Returns the trained weights.
    """
    accelerator = _fresh_accelerator(accumulation_steps, "bf16" if bf16_clipped else "no")
    model = tiny_mlp()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    model, optimizer, loader = accelerator.prepare(
        model, optimizer, regression_loader(micro_batches)
    )
    for inputs, targets in loader:
        with accelerator.accumulate(model):
            if clear_first and not broken:
                optimizer.zero_grad()
            loss = torch.nn.functional.mse_loss(model(inputs), targets)
            accelerator.backward(loss)
            if bf16_clipped and accelerator.sync_gradients:
                accelerator.clip_grad_norm_(model.parameters(), 0.5)
            optimizer.step()
            if not clear_first and not broken:
                optimizer.zero_grad()
    return flat_parameters(accelerator.unwrap_model(model))
