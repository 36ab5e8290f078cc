"""Machine description, targets with PASS/MISS, and the printed table."""

from __future__ import annotations

import importlib.metadata
import os
import platform
from dataclasses import dataclass
from pathlib import Path

from lint_bench import CorpusResult

DISTRIBUTIONS = ("zerograd-guard", "torch", "libcst", "torchfix", "transformers", "lightning")


def machine() -> dict[str, object]:
    model = "unknown"
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    versions = {}
    for name in DISTRIBUTIONS:
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            versions[name] = None
    return {
        "cpu_model": model,
        "cores_usable": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None,
        "cores_total": os.cpu_count(),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "versions": versions,
        "load_average_at_start": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
    }


@dataclass(frozen=True)
class Target:
    name: str
    value: float | None
    limit: float
    at_most: bool  # True: value <= limit passes; False: value >= limit passes
    compares: str

    @property
    def status(self) -> str:
        if self.value is None:
            return "n/a"
        passed = self.value <= self.limit if self.at_most else self.value >= self.limit
        return "PASS" if passed else "MISS"

    def as_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "value": self.value,
            "limit": self.limit,
            "comparison": "<=" if self.at_most else ">=",
            "status": self.status,
            "compares": self.compares,
        }


def linter_ratios(result: CorpusResult) -> dict[str, float | None]:
    return {
        "analysis_over_libcst_parse": result.ratio("analyse", "libcst"),
        "analysis_over_libcst_parse_paired": result.paired_ratio("paired_analyse", "paired_libcst"),
        "analysis_over_ast_parse": result.ratio("analyse", "ast"),
        "cli_cold_j1_cpu_over_libcst_parse": result.ratio("cold_j1", "libcst", cpu=True),
        "warm_over_cold_j1": result.ratio("warm_j1", "cold_j1"),
        "warm_over_cold_jn": result.ratio("warm_jn", "cold_jn"),
        "warm_over_cold_j1_cpu": result.ratio("warm_j1", "cold_j1", cpu=True),
        "cold_j1_over_cold_jn": result.ratio("cold_j1", "cold_jn"),
        "torchfix_over_ours": result.ratio("torchfix", "ours_on_torchfix_sample"),
    }


GUARD_LIMITS = {"tiny 2-layer MLP": 1.10, "10M-param MLP": 1.02}


def targets(linter: dict[str, CorpusResult], guard: list[dict[str, object]]) -> list[Target]:
    found: list[Target] = []
    dense, installed = linter.get("dense"), linter.get("installed")
    if dense is not None:
        found.append(
            Target(
                "dense: analysis / libcst parse",
                dense.paired_ratio("paired_analyse", "paired_libcst"),
                1.25,
                True,
                "in-process CPU time of pre-filter + analyze_source vs libcst.parse_module "
                "alone, same texts, the two run back to back per file (median of the "
                "per-repetition ratios)",
            )
        )
    if installed is not None:
        found.append(
            Target(
                "installed: TorchFix / zerograd-lint",
                installed.ratio("torchfix", "ours_on_torchfix_sample"),
                10.0,
                False,
                "wall time of `torchfix -j N` vs cold `zerograd-lint -j N`, same sampled files",
            )
        )
    for name, result in linter.items():
        for jobs in ("j1", "jn"):
            found.append(
                Target(
                    f"{name}: warm / cold -{jobs.replace('j', 'j ').replace('n', 'N')}",
                    result.ratio(f"warm_{jobs}", f"cold_{jobs}"),
                    0.10,
                    True,
                    "wall time of a re-run with the cache populated vs a run with an empty cache",
                )
            )
    for row in guard:
        limit = GUARD_LIMITS.get(str(row["model"]))
        if limit is not None:
            found.append(
                Target(
                    f"guard {row['model']} ({row['device']})",
                    float(row["ratio"]),  # type: ignore[arg-type]
                    limit,
                    True,
                    "median step time guarded / unguarded, interleaved blocks in one process",
                )
            )
    return found


def _number(value: float | None, digits: int = 3) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def render(
    linter: dict[str, CorpusResult],
    guard: list[dict[str, object]],
    found: list[Target],
    jobs: int,
) -> str:
    lines: list[str] = []
    for name, result in linter.items():
        corpus = result.corpus
        lines.append(
            f"\n== linter, {name}: {len(corpus.files)} files, {corpus.total_bytes / 1e6:.2f} MB, "
            f"{result.files_analysed} pass the pre-filter =="
        )
        lines.append(f"   {corpus.description}")
        lines.append(
            f"   {'measurement':<52} {'median':>9} {'min':>9} {'max':>9} {'CPU s':>9} "
            f"{'peak RSS':>10}"
        )
        for measurement in result.measurements.values():
            rss = measurement.peak_rss_mib
            lines.append(
                f"   {measurement.label:<52} {measurement.median:9.3f} {min(measurement.runs):9.3f}"
                f" {max(measurement.runs):9.3f} {_number(measurement.cpu_median):>9}"
                f" {'-' if rss is None else f'{rss:7.0f} MiB':>10}"
            )
        for ratio, value in linter_ratios(result).items():
            if value is not None:
                lines.append(f"   ratio {ratio:<46} {value:9.3f}")
        if result.error_lines:
            lines.append(f"   files the CLI reported as errors: {len(result.error_lines)}")
        if result.crashes:
            lines.append(f"   CRASHES: {len(result.crashes)} (see JSON)")
        lines.extend(f"   note: {note}" for note in result.notes)
    if guard:
        lines.append("\n== runtime guard (median per-iteration time) ==")
        lines.append(
            f"   {'model':<18} {'device':<6} {'params':>11} {'unguarded ms':>13} "
            f"{'guarded ms':>11} {'ratio':>7} {'paired':>7} {'hooks':>6}  memory delta"
        )
        for row in guard:
            lines.append(
                f"   {row['model']!s:<18} {row['device']!s:<6} {row['params']:>11,} "
                f"{row['unguarded_ms']:13.3f} {row['guarded_ms']:11.3f} {row['ratio']:7.3f} "
                f"{row['paired_ratio']:7.3f} {row['hooks']:>6}  {row['memory_delta']}"
            )
    lines.append(f"\n== targets (N = {jobs} jobs) ==")
    for target in found:
        sign = "<=" if target.at_most else ">="
        lines.append(
            f"   {target.status:<5} {target.name:<40} {_number(target.value):>8} "
            f"{sign} {target.limit}"
        )
    return "\n".join(lines) + "\n"
