"""Runtime guard overhead: median optimizer-step time guarded vs unguarded.

Guarded and unguarded blocks alternate in one process, so drift (thermal, other
load) hits both equally; the median of adjacent-pair ratios is printed too. Each
block runs ``--steps`` full iterations (zero_grad, forward, backward, step); the
reported figure is the median over blocks of the per-iteration time.
Targets: <= 1.10x on the tiny MLP, <= 1.02x on the ~10M-parameter MLP (the small
CNN has no target: it shows a convolutional model's per-step cost).

    python benchmarks/guard_overhead.py [--blocks 30] [--steps 20] [--device cpu] [--threads 1]

``--threads`` (default 1) pins torch's intra-op threads: on a shared machine,
multi-threaded kernels make the unguarded baseline itself jitter by more than the
guard costs. ``benchmarks/run.py`` imports ``WORKLOADS`` and ``measure`` from here.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass

import torch

from zerograd_guard.runtime import guard
from zerograd_guard.runtime.monitor import MONITOR


def tiny_mlp() -> torch.nn.Module:
    return torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.ReLU(), torch.nn.Linear(64, 1))


def ten_million_mlp() -> torch.nn.Module:
    layers: list[torch.nn.Module] = []
    for _ in range(8):
        layers += [torch.nn.Linear(1120, 1120), torch.nn.ReLU()]
    return torch.nn.Sequential(*layers[:-1])


def small_cnn() -> torch.nn.Module:
    """Two conv layers and a linear head on 32x32 RGB input (about 10k parameters)."""
    return torch.nn.Sequential(
        torch.nn.Conv2d(3, 16, 3, padding=1),
        torch.nn.ReLU(),
        torch.nn.MaxPool2d(2),
        torch.nn.Conv2d(16, 32, 3, padding=1),
        torch.nn.ReLU(),
        torch.nn.AdaptiveAvgPool2d(4),
        torch.nn.Flatten(),
        torch.nn.Linear(32 * 4 * 4, 10),
    )


def many_small_tensors() -> torch.nn.Module:
    """200 ``Linear(8, 8)`` (400 parameter tensors): the guard's per-tensor cost dominates."""
    return torch.nn.Sequential(*(torch.nn.Linear(8, 8) for _ in range(200)))


@dataclass(frozen=True)
class Workload:
    name: str
    build: Callable[[], torch.nn.Module]
    input_shape: tuple[int, ...]
    steps_divisor: int  # fewer iterations per block for the slow models
    optimizer: Callable[..., torch.optim.Optimizer] = torch.optim.Adam


WORKLOADS = (
    Workload("tiny 2-layer MLP", tiny_mlp, (32, 32), 1),
    Workload("10M-param MLP", ten_million_mlp, (32, 1120), 10),
    Workload("small CNN", small_cnn, (32, 3, 32, 32), 4),
    Workload("200x Linear(8,8)", many_small_tensors, (4, 8), 4, torch.optim.SGD),
)


@dataclass(frozen=True)
class Overhead:
    """One workload on one device; times are seconds per iteration."""

    model: str
    device: str
    params: int
    tensors: int
    unguarded_s: float
    guarded_s: float
    paired_ratio: float
    hooks: int
    memory_delta: str

    @property
    def ratio(self) -> float:
        return self.guarded_s / self.unguarded_s

    def as_json(self) -> dict[str, object]:
        return {
            "model": self.model,
            "device": self.device,
            "params": self.params,
            "tensors": self.tensors,
            "unguarded_ms": self.unguarded_s * 1e3,
            "guarded_ms": self.guarded_s * 1e3,
            "ratio": self.ratio,
            "paired_ratio": self.paired_ratio,
            "hooks": self.hooks,
            "memory_delta": self.memory_delta,
        }

    def line(self) -> str:
        return (
            f"{self.model:<18} {self.device:<5} params={self.params:>10,} "
            f"tensors={self.tensors:>3}  unguarded={self.unguarded_s * 1e3:8.3f} ms  "
            f"guarded={self.guarded_s * 1e3:8.3f} ms  ratio={self.ratio:6.3f}x  "
            f"(median of paired block ratios {self.paired_ratio:6.3f}x)  "
            f"hooks={self.hooks}  memory delta={self.memory_delta}"
        )


def make_iteration(
    model: torch.nn.Module,
    input_shape: tuple[int, ...],
    device: torch.device,
    optimizer: Callable[..., torch.optim.Optimizer] = torch.optim.Adam,
) -> Callable[[], None]:
    model.to(device)
    opt = optimizer(model.parameters(), lr=1e-3)
    x = torch.randn(*input_shape, device=device)

    def iteration() -> None:
        opt.zero_grad()
        model(x).square().mean().backward()
        opt.step()

    return iteration


def timed_block(iteration: Callable[[], None], steps: int, device: torch.device) -> float:
    """Seconds per iteration. On CPU, this thread's CPU time: other processes on a shared
    machine then cannot inflate one block (with ``--threads 1`` all work is on this thread).
    """
    on_cuda = device.type == "cuda"
    clock = time.perf_counter if on_cuda or torch.get_num_threads() > 1 else time.thread_time
    if on_cuda:
        torch.cuda.synchronize()
    start = clock()
    for _ in range(steps):
        iteration()
    if on_cuda:
        torch.cuda.synchronize()
    return (clock() - start) / steps


def measure(workload: Workload, device: torch.device, blocks: int, steps: int) -> Overhead:
    model = workload.build()
    iteration = make_iteration(model, workload.input_shape, device, workload.optimizer)
    steps = max(2, steps // workload.steps_divisor)
    for _ in range(5):
        iteration()
    plain: list[float] = []
    guarded: list[float] = []
    for _ in range(blocks):
        plain.append(timed_block(iteration, steps, device))
        with guard():
            iteration()  # first sight of the optimizer: hooks installed outside the timing
            guarded.append(timed_block(iteration, steps, device))
    return Overhead(
        model=workload.name,
        device=device.type,
        params=sum(p.numel() for p in model.parameters()),
        tensors=len(list(model.parameters())),
        unguarded_s=statistics.median(plain),
        guarded_s=statistics.median(guarded),
        paired_ratio=statistics.median(g / p for g, p in zip(guarded, plain, strict=True)),
        hooks=_hooks_installed(iteration, model),
        memory_delta=_memory_delta(iteration, device),
    )


def _hooks_installed(iteration: Callable[[], None], model: torch.nn.Module) -> int:
    with guard():
        iteration()
        per_param = sum(
            len(p._backward_hooks or {}) + len(p._post_accumulate_grad_hooks or {})
            for p in model.parameters()
        )
        return per_param + 2 * MONITOR.active  # + the two global step hooks


def _memory_delta(iteration: Callable[[], None], device: torch.device) -> str:
    gc.collect()
    if device.type == "cuda":
        torch.cuda.synchronize()
        torch.cuda.reset_peak_memory_stats()
        iteration()
        plain_peak = torch.cuda.max_memory_allocated()
        torch.cuda.reset_peak_memory_stats()
        with guard():
            iteration()
            iteration()
        return f"{(torch.cuda.max_memory_allocated() - plain_peak) / 2**20:+.2f} MiB (CUDA peak)"
    tracemalloc.start()
    with guard():
        for _ in range(3):
            iteration()
        python_bytes = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return f"{python_bytes / 1024:.1f} KiB Python-side (tensors are not copied)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--blocks", type=int, default=60)
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--device", action="append", default=None)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--only", help="run only the workloads whose name contains this")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    devices = args.device or ["cpu", *(["cuda"] if torch.cuda.is_available() else [])]
    torch.manual_seed(0)
    for device_name in devices:
        for workload in WORKLOADS:
            if args.only and args.only not in workload.name:
                continue
            print(measure(workload, torch.device(device_name), args.blocks, args.steps).line())


if __name__ == "__main__":
    main()
