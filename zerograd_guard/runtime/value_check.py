"""The one place the guard reads gradient values: a batched read of queued device flags.

Reached only when cheap evidence is already suspicious (a backward pass landed on the
very gradient the previous step applied, or a step repeats with untouched gradients),
to tell a real missing clear from an invisible ``p.grad.data.zero_()``. One host read
per device per judged step.
"""

from __future__ import annotations

import torch


def resolve_flags(flags: list[torch.Tensor | None]) -> list[bool]:
    """Read 0-dim boolean device flags; a missing flag reads False (never a false alarm)."""
    by_device: dict[torch.device, list[int]] = {}
    for index, flag in enumerate(flags):
        if flag is not None:
            by_device.setdefault(flag.device, []).append(index)
    values = [False] * len(flags)
    for indices in by_device.values():
        read = torch.stack([flags[index] for index in indices]).tolist()
        for index, value in zip(indices, read, strict=True):
            values[index] = bool(value)
    return values
