"""Measure zerograd-lint and the runtime guard against their baselines, in one run.

    python benchmarks/run.py            # --quick: installed packages sampled
    python benchmarks/run.py --full     # every .py file of torch, transformers, lightning

Prints a table of medians, ratios and the targets (PASS/MISS) and writes the
numbers to benchmarks/results/latest.json. Linter: a generated dense set of files
with training loops and the installed packages' files; in-process ``ast.parse`` and
``libcst.parse_module`` floors, ``zerograd-lint`` cold and warm at ``-j 1`` and
``-j N``, TorchFix on a fixed sample. Guard: guarded/unguarded step time, from
``guard_overhead.py``. See docs/performance.md for what each ratio compares.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
import tempfile
import time
from pathlib import Path

import corpus
import report
from lint_bench import CorpusResult, measure_corpus

RESULTS = Path(__file__).resolve().parent / "results" / "latest.json"


def _cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    size = parser.add_mutually_exclusive_group()
    size.add_argument(
        "--quick", action="store_true", help="sample the installed packages (default)"
    )
    size.add_argument("--full", action="store_true", help="every installed package file")
    parser.add_argument("--reps", type=int, default=5, help="repetitions (medians are reported)")
    parser.add_argument(
        "--full-reps", type=int, default=1, help="repetitions of the CLI runs on the --full set"
    )
    parser.add_argument("--dense-files", type=int, default=300, help="generated dense files")
    parser.add_argument(
        "--installed-sample", type=int, default=120, help="installed files sampled by --quick"
    )
    parser.add_argument(
        "--torchfix-files",
        type=int,
        default=20,
        help="files of each set TorchFix runs on (0: skip)",
    )
    parser.add_argument("--jobs", type=int, default=_cores(), help="N for the -j N runs")
    parser.add_argument("--guard-blocks", type=int, default=30, help="guarded/unguarded pairs")
    parser.add_argument("--guard-steps", type=int, default=20, help="iterations per block")
    parser.add_argument("--device", action="append", help="guard devices (default cpu [+cuda])")
    parser.add_argument("--skip-linter", action="store_true")
    parser.add_argument("--skip-guard", action="store_true")
    parser.add_argument("--output", type=Path, default=RESULTS, help="JSON output file")
    return parser


def run_linter(args: argparse.Namespace, scratch: Path) -> dict[str, CorpusResult]:
    dense = corpus.build_dense(scratch / "dense", args.dense_files)
    installed = corpus.build_installed(
        scratch / "installed", None if args.full else args.installed_sample
    )
    results: dict[str, CorpusResult] = {}
    for which, (files, repetitions) in {
        "dense": (dense, args.reps),
        "installed": (installed, args.full_reps if args.full else args.reps),
    }.items():
        sample = None
        if args.torchfix_files > 0 and files.files:
            sample = corpus.subset(files, scratch / f"{which}-torchfix", args.torchfix_files)
        started = time.perf_counter()
        print(f"linter: {which}: {files.description} ...", file=sys.stderr, flush=True)
        result = measure_corpus(
            files,
            args.jobs,
            repetitions,
            in_process=not (args.full and which == "installed"),
            torchfix_sample=sample,
        )
        if args.full and which == "installed":
            result.notes.append(
                f"--full: CLI runs repeated {repetitions}x; in-process parse floors skipped on "
                "the full set (libcst alone takes minutes; see a --quick run)"
            )
        if sample is not None and result.median("torchfix") is not None:
            scale = files.total_bytes / max(sample.total_bytes, 1)
            estimate = result.median("torchfix") * scale  # type: ignore[operator]
            result.notes.append(
                f"TorchFix over the whole {which} set, estimated by scaling its sample time by "
                f"bytes (x{scale:.1f}): {estimate:.0f} s"
            )
        print(f"linter: {which}: {time.perf_counter() - started:.0f} s", file=sys.stderr)
        results[which] = result
    return results


def run_guard(args: argparse.Namespace) -> list[dict[str, object]]:
    from guard_bench import measure_guard

    print("guard: measuring ...", file=sys.stderr, flush=True)
    return measure_guard(args.guard_blocks, args.guard_steps, args.device)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    started = time.perf_counter()
    described = report.machine()
    with tempfile.TemporaryDirectory(prefix="zg-bench-corpus-") as scratch:
        linter = {} if args.skip_linter else run_linter(args, Path(scratch))
    guard = [] if args.skip_guard else run_guard(args)
    found = report.targets(linter, guard)
    sys.stdout.write(report.render(linter, guard, found, args.jobs))
    described["load_average_at_end"] = list(os.getloadavg()) if hasattr(os, "getloadavg") else None
    payload = {
        "command": shlex.join([Path(sys.argv[0]).as_posix(), *(argv or sys.argv[1:])]),
        "mode": "full" if args.full else "quick",
        "settings": {key: str(value) for key, value in vars(args).items()},
        "machine": described,
        "linter": {
            name: {**result.as_json(), "ratios": report.linter_ratios(result)}
            for name, result in linter.items()
        },
        "guard": guard,
        "targets": [target.as_json() for target in found],
        "seconds": time.perf_counter() - started,
    }
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {args.output}", file=sys.stderr)
    return 1 if any(result.crashes for result in linter.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
