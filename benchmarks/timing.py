"""Timing primitives: a child process with its peak memory, and interleaved repetitions."""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class ChildRun:
    seconds: float
    cpu_seconds: float  # user + system time of the command and the descendants it waited for
    peak_rss_mib: float
    returncode: int
    stderr: str


# Runs the command and reports its wall time, exit status and ``wait4`` peak RSS.
# A separate small launcher process: a child forked straight from this (large)
# process would report this process's RSS at fork time as its own peak.
_LAUNCHER = """
import json, os, subprocess, sys, time
start = time.perf_counter()
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)
_, status, usage = os.wait4(child.pid, 0)
seconds = time.perf_counter() - start
cpu = usage.ru_utime + usage.ru_stime
print(json.dumps([seconds, cpu, usage.ru_maxrss, os.waitstatus_to_exitcode(status)]))
"""


def run_child(command: Sequence[str], cwd: Path) -> ChildRun:
    """Run ``command`` with its output discarded; wall time, CPU time and peak RSS (the
    largest resident set of the command or of any descendant it waited for, not their sum)."""
    with tempfile.TemporaryFile() as stderr:
        done = subprocess.run(
            [sys.executable, "-c", _LAUNCHER, *command],
            cwd=cwd,
            stdout=subprocess.PIPE,
            stderr=stderr,
            check=True,
        )
        stderr.seek(0)
        text = stderr.read().decode("utf-8", "replace")
    seconds, cpu_seconds, peak_kib, returncode = json.loads(done.stdout)
    return ChildRun(seconds, cpu_seconds, peak_kib / 1024, returncode, text)


@dataclass
class Measurement:
    """Repeated timings of one thing; ``runs`` in seconds (``cpu_runs``: CPU seconds of
    a child process, which other load on a shared machine inflates far less)."""

    label: str
    runs: list[float] = field(default_factory=list)
    cpu_runs: list[float] = field(default_factory=list)
    peak_rss_mib: float | None = None
    note: str = ""

    @property
    def median(self) -> float:
        return statistics.median(self.runs)

    @property
    def cpu_median(self) -> float | None:
        return statistics.median(self.cpu_runs) if self.cpu_runs else None

    def add(self, run: ChildRun) -> None:
        self.runs.append(run.seconds)
        self.cpu_runs.append(run.cpu_seconds)
        self.peak_rss_mib = max(self.peak_rss_mib or 0.0, run.peak_rss_mib)

    def as_json(self) -> dict[str, object]:
        return {
            "label": self.label,
            "median_s": self.median,
            "runs_s": self.runs,
            "cpu_median_s": self.cpu_median,
            "cpu_runs_s": self.cpu_runs,
            "peak_rss_mib": self.peak_rss_mib,
            "note": self.note,
        }


def interleave(steps: Sequence[Callable[[], None]], repetitions: int) -> None:
    """Run every step once per repetition, rotating which goes first, so slow drift
    on a shared machine spreads over all of them instead of hitting one."""
    for repetition in range(repetitions):
        offset = repetition % len(steps) if steps else 0
        for step in [*steps[offset:], *steps[:offset]]:
            step()
