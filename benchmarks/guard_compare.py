"""The guard at a git revision against the working tree's, side by side in one process.

    python benchmarks/guard_compare.py [--baseline REV] [--blocks 30] [--steps 20] [--only NAME]

The baseline's ``zerograd_guard`` is extracted with ``git archive`` into a temporary
folder under another package name; plain, baseline-guarded and current-guarded blocks
then alternate (thread CPU time, one intra-op thread), so machine drift hits all three
alike. Only one guard is active at a time (each removes its hooks on exit). Prints,
per ``guard_overhead`` workload, both ratios over plain and the difference per step.
"""

from __future__ import annotations

import argparse
import importlib
import io
import itertools
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

import guard_overhead
import torch

ROOT = Path(__file__).resolve().parent.parent
BASELINE_PACKAGE = "zerograd_guard_baseline"
ORDERS = list(itertools.permutations(("plain", "baseline", "current")))


def extract_baseline(revision: str, into: Path) -> None:
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", revision, "zerograd_guard"],
        check=True,
        capture_output=True,
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    (into / "zerograd_guard").rename(into / BASELINE_PACKAGE)
    pattern = re.compile(r"\bzerograd_guard\b")
    for path in (into / BASELINE_PACKAGE).rglob("*.py"):
        path.write_text(pattern.sub(BASELINE_PACKAGE, path.read_text()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default="HEAD~1")
    parser.add_argument("--blocks", type=int, default=30)
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--only", help="run only the workloads whose name contains this")
    args = parser.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(0)
    cpu = torch.device("cpu")
    with tempfile.TemporaryDirectory(prefix="zg-baseline-") as scratch:
        extract_baseline(args.baseline, Path(scratch))
        sys.path.insert(0, scratch)
        baseline = importlib.import_module(f"{BASELINE_PACKAGE}.runtime").guard
        current = importlib.import_module("zerograd_guard.runtime").guard
        for workload in guard_overhead.WORKLOADS:
            if args.only and args.only not in workload.name:
                continue
            iteration = guard_overhead.make_iteration(
                workload.build(), workload.input_shape, cpu, workload.optimizer
            )
            steps = max(2, args.steps // workload.steps_divisor)
            for _ in range(5):
                iteration()
            times: dict[str, list[float]] = {"plain": [], "baseline": [], "current": []}
            for block in range(args.blocks):
                # The order rotates: a fixed order measured a few us/step between two
                # copies of the same code (the block after plain ran faster).
                for name in ORDERS[block % len(ORDERS)]:
                    guard = {"baseline": baseline, "current": current}.get(name)
                    if guard is None:
                        times[name].append(guard_overhead.timed_block(iteration, steps, cpu))
                        continue
                    with guard():
                        iteration()
                        times[name].append(guard_overhead.timed_block(iteration, steps, cpu))
            plain, old, new = (statistics.median(times[k]) for k in times)
            print(
                f"{workload.name:<18} plain {plain * 1e3:8.3f} ms  {args.baseline} "
                f"x{old / plain:.3f}  current x{new / plain:.3f}  "
                f"current - baseline {(new - old) * 1e6:+8.1f} us/step",
                flush=True,
            )


if __name__ == "__main__":
    main()
