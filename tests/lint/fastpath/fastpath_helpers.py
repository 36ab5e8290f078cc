"""Whole-file and fast-path analysis of one text, for comparing them."""

from __future__ import annotations

from zerograd_guard.lint.analyze import analyze_source
from zerograd_guard.lint.errors import AnalysisError
from zerograd_guard.lint.findings import Finding
from zerograd_guard.lint.options import DEFAULT_OPTIONS, AnalysisOptions
from zerograd_guard.lint.prefilter import may_call_backward, may_contain_backward
from zerograd_guard.lint.regions import analysed_text

Outcome = list[Finding] | str  # findings, or the one-line error


def whole_file(text: str, options: AnalysisOptions = DEFAULT_OPTIONS) -> Outcome:
    """What the whole-file path (``--no-fast-path``) finds."""
    if not may_contain_backward(text, options):
        return []
    try:
        return analyze_source(text, options)
    except AnalysisError as error:
        return str(error)


def fast_path(text: str, options: AnalysisOptions = DEFAULT_OPTIONS) -> Outcome:
    """What the fast path finds."""
    if not may_call_backward(text, options):
        return []
    reduced = analysed_text(text, options, min_chars=0, member_min_chars=0)  # however small
    if reduced is None:
        return []
    try:
        return analyze_source(reduced, options)
    except AnalysisError as error:
        return str(error)


def kept_lines(text: str, options: AnalysisOptions = DEFAULT_OPTIONS) -> list[str]:
    """The non-blank lines the fast path parses (split however small)."""
    reduced = analysed_text(text, options, min_chars=0, member_min_chars=0)
    return [] if reduced is None else [line for line in reduced.splitlines() if line.strip()]
