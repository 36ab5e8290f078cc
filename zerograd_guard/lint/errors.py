"""The one exception the analysis raises for source it cannot analyse."""

from __future__ import annotations


class AnalysisError(Exception):
    """A source text could not be analysed. ``str(error)`` is one line naming the cause,
    e.g. ``syntax error at 3:7: ...`` or ``nesting too deep to analyse``."""
