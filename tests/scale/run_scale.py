"""Scale run: lint the whole CPython standard library and every installed package.

Usage (from the repository root)::

    .venv/bin/python tests/scale/run_scale.py [--jobs N] [--sample N] [--record FILE]

It collects every ``.py`` file of the standard library
(``sysconfig.get_paths()["stdlib"]``, without its own ``site-packages``) and of
the environment's ``site-packages`` (torch, transformers, lightning, numpy, ...),
and lints them through the real command line (``zerograd_guard.lint.cli.main``
in-process, ``--no-cache --format json -j N``), then prints:

- files linted,
- crashes: any ``internal error`` line, any traceback, or an exit code other
  than 0/1/2 (every one is a bug; the script exits 1 when there is one),
- files that could not be read or parsed, each with its one-line error,
- every finding (path, line, column, code, message), for review.

``--record FILE`` writes the same as JSON. ``--sample N`` lints a deterministic
sample of N files instead (what ``test_scale_sample.py`` runs in CI).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import os
import sys
import sysconfig
import time
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

INTERNAL_ERROR = "internal error"


def library_roots() -> list[Path]:
    """The standard library and the environment's site-packages folders, de-duplicated."""
    paths = sysconfig.get_paths()
    roots: list[Path] = []
    for key in ("stdlib", "purelib", "platlib"):
        root = Path(paths[key]).resolve()
        if root.is_dir() and root not in roots:
            roots.append(root)
    return roots


def python_files(roots: Sequence[Path]) -> list[Path]:
    """Every ``.py`` file under ``roots``; the stdlib's own site-packages is not stdlib."""
    stdlib = Path(sysconfig.get_paths()["stdlib"]).resolve()
    found: set[Path] = set()
    for root in roots:
        for current, dirnames, filenames in os.walk(root):
            here = Path(current)
            dirnames[:] = [
                d
                for d in dirnames
                if d != "__pycache__" and not (here == stdlib and d == "site-packages")
            ]
            found.update(here / name for name in filenames if name.endswith(".py"))
    return sorted(found)


def deterministic_sample(
    files: Sequence[Path], size: int, max_bytes: int | None = None
) -> list[Path]:
    """``size`` files chosen by a hash of their path: the same set on every run and machine
    layout, spread over all packages; a third of them mention ``backward`` (those are the
    files the analyzer parses). ``max_bytes`` leaves out bigger files (CI time)."""
    if max_bytes is not None:
        files = [path for path in files if path.stat().st_size <= max_bytes]
    if size >= len(files):
        return list(files)

    def rank(path: Path) -> str:
        parts = path.parts
        tail = "/".join(parts[-3:])  # stable across prefixes (venv location, python version)
        return hashlib.sha256(tail.encode()).hexdigest()

    ordered = sorted(files, key=rank)
    with_backward = [p for p in ordered if _mentions_backward(p)][: size // 3]
    chosen = set(with_backward)
    rest = [p for p in ordered if p not in chosen][: size - len(with_backward)]
    return sorted(with_backward + rest)


def _mentions_backward(path: Path) -> bool:
    try:
        return b"backward" in path.read_bytes()
    except OSError:
        return False


@dataclass
class ScaleReport:
    files: int
    seconds: float
    exit_code: int
    crashes: list[str] = field(default_factory=list)
    parse_errors: list[str] = field(default_factory=list)
    findings: list[dict[str, object]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.crashes and self.exit_code in (0, 1, 2)


def lint_files(files: Sequence[Path], jobs: int) -> ScaleReport:
    """Run the real CLI in-process on ``files``; classify what it printed."""
    from zerograd_guard.lint.cli import main

    out, err = io.StringIO(), io.StringIO()
    argv = ["--no-cache", "--no-plugins", "--format", "json", "-j", str(jobs)]
    started = time.perf_counter()
    escaped: BaseException | None = None
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main([*argv, *map(str, files)])
        except Exception as exc:  # a dead worker (BrokenProcessPool) or a CLI bug
            code, escaped = -1, exc
    seconds = time.perf_counter() - started
    report = ScaleReport(files=len(files), seconds=seconds, exit_code=code)
    if escaped is not None:
        report.crashes.append(f"the run raised {type(escaped).__name__}: {escaped}")
    text = err.getvalue()
    if "Traceback" in text or "Traceback" in out.getvalue():
        report.crashes.append("a traceback was printed:\n" + text[-4000:])
    for line in text.splitlines():
        if INTERNAL_ERROR in line:
            report.crashes.append(line)
        elif ": error: " in line:
            report.parse_errors.append(line)
        elif line.strip() and not line.startswith("warning:"):
            report.crashes.append(f"unexpected stderr line: {line}")
    try:
        report.findings = json.loads(out.getvalue() or "[]")
    except ValueError:
        report.crashes.append("stdout is not valid JSON")
    return report


def _print(report: ScaleReport) -> None:
    write = sys.stdout.write
    write(f"files linted: {report.files} in {report.seconds:.1f} s (exit {report.exit_code})\n")
    write(f"crashes: {len(report.crashes)}\n")
    for crash in report.crashes:
        write(f"  {crash}\n")
    write(f"files that could not be read or parsed: {len(report.parse_errors)}\n")
    for line in report.parse_errors:
        write(f"  {line}\n")
    write(f"findings: {len(report.findings)}\n")
    for item in report.findings:
        write(
            f"  {item['path']}:{item['line']}:{item['column']}: {item['code']} {item['message']}\n"
        )


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--sample", type=int, default=0, help="lint only N files (0: all)")
    parser.add_argument(
        "--sample-max-bytes", type=int, default=None, help="leave bigger files out of the sample"
    )
    parser.add_argument("--record", type=Path, help="write the report as JSON here")
    args = parser.parse_args(list(argv) if argv is not None else None)
    files = python_files(library_roots())
    if args.sample:
        files = deterministic_sample(files, args.sample, args.sample_max_bytes)
    report = lint_files(files, args.jobs)
    _print(report)
    if args.record:
        args.record.write_text(json.dumps(asdict(report), indent=1), encoding="utf-8")
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
