"""Project mode next to per-file mode, side by side, on real trees.

    python benchmarks/project_mode.py                 # lightning, accelerate, transformers
    python benchmarks/project_mode.py --jobs 2 --rounds 3 PATH...

For each tree: ``zerograd-lint --no-cache -j N`` with and without ``--no-project``,
and the per-file linter of ``--filed-at REV`` (default: the revision issue 14 was filed
against, whose per-file mode its "≤ 1.3 x today's per-file mode" target names; extracted
with ``git archive``), interleaved (per-file, project, per-file at REV, ...) so machine
drift hits all three; the median of the rounds and the ratios project / per-file and
project / per-file at REV, of wall time and of CPU time (user + system of the child
processes, which the shared machine's load disturbs less).
Then growth: one tree (``--growth``, default lightning) at a quarter, half and all of
its files (project mode), time per file at each size (linear growth keeps it flat).
Also a warm run (cache filled) over the cold one, in project mode. Findings of both
modes are printed as counts.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from lint_compare import extract

ROOT = Path(__file__).resolve().parent.parent
SITE = Path(next(p for p in sys.path if p.endswith("site-packages")))
TREES = ("lightning", "accelerate", "transformers")
# The last revision before issues 8-17: per-file mode only, no fast path, no index.
FILED_AT = "e38f82a"


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def lint(
    paths: list[str], jobs: int, *flags: str, package: Path = ROOT
) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds and number of findings of one linter run (of the
    ``zerograd_guard`` under ``package``)."""
    env = {**os.environ, "PYTHONPATH": str(package)}
    command = [sys.executable, "-m", "zerograd_guard.lint", "-j", str(jobs), "--exit-zero"]
    command += ["--format", "json", *flags]
    cpu = _children_cpu()
    started = time.perf_counter()
    done = subprocess.run(  # in the package's folder: ``-m`` puts the working folder first
        [*command, *paths], cwd=package, env=env, capture_output=True, text=True, check=True
    )
    wall = time.perf_counter() - started
    return wall, _children_cpu() - cpu, len(json.loads(done.stdout))


def _files(tree: Path) -> list[str]:
    return sorted(str(path) for path in tree.rglob("*.py"))


def compare(
    name: str, paths: list[str], jobs: int, rounds: int, filed: tuple[str, Path]
) -> dict[str, float]:
    revision, package = filed
    runs: dict[str, list[tuple[float, float, int]]] = {"per_file": [], "project": [], "filed": []}
    for _ in range(rounds):
        runs["per_file"].append(lint(paths, jobs, "--no-cache", "--no-project"))
        runs["project"].append(lint(paths, jobs, "--no-cache"))
        runs["filed"].append(lint(paths, jobs, "--no-cache", package=package))
    row = {"files": len(paths)}
    for mode, results in runs.items():
        row[f"{mode}_wall"] = statistics.median(r[0] for r in results)
        row[f"{mode}_cpu"] = statistics.median(r[1] for r in results)
        row[f"{mode}_findings"] = results[0][2]
    for baseline, key in (("per_file", ""), ("filed", "filed_")):
        row[f"{key}wall_ratio"] = row["project_wall"] / row[f"{baseline}_wall"]
        row[f"{key}cpu_ratio"] = row["project_cpu"] / row[f"{baseline}_cpu"]
    print(
        f"{name:<14} {row['files']:>6} files  per-file {row['per_file_wall']:6.2f}s "
        f"(cpu {row['per_file_cpu']:6.2f}s, {row['per_file_findings']} findings)  project "
        f"{row['project_wall']:6.2f}s (cpu {row['project_cpu']:6.2f}s, "
        f"{row['project_findings']} findings)  ratio wall {row['wall_ratio']:.2f} "
        f"cpu {row['cpu_ratio']:.2f}\n{'':<21}per-file at {revision} "
        f"{row['filed_wall']:6.2f}s (cpu {row['filed_cpu']:6.2f}s, {row['filed_findings']} "
        f"findings)  project / it: wall {row['filed_wall_ratio']:.2f} "
        f"cpu {row['filed_cpu_ratio']:.2f}",
        flush=True,
    )
    return row


def growth(paths: list[str], jobs: int) -> list[dict[str, float]]:
    rows = []
    for fraction in (0.25, 0.5, 1.0):
        subset = paths[: max(1, int(len(paths) * fraction))]
        wall, cpu, _ = lint(subset, jobs, "--no-cache")
        rows.append({"files": len(subset), "wall": wall, "cpu": cpu})
        print(
            f"  growth {len(subset):>6} files: {wall:6.2f}s wall, {cpu:6.2f}s cpu, "
            f"{1000 * cpu / len(subset):.2f} ms cpu/file",
            flush=True,
        )
    return rows


def warm(paths: list[str], jobs: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as cache:
        cold_wall, cold_cpu, _ = lint(paths, jobs, f"--cache-dir={cache}")
        warm_wall, warm_cpu, _ = lint(paths, jobs, f"--cache-dir={cache}")
    print(
        f"  warm/cold (project mode): wall {warm_wall / cold_wall:.2f}, "
        f"cpu {warm_cpu / cold_cpu:.2f}",
        flush=True,
    )
    return {"wall_ratio": warm_wall / cold_wall, "cpu_ratio": warm_cpu / cold_cpu}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", help=f"trees (default: installed {', '.join(TREES)})")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--growth", default="lightning", help="tree name for growth and warm")
    parser.add_argument("--filed-at", default=FILED_AT, help="revision of the third column")
    args = parser.parse_args()
    trees = [Path(p).resolve() for p in args.paths] or [SITE / name for name in TREES]
    results = {}
    with tempfile.TemporaryDirectory(prefix="zg-filed-") as scratch:
        extract(args.filed_at, Path(scratch), "zerograd_guard")
        filed = (args.filed_at, Path(scratch))
        for tree in trees:
            results[tree.name] = compare(tree.name, _files(tree), args.jobs, args.rounds, filed)
    largest = next((tree for tree in trees if tree.name == args.growth), trees[0])
    print(f"{largest.name}:")
    results["growth"] = growth(_files(largest), args.jobs)
    results["warm"] = warm(_files(largest), args.jobs)
    out = ROOT / "benchmarks" / "results" / "project_mode.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
