"""Render a results JSON as the Markdown tables published in docs/performance.md.

python benchmarks/markdown.py [benchmarks/results/latest.json]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from run import RESULTS


def _seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def linter_table(section: dict) -> list[str]:
    corpus = section["corpus"]
    analysed = corpus["files_analysed"]
    lines = [
        f"**{corpus['name']}** — {corpus['description']}; {corpus['files']} files, "
        f"{corpus['bytes'] / 1e6:.2f} MB"
        + ("" if analysed is None else f", {analysed} pass the `backward` pre-filter")
        + ".",
        "",
        "| measurement | median s | min s | max s | runs | median CPU s | peak RSS |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for m in section["measurements"].values():
        rss = "-" if m["peak_rss_mib"] is None else f"{m['peak_rss_mib']:.0f} MiB"
        lines.append(
            f"| {m['label']} | {_seconds(m['median_s'])} | {_seconds(min(m['runs_s']))} | "
            f"{_seconds(max(m['runs_s']))} | {len(m['runs_s'])} | {_seconds(m['cpu_median_s'])} "
            f"| {rss} |"
        )
    lines += ["", "| ratio | value |", "|---|---:|"]
    lines += [
        f"| {name} | {value:.3f} |"
        for name, value in section["ratios"].items()
        if value is not None
    ]
    lines += ["", *(f"* {note}" for note in section["notes"])]
    if section["files_with_errors"]:
        lines.append(f"* files reported as errors (unparsable): {section['files_with_errors']}")
    return lines


def guard_table(rows: list[dict]) -> list[str]:
    lines = [
        "| model | device | parameters | unguarded ms | guarded ms | ratio | paired ratio "
        "| hooks | memory while guarded |",
        "|---|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for row in rows:
        lines.append(
            f"| {row['model']} | {row['device']} | {row['params']:,} | "
            f"{row['unguarded_ms']:.3f} | {row['guarded_ms']:.3f} | {row['ratio']:.3f} | "
            f"{row['paired_ratio']:.3f} | {row['hooks']} | {row['memory_delta']} |"
        )
    return lines


def targets_table(targets: list[dict]) -> list[str]:
    lines = ["| target | measured | limit | status |", "|---|---:|---:|---|"]
    for target in targets:
        value = "-" if target["value"] is None else f"{target['value']:.3f}"
        lines.append(
            f"| {target['name']} | {value} | {target['comparison']} {target['limit']} "
            f"| **{target['status']}** |"
        )
    return lines


def render(payload: dict) -> str:
    machine = payload["machine"]
    versions = ", ".join(f"{k} {v}" for k, v in machine["versions"].items() if v)
    lines = [
        f"Command: `python {payload['command']}` ({payload['mode']}, "
        f"{payload['seconds'] / 60:.1f} min). Machine: {machine['cpu_model']}, "
        f"{machine['cores_usable']} usable cores, Python {machine['python']}, {versions}; "
        f"load average {machine['load_average_at_start'][0]:.1f} at the start and "
        f"{machine['load_average_at_end'][0]:.1f} at the end.",
        "",
        *targets_table(payload["targets"]),
    ]
    for section in payload["linter"].values():
        lines += ["", *linter_table(section)]
    if payload["guard"]:
        lines += ["", *guard_table(payload["guard"])]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    source = Path(sys.argv[1]) if len(sys.argv) > 1 else RESULTS
    sys.stdout.write(render(json.loads(source.read_text(encoding="utf-8"))))
