"""Precision and recall of zerograd-lint on the labelled real-world corpus.

    python benchmarks/real_world_score.py                 # every corpus file
    python benchmarks/real_world_score.py --json          # the same as JSON
    python benchmarks/real_world_score.py FILE [FILE...]  # only these files

Each file in ``tests/lint/real_world`` marks the lines where a finding is expected
with ``# expect: ZGxxx``. A finding counts as a true positive when its
``(line, code)`` pair is marked, a false positive when it is not, and a mark no
finding meets is a false negative. The same counts are also given per code, and
with the code ignored (a finding on a marked line with another code counts), which
separates "found the bug, named it differently" from "missed it".

A file the analyzer cannot read counts as missing all its marks; the error is
reported on one line and scoring goes on.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from zerograd_guard.lint.analyze import analyze_source  # noqa: E402
from zerograd_guard.lint.errors import AnalysisError  # noqa: E402
from zerograd_guard.lint.plugins.manager import builtin_options  # noqa: E402

CORPUS = ROOT / "tests" / "lint" / "real_world"
NOT_CORPUS = frozenset({"inject.py"})
# As the command line analyses: the built-in plugins (ignite's Engine, ...) included.
CLI_OPTIONS = builtin_options()
# The same mark syntax as tests/lint/test_real_world.py.
_EXPECT = re.compile(r"#\s*expect:\s*(ZG\d{3}(?:\s*,\s*ZG\d{3})*)")

Pair = tuple[int, str]


@dataclass(frozen=True)
class Counts:
    """True positives, false positives and false negatives of one comparison."""

    tp: int = 0
    fp: int = 0
    fn: int = 0

    def __add__(self, other: Counts) -> Counts:
        return Counts(self.tp + other.tp, self.fp + other.fp, self.fn + other.fn)

    @property
    def precision(self) -> float | None:
        found = self.tp + self.fp
        return self.tp / found if found else None

    @property
    def recall(self) -> float | None:
        marked = self.tp + self.fn
        return self.tp / marked if marked else None


@dataclass(frozen=True)
class FileScore:
    name: str
    expected: frozenset[Pair]
    actual: frozenset[Pair]
    error: str | None = None

    def counts(self, code: str | None = None) -> Counts:
        """Counts on (line, code) pairs, only those of ``code`` when given."""
        expected = {p for p in self.expected if code is None or p[1] == code}
        actual = {p for p in self.actual if code is None or p[1] == code}
        return Counts(len(expected & actual), len(actual - expected), len(expected - actual))

    def line_counts(self) -> Counts:
        """Counts on lines alone: the code a finding carries is ignored."""
        expected = {line for line, _ in self.expected}
        actual = {line for line, _ in self.actual}
        return Counts(len(expected & actual), len(actual - expected), len(expected - actual))


def expected_findings(source: str) -> frozenset[Pair]:
    """The ``(line, code)`` pairs marked with ``# expect:`` comments."""
    expected = set()
    for number, line in enumerate(source.splitlines(), start=1):
        match = _EXPECT.search(line)
        if match:
            expected.update((number, code.strip()) for code in match.group(1).split(","))
    return frozenset(expected)


def score_file(path: Path) -> FileScore:
    source = path.read_text(encoding="utf-8")
    expected = expected_findings(source)
    try:
        actual = frozenset((f.line, f.code) for f in analyze_source(source, CLI_OPTIONS))
    except AnalysisError as error:
        return FileScore(path.name, expected, frozenset(), error=str(error))
    return FileScore(path.name, expected, actual)


def corpus_files() -> list[Path]:
    return sorted(p for p in CORPUS.glob("*.py") if p.name not in NOT_CORPUS)


def total(counts: Iterable[Counts]) -> Counts:
    return sum(counts, Counts())


def summary(scores: Sequence[FileScore]) -> dict:
    codes = sorted({code for s in scores for _, code in s.expected | s.actual})
    by_code = {code: total(s.counts(code) for s in scores) for code in codes}
    overall = total(s.counts() for s in scores)
    line_only = total(s.line_counts() for s in scores)

    def figures(c: Counts) -> dict:
        return {**asdict(c), "precision": c.precision, "recall": c.recall}

    return {
        "files": [
            {
                "file": s.name,
                **asdict(s.counts()),
                "false_positives": sorted(s.actual - s.expected),
                "false_negatives": sorted(s.expected - s.actual),
                **({"error": s.error} if s.error else {}),
            }
            for s in scores
        ],
        "overall": figures(overall),
        "per_code": {code: figures(c) for code, c in by_code.items()},
        "line_only": figures(line_only),
    }


def _ratio(value: float | None) -> str:
    return "  n/a" if value is None else f"{value:5.2f}"


def print_text(result: dict) -> None:
    width = max((len(f["file"]) for f in result["files"]), default=4)
    print(f"{'file':<{width}}  TP  FP  FN")
    for row in result["files"]:
        notes = []
        if row["false_positives"]:
            notes.append("FP " + ", ".join(f"{c}@{n}" for n, c in row["false_positives"]))
        if row["false_negatives"]:
            notes.append("FN " + ", ".join(f"{c}@{n}" for n, c in row["false_negatives"]))
        if "error" in row:
            notes.append("error: " + row["error"])
        tail = "  " + "; ".join(notes) if notes else ""
        print(f"{row['file']:<{width}} {row['tp']:3} {row['fp']:3} {row['fn']:3}{tail}")
    print()
    print(f"{'':<12}  TP  FP  FN  precision  recall")
    rows = [("overall", result["overall"])]
    rows += list(result["per_code"].items())
    rows.append(("line only", result["line_only"]))
    for label, c in rows:
        print(
            f"{label:<12} {c['tp']:3} {c['fp']:3} {c['fn']:3}"
            f"      {_ratio(c['precision'])}   {_ratio(c['recall'])}"
        )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path, help="corpus files (default: all)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    paths = args.files or corpus_files()
    scores = []
    for path in paths:
        try:
            scores.append(score_file(path))
        except (OSError, UnicodeDecodeError) as error:
            print(f"{path}: cannot read: {error}", file=sys.stderr)
    result = summary(scores)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print_text(result)
    return 0 if len(scores) == len(paths) else 2


if __name__ == "__main__":
    sys.exit(main())
