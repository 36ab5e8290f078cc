"""The guard's Python work per optimizer step, counted in bytecodes: deterministic.

``guard_overhead.py`` times the guard, and on a shared machine its tiny-MLP row moves
by more than the guard's whole cost between runs. This counts instead what the guard
executes: the bytecodes run inside ``zerograd_guard`` per training iteration (clear,
forward, backward, step), per function, next to the bytecodes of the unguarded
iteration (torch's own Python: the optimizer's step, ``Module.__call__``, autograd's
entry). The same code gives the same count on any machine, so a change to the guard's
hot path can be judged before it is timed.

    python benchmarks/guard_bytecodes.py [--steps 10] [--top 12]

Counting runs under ``sys.settrace`` with opcode events (slow, and it changes no count).
"""

from __future__ import annotations

import argparse
import collections
import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))

from guard_overhead import WORKLOADS, make_iteration

from zerograd_guard.runtime import guard

GUARD_DIR = str(Path(__import__("zerograd_guard").__file__).resolve().parent)


def count_bytecodes(
    iteration: Callable[[], None], steps: int
) -> tuple[collections.Counter[str], int]:
    """Bytecodes per function of the guard (summed over ``steps``), and all bytecodes."""
    in_guard: collections.Counter[str] = collections.Counter()
    total = 0

    def tracer(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal total
        frame.f_trace_opcodes = True
        if event == "opcode":
            total += 1
            code = frame.f_code
            if code.co_filename.startswith(GUARD_DIR):
                in_guard[f"{Path(code.co_filename).name}:{code.co_name}"] += 1
        return tracer

    sys.settrace(tracer)
    try:
        for _ in range(steps):
            iteration()
    finally:
        sys.settrace(None)
    return in_guard, total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--top", type=int, default=12, help="functions listed per workload")
    args = parser.parse_args(argv)
    torch.manual_seed(0)
    device = torch.device("cpu")
    for workload in WORKLOADS:
        iteration = make_iteration(
            workload.build(), workload.input_shape, device, workload.optimizer
        )
        for _ in range(3):
            iteration()
        _, plain = count_bytecodes(iteration, args.steps)
        with guard():
            iteration()  # first sight of the optimizer: hooks installed outside the count
            per_function, guarded = count_bytecodes(iteration, args.steps)
        own = sum(per_function.values())
        print(
            f"{workload.name:<18} unguarded {plain / args.steps:8.0f} bytecodes/step   "
            f"guarded {guarded / args.steps:8.0f}   the guard's own {own / args.steps:6.0f}"
        )
        for name, count in per_function.most_common(args.top):
            print(f"    {count / args.steps:7.1f}  {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
