"""The per-process report a guarded child leaves in the report directory, and how it is read.

A child writes ``<pid>.json`` atomically (temporary file, then rename) each time
its guard finds something and once more at exit, so a worker that ends with
``os._exit`` (no ``atexit``) has still left every violation behind. Torch-free.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

RECORD_SUFFIX = ".json"


@dataclass(frozen=True)
class ChildViolation:
    """One finding of a child process's guard, as the parent reports it."""

    pid: int
    rank: int | None
    code: str
    message: str
    """The child guard's full report text for this finding (rule, optimizer, sites, fix, docs)."""
    argv: tuple[str, ...] = ()
    details: dict[str, Any] = field(default_factory=dict, compare=False)
    """The finding's JSON form (``Finding.as_dict()``), for JSON reports."""

    def origin(self) -> str:
        """``rank 1 (pid 4242)`` or ``pid 4242``."""
        where = f"pid {self.pid}"
        return f"rank {self.rank} ({where})" if self.rank is not None else where

    def render(self) -> str:
        """The child's report text, prefixed by which process it came from."""
        return f"[child process {self.origin()}] {self.message}"

    def as_dict(self) -> dict[str, Any]:
        return {
            "pid": self.pid,
            "rank": self.rank,
            "argv": list(self.argv),
            "code": self.code,
            "text": self.message,
            **{key: value for key, value in self.details.items() if key not in ("code", "text")},
        }


@dataclass
class ChildRecord:
    """Everything one child process's guard saw."""

    pid: int
    argv: list[str]
    mode: str
    rank: int | None = None
    steps_checked: int = 0
    violations: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[dict[str, Any]] = field(default_factory=list)
    finished: bool = False
    """True once written at interpreter exit (False if the child ended with ``os._exit``)."""

    def to_json(self) -> str:
        return json.dumps(self.__dict__, default=str)

    def summary(self) -> dict[str, Any]:
        """The record as JSON reports show it (pytest report and ``run --report``)."""
        return {
            "pid": self.pid,
            "rank": self.rank,
            "argv": self.argv,
            "steps_checked": self.steps_checked,
            "violations": [v.as_dict() for v in violations_of(self)],
            "warnings": [w.as_dict() for w in violations_of(self, warnings=True)],
        }


def write_record(report_dir: str | os.PathLike[str], record: ChildRecord) -> None:
    """Atomically replace ``<report_dir>/<pid>.json``; silently does nothing if the dir is gone."""
    directory = os.fspath(report_dir)
    try:
        handle, temporary = tempfile.mkstemp(dir=directory, prefix=".tmp-", suffix=".part")
    except OSError:
        return
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(record.to_json())
        os.replace(temporary, os.path.join(directory, f"{record.pid}{RECORD_SUFFIX}"))
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temporary)


def read_records(report_dir: str | os.PathLike[str]) -> list[ChildRecord]:
    """Every complete record in ``report_dir``, ordered by pid; unreadable files are skipped."""
    records = []
    for path in sorted(Path(report_dir).glob(f"*{RECORD_SUFFIX}")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            records.append(ChildRecord(**data))
        except (OSError, ValueError, TypeError):
            continue
    return sorted(records, key=lambda record: record.pid)


def violations_of(record: ChildRecord, *, warnings: bool = False) -> list[ChildViolation]:
    """The record's violations (or warnings) as :class:`ChildViolation`."""
    findings = record.warnings if warnings else record.violations
    return [
        ChildViolation(
            pid=record.pid,
            rank=finding.get("rank", record.rank),
            code=str(finding.get("code", "?")),
            message=str(finding.get("text", finding.get("message", ""))),
            argv=tuple(record.argv),
            details={**finding, "pid": record.pid},
        )
        for finding in findings
    ]
