"""The linter at a git revision against the working tree's, side by side in one run.

    python benchmarks/lint_compare.py [--baseline REV] [--reps 5] [--dense-files 300]
                                      [--jobs N] [--folder PATH]

The baseline's tree (``zerograd_guard`` and ``benchmarks``) is extracted with
``git archive`` into a temporary folder. One dense set is generated (from the working
tree's seeds, or from ``--seeds-from REV``'s) and both versions measure it; every
repetition runs, for each version in turn (which goes first alternates):

* the paired in-process measurement of ``benchmarks/run.py`` (``libcst.parse_module``
  and the analysis of the same file back to back), in a fresh child process that
  imports that version's package and that version's own ``lint_bench._analyse_one``
  (so each is measured doing what its own benchmark calls a cold run's work);
* ``zerograd-lint`` cold and warm at ``-j 1`` and ``-j N`` on the same folder.

Prints medians, the per-version ratios (analysis / parse paired, warm / cold) and
what the load average was. ``--folder`` lints that folder instead of the dense set for
the command rows (the in-process rows always use the dense set).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

import corpus
from timing import run_child

ROOT = Path(__file__).resolve().parent.parent

# One paired repetition (after an untimed one) in a fresh process of one version:
# [parse CPU s, analysis CPU s].
_PAIRED_CHILD = """
import json, sys
from pathlib import Path
tree, folder = sys.argv[1], Path(sys.argv[2])
sys.path[:0] = [tree, tree + "/benchmarks"]
import lint_bench
from timing import Measurement
texts = [p.read_bytes().decode("utf-8", "replace") for p in sorted(folder.rglob("*.py"))]
for text in texts[:3]:
    lint_bench._analyse_one(text)
    lint_bench._parse_one(text)
parse, analysis = Measurement("parse"), Measurement("analysis")
step = lint_bench._paired(parse, analysis, texts)
step()  # first calls, caches and allocator warm-up, as in run.py's long-lived process
step()
print(json.dumps([parse.runs[-1], analysis.runs[-1]]))
"""


def extract(revision: str, into: Path, *paths: str) -> None:
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", revision, *paths],
        check=True,
        capture_output=True,
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")


def _lint(tree: Path, jobs: int, cache: Path, folder: Path) -> list[str]:
    """The command linting ``folder`` with ``tree``'s package; run it from a folder that
    holds no ``zerograd_guard`` (``python -m`` puts its working directory before
    ``PYTHONPATH``)."""
    return [
        "env",
        f"PYTHONPATH={tree}",
        sys.executable,
        "-m",
        "zerograd_guard.lint",
        "--exit-zero",
        "--cache-dir",
        str(cache),
        "-j",
        str(jobs),
        str(folder),
    ]


def _paired(tree: Path, folder: Path) -> tuple[float, float]:
    done = subprocess.run(
        [sys.executable, "-c", _PAIRED_CHILD, str(tree), str(folder)],
        check=True,
        capture_output=True,
        text=True,
    )
    parse, analysis = json.loads(done.stdout.splitlines()[-1])
    return parse, analysis


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default="HEAD~1")
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--dense-files", type=int, default=300)
    parser.add_argument("--jobs", type=int, default=len(os.sched_getaffinity(0)))
    parser.add_argument("--folder", type=Path, help="lint this folder in the command rows")
    parser.add_argument("--skip-paired", action="store_true")
    parser.add_argument("--seeds-from", metavar="REV", help="dense set from REV's seed files")
    args = parser.parse_args()
    print(f"load average at the start: {os.getloadavg()}", flush=True)
    with tempfile.TemporaryDirectory(prefix="zg-compare-") as scratch_name:
        scratch = Path(scratch_name)
        extract(args.baseline, scratch / "baseline", "zerograd_guard", "benchmarks")
        if args.seeds_from:  # the dense set as that revision's benchmark generated it
            extract(args.seeds_from, scratch / "seeds", *corpus.DENSE_SOURCES)
            corpus.ROOT = scratch / "seeds"
        trees = {args.baseline: scratch / "baseline", "current": ROOT}
        dense = corpus.build_dense(scratch / "dense", args.dense_files).folder
        folder = args.folder or dense
        rows: dict[tuple[str, str], list[float]] = {}
        ratios: dict[tuple[str, str], list[float]] = {}
        for name, tree in trees.items():  # fill each version's warm cache
            subprocess.run(
                _lint(tree, 1, scratch / f"warm-{name}", folder),
                check=True,
                capture_output=True,
                cwd=scratch,  # not a checkout: ``python -m`` imports from its cwd first
            )
        for repetition in range(args.reps):
            order = list(trees.items())
            if repetition % 2:
                order.reverse()
            for name, tree in order:
                if not args.skip_paired:
                    parse, analysis = _paired(tree, dense)
                    rows.setdefault((name, "paired libcst parse (CPU s)"), []).append(parse)
                    rows.setdefault((name, "paired analysis (CPU s)"), []).append(analysis)
                    ratios.setdefault((name, "analysis / parse, paired"), []).append(
                        analysis / parse
                    )
                for jobs in (1, args.jobs):
                    cold_cache = scratch / f"cold-{name}-{repetition}-{jobs}"
                    cold = run_child(_lint(tree, jobs, cold_cache, folder), scratch)
                    shutil.rmtree(cold_cache, ignore_errors=True)
                    warm = run_child(_lint(tree, jobs, scratch / f"warm-{name}", folder), scratch)
                    for label, run in (("cold", cold), ("warm", warm)):
                        rows.setdefault((name, f"{label} -j {jobs} (wall s)"), []).append(
                            run.seconds
                        )
                        rows.setdefault((name, f"{label} -j {jobs} (CPU s)"), []).append(
                            run.cpu_seconds
                        )
                    ratios.setdefault((name, f"warm / cold -j {jobs}"), []).append(
                        warm.seconds / cold.seconds
                    )
            print(f"repetition {repetition + 1}/{args.reps} done", file=sys.stderr, flush=True)
        for title, table in (("medians", rows), ("ratios (median of per-repetition)", ratios)):
            print(f"\n{title}:")
            labels = list(dict.fromkeys(label for _, label in table))
            print(f"{'':36}" + "".join(f"{name:>14}" for name in trees))
            for label in labels:
                cells = "".join(
                    f"{statistics.median(table[(name, label)]):14.3f}" for name in trees
                )
                print(f"{label:36}{cells}")
    print(f"\nload average at the end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
