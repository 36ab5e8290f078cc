"""The text pre-filter: which files need parsing at all. Imports no parser.

A file whose text cannot contain a backward call cannot produce a finding, and a
substring search is far cheaper than a parse (or even a cache lookup).
"""

from __future__ import annotations

from zerograd_guard.lint.options import DEFAULT_OPTIONS, AnalysisOptions

BACKWARD_MARKER = "backward"


def may_contain_backward(text: str, options: AnalysisOptions = DEFAULT_OPTIONS) -> bool:
    """False only when ``text`` cannot contain a backward call (built-in or configured);
    files for which this is False cannot produce a finding and need not be parsed."""
    return BACKWARD_MARKER in text or any(name in text for name in options.extra_backward_calls)
