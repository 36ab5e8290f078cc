"""zerograd-lint at repository scale, next to ruff, in one interleaved run.

    python benchmarks/repository_bench.py                  # 3 repetitions, -j 2
    python benchmarks/repository_bench.py --reps 5 --jobs 4

The repository set is every ``.py`` of the installed torch, transformers, lightning and
accelerate. Each repetition runs, in rotating order: ``ruff check --select E9,F
--no-cache --isolated`` (a full parse plus name resolution of every file), zerograd-lint
cold (``--no-cache``) at ``-j 1`` and ``-j N`` (project mode, the default) and in per-file mode
(``--no-project``) at ``-j N``, ``ast.parse`` of every file in this
process (CPU time), the largest file alone (zerograd-lint and ruff), the first quarter
and half of the files (a fixed shuffle) at ``-j N``, and, on the first
``--whole-file-reps`` repetitions, zerograd-lint ``--no-fast-path`` at ``-j N`` (every file
containing ``backward`` parsed whole: the previous behaviour). Medians, ratios and peak
RSS are printed as Markdown and written to ``benchmarks/results/repository.json``.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import json
import os
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import corpus
from lint_bench import _lint_command
from timing import Measurement, interleave, run_child

RESULTS = Path(__file__).resolve().parent / "results" / "repository.json"
LARGEST = "torch/testing/_internal/common_methods_invocations.py"
FRACTIONS = (0.25, 0.5)


def _ruff() -> list[str]:
    script = Path(sys.executable).parent / "ruff"
    found = str(script) if script.exists() else shutil.which("ruff")
    if found is None:
        raise SystemExit("ruff is not installed (pip install -e '.[bench]')")
    return [found, "check", "--select", "E9,F", "--no-cache", "--isolated", "--exit-zero", "-q"]


def _copy(files: list[Path], root: Path, folder: Path) -> Path:
    for path in files:
        target = folder / path.relative_to(root)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
    return folder


def analysed_bytes(texts: list[str]) -> int:
    """Characters the fast path hands libcst (non-blank, blanked statements left out)."""
    from zerograd_guard.lint.options import DEFAULT_OPTIONS
    from zerograd_guard.lint.prefilter import may_call_backward
    from zerograd_guard.lint.regions import analysed_text

    total = 0
    for text in texts:
        if may_call_backward(text):
            reduced = analysed_text(text, DEFAULT_OPTIONS)
            if reduced is not None:
                total += sum(1 for char in reduced if not char.isspace())
    return total


def _child(measurement: Measurement, command: list[str], cwd: Path) -> Callable[[], None]:
    def step() -> None:
        run = run_child(command, cwd)
        measurement.add(run)
        if run.returncode not in (0, 1, 2) or "Traceback" in run.stderr:
            measurement.note = f"exit {run.returncode}: {run.stderr[-300:]}"

    return step


def _limited(step: Callable[[], None], times: int) -> Callable[[], None]:
    done = [0]

    def limited() -> None:
        if done[0] < times:
            done[0] += 1
            step()

    return limited


def _ast_step(measurement: Measurement, texts: list[str]) -> Callable[[], None]:
    def step() -> None:
        start = time.process_time()
        for text in texts:
            with contextlib.suppress(SyntaxError, ValueError):
                ast.parse(text)
        measurement.runs.append(time.process_time() - start)

    return step


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--whole-file-reps", type=int, default=1)
    parser.add_argument("--output", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    lint = [*_lint_command(), "--no-cache", "--exit-zero"]
    ruff = _ruff()
    m: dict[str, Measurement] = {}
    with tempfile.TemporaryDirectory(prefix="zg-repo-") as scratch_name:
        scratch = Path(scratch_name)
        full = corpus.build_installed(
            scratch / "all", None, packages=corpus.REPOSITORY_PACKAGES, name="repository"
        )
        texts = full.texts()
        shuffled = random.Random(0).sample(list(full.files), len(full.files))
        parts = {
            fraction: _copy(
                shuffled[: round(len(shuffled) * fraction)], full.folder, scratch / f"{fraction}"
            )
            for fraction in FRACTIONS
        }
        largest = full.folder / LARGEST
        sizes = {
            "all": (full.total_bytes, analysed_bytes(texts)),
            **{
                f"{fraction}": (
                    sum(p.stat().st_size for p in folder.rglob("*.py")),
                    analysed_bytes([p.read_text("utf-8", "replace") for p in folder.rglob("*.py")]),
                )
                for fraction, folder in parts.items()
            },
        }
        jobs = str(args.jobs)
        rows = {
            "ruff": ("ruff check --select E9,F (wall s)", [*ruff, str(full.folder)]),
            "cold_j1": ("zerograd-lint cold -j 1 (wall s)", [*lint, "-j", "1", str(full.folder)]),
            "cold_jn": (
                f"zerograd-lint cold -j {jobs} (wall s)",
                [*lint, "-j", jobs, str(full.folder)],
            ),
            "per_file_jn": (
                f"zerograd-lint --no-project cold -j {jobs} (wall s)",
                [*lint, "--no-project", "-j", jobs, str(full.folder)],
            ),
            "largest_ours": (
                "largest file: zerograd-lint (wall s)",
                [*lint, "-j", "1", str(largest)],
            ),
            "largest_whole": (
                "largest file: zerograd-lint --no-fast-path (wall s)",
                [*lint, "--no-fast-path", "-j", "1", str(largest)],
            ),
            "largest_ruff": ("largest file: ruff (wall s)", [*ruff, str(largest)]),
            **{
                f"part_{fraction}": (
                    f"{fraction:.0%} of the files: zerograd-lint cold -j {jobs} (wall s)",
                    [*lint, "-j", jobs, str(folder)],
                )
                for fraction, folder in parts.items()
            },
        }
        steps = []
        for key, (label, command) in rows.items():
            m[key] = Measurement(label)
            steps.append(_child(m[key], command, scratch))
        m["whole_jn"] = Measurement(f"zerograd-lint --no-fast-path cold -j {jobs} (wall s)")
        whole = [*lint, "--no-fast-path", "-j", jobs, str(full.folder)]
        steps.append(_limited(_child(m["whole_jn"], whole, scratch), args.whole_file_reps))
        m["ast"] = Measurement("ast.parse of every file, in-process (CPU s)")
        steps.append(_ast_step(m["ast"], texts))
        print(
            f"repository set: {full.description}, {full.total_bytes / 1e6:.1f} MB", file=sys.stderr
        )
        started = time.perf_counter()
        interleave(steps, args.reps)
        seconds = time.perf_counter() - started
    payload = _payload(m, sizes, full.description, args, seconds)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
    sys.stdout.write(render(payload))
    print(f"wrote {args.output}", file=sys.stderr)
    return 0


def _payload(
    m: dict[str, Measurement],
    sizes: dict[str, tuple[int, int]],
    description: str,
    args: argparse.Namespace,
    seconds: float,
) -> dict[str, object]:
    def ratio(top: str, bottom: str) -> float | None:
        if not m[top].runs or not m[bottom].runs:
            return None
        return m[top].median / m[bottom].median

    return {
        "command": " ".join(["benchmarks/repository_bench.py", *sys.argv[1:]]),
        "set": description,
        "cores": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None,
        "load_average_at_end": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
        "seconds": seconds,
        "measurements": {key: value.as_json() for key, value in m.items() if value.runs},
        "bytes": {
            key: {"files": total, "analysed": analysed} for key, (total, analysed) in sizes.items()
        },
        "ratios": {
            "cold_jn_over_ruff": ratio("cold_jn", "ruff"),
            "per_file_jn_over_ruff": ratio("per_file_jn", "ruff"),
            "cold_jn_over_per_file_jn": ratio("cold_jn", "per_file_jn"),
            "cold_j1_over_ruff": ratio("cold_j1", "ruff"),
            "whole_jn_over_cold_jn": ratio("whole_jn", "cold_jn"),
            "cold_j1_over_cold_jn": ratio("cold_j1", "cold_jn"),
            "largest_over_ruff": ratio("largest_ours", "largest_ruff"),
        },
    }


def _spread(runs: list[float]) -> str:
    return f"{min(runs):.2f} to {max(runs):.2f}" if len(runs) > 1 else "-"


def render(payload: dict) -> str:  # type: ignore[type-arg]
    lines = [
        f"Repository set: {payload['set']}",
        "",
        "| measurement | median | min to max | runs | CPU s | peak RSS |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for item in payload["measurements"].values():
        cpu = item["cpu_median_s"]
        rss = item["peak_rss_mib"]
        lines.append(
            f"| {item['label']} | {item['median_s']:.2f} | {_spread(item['runs_s'])} | "
            f"{len(item['runs_s'])} | {'-' if cpu is None else f'{cpu:.2f}'} | "
            f"{'-' if rss is None else f'{rss:.0f} MiB'} |"
        )
    lines += ["", "| ratio | value |", "|---|---:|"]
    lines += [
        f"| {key} | {'-' if value is None else f'{value:.2f}'} |"
        for key, value in payload["ratios"].items()
    ]
    lines += ["", "| files | bytes | characters libcst parses |", "|---|---:|---:|"]
    for key, value in payload["bytes"].items():
        lines.append(f"| {key} | {value['files']:,} | {value['analysed']:,} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
