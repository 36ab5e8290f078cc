"""What the analysis reports. Shared by the analyzer, the rules, the CLI and the formats.

Positions are 1-based lines and 1-based columns, as users and editors count them.
Edits address the analysed source text by character offsets (``str`` indices), so
the layer that read the file (plain file or notebook) maps them back.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Edit:
    """Replace ``source[start:end]`` with ``content``."""

    start: int
    end: int
    content: str


@dataclass(frozen=True)
class Fix:
    """A set of non-overlapping edits that together repair one finding."""

    description: str
    edits: tuple[Edit, ...]
    safe: bool = True


@dataclass(frozen=True)
class Finding:
    """One diagnostic in one analysed source text."""

    code: str
    message: str
    line: int
    column: int
    end_line: int
    end_column: int
    fix: Fix | None = None
    # The advice for this finding, apart from ``message`` (what is wrong): ruff's
    # ``help:``. None for a plugin's rule that gives none; the formats then fall back
    # (``zerograd_guard.lint.formats.help``).
    hint: str | None = None

    @property
    def sort_key(self) -> tuple[int, int, str]:
        return (self.line, self.column, self.code)
