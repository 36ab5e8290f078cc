"""The benchmark runner works end to end on a tiny input (no timing assertions).

One test runs the runner once and checks everything: split into several tests, a
shared fixture would run once per xdist worker.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RUNNER = ROOT / "benchmarks" / "run.py"
LINTER_KEYS = {
    "ast",
    "libcst",
    "analyse",
    "paired_libcst",
    "paired_analyse",
    "cold_j1",
    "cold_jn",
    "warm_j1",
    "warm_jn",
}
GUARD_MODELS = {"tiny 2-layer MLP", "10M-param MLP", "small CNN", "200x Linear(8,8)"}


def test_runner_on_a_tiny_input(tmp_path: Path) -> None:
    output = tmp_path / "latest.json"
    command = [
        sys.executable,
        str(RUNNER),
        "--quick",
        "--reps=1",
        "--dense-files=5",
        "--installed-sample=3",
        "--torchfix-files=1",
        "--jobs=2",
        "--guard-blocks=1",
        "--guard-steps=2",
        "--device=cpu",
        f"--output={output}",
    ]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "== targets" in done.stdout
    results = json.loads(output.read_text(encoding="utf-8"))
    check_machine_and_command(results)
    check_linter_sections(results)
    check_ratios(results)
    check_guard_rows(results)
    check_targets(results)
    check_markdown(output)


def _positive(value: object) -> bool:
    return isinstance(value, int | float) and math.isfinite(value) and value > 0


def check_machine_and_command(results: dict) -> None:
    machine = results["machine"]
    assert machine["cores_total"] >= 1
    assert machine["python"].count(".") == 2
    assert machine["versions"]["libcst"]
    assert results["mode"] == "quick"
    assert "--reps=1" in results["command"]


def check_linter_sections(results: dict) -> None:
    assert set(results["linter"]) == {"dense", "installed"}
    dense = results["linter"]["dense"]
    assert dense["corpus"]["files"] == 5
    assert dense["corpus"]["files_analysed"] == 5  # every generated file has a loop
    for section in results["linter"].values():
        assert set(section["measurements"]) >= LINTER_KEYS
        for measurement in section["measurements"].values():
            assert len(measurement["runs_s"]) == 1
            assert measurement["median_s"] >= 0
        assert section["crashes"] == []
        for name in ("cold_j1", "warm_jn"):
            assert _positive(section["measurements"][name]["peak_rss_mib"])


def check_ratios(results: dict) -> None:
    dense = results["linter"]["dense"]["ratios"]
    for name in (
        "analysis_over_libcst_parse",
        "analysis_over_libcst_parse_paired",
        "warm_over_cold_j1",
        "warm_over_cold_jn",
    ):
        assert _positive(dense[name]), name
    for section in results["linter"].values():
        for name, value in section["ratios"].items():
            assert value is None or _positive(value) or value == 0, name


def check_guard_rows(results: dict) -> None:
    rows = results["guard"]
    assert {row["model"] for row in rows} == GUARD_MODELS
    for row in rows:
        assert row["device"] == "cpu"
        assert _positive(row["ratio"]) and _positive(row["unguarded_ms"])
        assert row["hooks"] >= 2  # at least the two global optimizer step hooks
        assert row["params"] > 0


def check_targets(results: dict) -> None:
    names = [target["name"] for target in results["targets"]]
    assert "dense: analysis / libcst parse" in names
    assert any(name.startswith("guard tiny 2-layer MLP") for name in names)
    for target in results["targets"]:
        assert target["status"] in {"PASS", "MISS", "n/a"}
        assert target["status"] == "n/a" or _positive(target["value"])


def check_markdown(saved: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "markdown.py"), str(saved)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "| dense: analysis / libcst parse |" in done.stdout
    assert "| tiny 2-layer MLP | cpu |" in done.stdout
