"""Linter measurements on one corpus: in-process floors, the CLI cold and warm, TorchFix.

In-process timings (``ast.parse``, ``libcst.parse_module``, our analysis) run in
this process over file texts read once, and count this process's CPU time, so
other load on a shared machine does not inflate them. CLI and TorchFix timings are
wall-clock times of a child process, start-up included, with the child's peak RSS.
"""

from __future__ import annotations

import ast
import contextlib
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from corpus import Corpus
from timing import ChildRun, Measurement, interleave, run_child


def _lint_command() -> list[str]:
    script = Path(sys.executable).parent / "zerograd-lint"
    return [str(script)] if script.exists() else [sys.executable, "-m", "zerograd_guard.lint"]


def torchfix_command() -> list[str] | None:
    script = Path(sys.executable).parent / "torchfix"
    found = str(script) if script.exists() else shutil.which("torchfix")
    return [found] if found else None


@dataclass
class CorpusResult:
    corpus: Corpus
    measurements: dict[str, Measurement] = field(default_factory=dict)
    error_lines: set[str] = field(default_factory=set)
    crashes: list[str] = field(default_factory=list)
    files_analysed: int = 0  # files that pass the pre-filter
    notes: list[str] = field(default_factory=list)

    def median(self, key: str) -> float | None:
        measurement = self.measurements.get(key)
        return measurement.median if measurement and measurement.runs else None

    def cpu_median(self, key: str) -> float | None:
        """CPU seconds: a child's CPU time, or an in-process measurement (already CPU)."""
        measurement = self.measurements.get(key)
        if measurement is None or not measurement.runs:
            return None
        return measurement.cpu_median if measurement.cpu_runs else measurement.median

    def ratio(self, numerator: str, denominator: str, *, cpu: bool = False) -> float | None:
        value = self.cpu_median if cpu else self.median
        top, bottom = value(numerator), value(denominator)
        return top / bottom if top is not None and bottom else None

    def paired_ratio(self, numerator: str, denominator: str) -> float | None:
        """Median of the per-repetition ratios of two measurements taken side by side."""
        top, bottom = self.measurements.get(numerator), self.measurements.get(denominator)
        if top is None or bottom is None or not top.runs or len(top.runs) != len(bottom.runs):
            return None
        return statistics.median(a / b for a, b in zip(top.runs, bottom.runs, strict=True) if b)

    def as_json(self) -> dict[str, object]:
        return {
            "corpus": {
                "name": self.corpus.name,
                "description": self.corpus.description,
                "files": len(self.corpus.files),
                "bytes": self.corpus.total_bytes,
                "files_analysed": self.files_analysed,
            },
            "measurements": {key: m.as_json() for key, m in self.measurements.items()},
            "files_with_errors": len(self.error_lines),
            "crashes": self.crashes,
            "notes": self.notes,
        }


def _cpu_timed(measurement: Measurement, work: Callable[[], object]) -> Callable[[], None]:
    def step() -> None:
        start = time.process_time()
        work()
        measurement.runs.append(time.process_time() - start)

    return step


def _ast_all(texts: list[str]) -> None:
    for text in texts:
        with contextlib.suppress(SyntaxError, ValueError):
            ast.parse(text)


def _parse_one(text: str) -> None:
    import libcst

    with contextlib.suppress(Exception):  # libcst raises assorted errors on odd input
        libcst.parse_module(text)


def _analyse_one(text: str) -> bool:
    """What a cold ``-j 1`` run does per file after reading it: pre-filter, select the
    statements that can contribute (the fast path), analyse; whether the file passed the
    pre-filter."""
    from zerograd_guard.lint.analyze import analyze_source
    from zerograd_guard.lint.errors import AnalysisError
    from zerograd_guard.lint.options import DEFAULT_OPTIONS
    from zerograd_guard.lint.prefilter import may_call_backward
    from zerograd_guard.lint.regions import analysed_text

    if not may_call_backward(text):
        return False
    reduced = analysed_text(text, DEFAULT_OPTIONS)
    if reduced is not None:
        with contextlib.suppress(AnalysisError):
            analyze_source(reduced)
    return True


def _libcst_all(texts: list[str]) -> None:
    for text in texts:
        _parse_one(text)


def _analyse_all(texts: list[str]) -> int:
    return sum(_analyse_one(text) for text in texts)


def _paired(parse: Measurement, analysis: Measurement, texts: list[str]) -> Callable[[], None]:
    """``libcst.parse_module`` and the analysis of the same file back to back, file after
    file (which goes first alternates), summed per repetition: on a machine whose speed
    drifts over seconds both see the same conditions, so their ratio is steadier than
    that of the two whole-set measurements, which run tens of seconds apart."""

    def step() -> None:
        totals = {_parse_one: 0.0, _analyse_one: 0.0}
        for index, text in enumerate(texts):
            order = (_parse_one, _analyse_one) if index % 2 == 0 else (_analyse_one, _parse_one)
            for work in order:
                start = time.process_time()
                work(text)
                totals[work] += time.process_time() - start
        parse.runs.append(totals[_parse_one])
        analysis.runs.append(totals[_analyse_one])

    return step


def _prefiltered(texts: list[str]) -> int:
    from zerograd_guard.lint.prefilter import may_call_backward

    return sum(1 for text in texts if may_call_backward(text))


class _Cli:
    """``zerograd-lint`` runs over one folder, with fresh or warm caches."""

    def __init__(self, result: CorpusResult, scratch: Path) -> None:
        self.result = result
        self.scratch = scratch
        self.warm_cache = scratch / "warm-cache"
        self._fresh = 0

    def command(self, jobs: int, cache: Path, folder: Path | None = None) -> list[str]:
        target = str(folder or self.result.corpus.folder)
        return [*_lint_command(), "--exit-zero", "--cache-dir", str(cache), "-j", str(jobs), target]

    def fresh_cache(self) -> Path:
        self._fresh += 1
        return self.scratch / f"cold-cache-{self._fresh}"

    def record(self, measurement: Measurement, run: ChildRun, what: str) -> None:
        measurement.add(run)
        if run.returncode not in (0, 1, 2) or "Traceback" in run.stderr:
            self.result.crashes.append(f"{what}: exit {run.returncode}: {run.stderr[-400:]}")
        self.result.error_lines.update(
            line for line in run.stderr.splitlines() if ": error: " in line
        )

    def cold(
        self, measurement: Measurement, jobs: int, folder: Path | None = None
    ) -> Callable[[], None]:
        def step() -> None:
            cache = self.fresh_cache()
            command = self.command(jobs, cache, folder)
            self.record(measurement, run_child(command, self.scratch), measurement.label)
            shutil.rmtree(cache, ignore_errors=True)

        return step

    def warm(self, measurement: Measurement, jobs: int) -> Callable[[], None]:
        def step() -> None:
            command = self.command(jobs, self.warm_cache)
            self.record(measurement, run_child(command, self.scratch), measurement.label)

        return step


def measure_corpus(
    corpus: Corpus,
    jobs: int,
    repetitions: int,
    *,
    in_process: bool = True,
    torchfix_sample: Corpus | None = None,
) -> CorpusResult:
    """Everything for one corpus, interleaved: each repetition runs every measurement once."""
    result = CorpusResult(corpus)
    m = result.measurements
    steps: list[Callable[[], None]] = []
    with tempfile.TemporaryDirectory(prefix="zg-bench-") as scratch_name:
        cli = _Cli(result, Path(scratch_name))
        texts = corpus.texts()
        result.files_analysed = _prefiltered(texts)
        if in_process:
            _analyse_all(texts[:3])  # imports and first-call costs, outside the timing
            _libcst_all(texts[:3])
            m["ast"] = Measurement("ast.parse, in-process (CPU s)")
            m["libcst"] = Measurement("libcst.parse_module, in-process (CPU s)")
            m["analyse"] = Measurement("zerograd analysis, in-process (CPU s)")
            m["paired_libcst"] = Measurement("libcst.parse_module, paired per file (CPU s)")
            m["paired_analyse"] = Measurement("zerograd analysis, paired per file (CPU s)")
            steps += [
                _cpu_timed(m["ast"], lambda: _ast_all(texts)),
                _cpu_timed(m["libcst"], lambda: _libcst_all(texts)),
                _cpu_timed(m["analyse"], lambda: _analyse_all(texts)),
                _paired(m["paired_libcst"], m["paired_analyse"], texts),
            ]
        # Populate the warm cache (and the OS file cache) before anything is timed.
        warm_up = run_child(cli.command(1, cli.warm_cache), cli.scratch)
        cli.record(Measurement("warm-up"), warm_up, "warm-up run")
        for key, label, step_jobs in (("cold_j1", "-j 1", 1), ("cold_jn", f"-j {jobs}", jobs)):
            m[key] = Measurement(f"zerograd-lint cold {label} (wall s)")
            steps.append(cli.cold(m[key], step_jobs))
        for key, label, step_jobs in (("warm_j1", "-j 1", 1), ("warm_jn", f"-j {jobs}", jobs)):
            m[key] = Measurement(f"zerograd-lint warm {label} (wall s)")
            steps.append(cli.warm(m[key], step_jobs))
        torchfix = torchfix_command()
        if torchfix_sample is not None and torchfix is None:
            result.notes.append("TorchFix is not installed: no TorchFix baseline")
        elif torchfix_sample is not None:
            sample = torchfix_sample
            m["torchfix"] = Measurement(f"torchfix -j {jobs}, {len(sample.files)}-file sample")
            m["ours_on_torchfix_sample"] = Measurement(f"zerograd-lint cold -j {jobs}, same sample")
            steps.append(_torchfix_step(m["torchfix"], torchfix, jobs, sample, cli))
            steps.append(cli.cold(m["ours_on_torchfix_sample"], jobs, sample.folder))
            result.notes.append(f"TorchFix and its comparison run on: {sample.description}")
        interleave(steps, repetitions)
    return result


def _torchfix_step(
    measurement: Measurement, torchfix: list[str], jobs: int, sample: Corpus, cli: _Cli
) -> Callable[[], None]:
    def step() -> None:
        run = run_child([*torchfix, "-j", str(jobs), str(sample.folder)], cli.scratch)
        measurement.add(run)
        if run.returncode not in (0, 1):
            measurement.note = f"torchfix exited {run.returncode}: {run.stderr[-200:]}"

    return step
