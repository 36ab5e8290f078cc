"""Runtime guard overhead for the combined runner, built on ``guard_overhead``'s models
and its interleaved guarded/unguarded measurement."""

from __future__ import annotations

import guard_overhead
import torch


def measure_guard(
    blocks: int, steps: int, devices: list[str] | None = None, threads: int = 1
) -> list[dict[str, object]]:
    """One result per (model, device): medians, ratio, hooks installed, memory delta."""
    torch.set_num_threads(threads)
    torch.manual_seed(0)
    names = devices or ["cpu", *(["cuda"] if torch.cuda.is_available() else [])]
    results = []
    for device_name in names:
        device = torch.device(device_name)
        for workload in guard_overhead.WORKLOADS:
            outcome = guard_overhead.measure(workload, device, blocks, steps)
            results.append(outcome.as_json())
    return results
