"""Output formats. Each renders the sorted results of a run as one string."""

from __future__ import annotations

FORMATS = ("text", "concise", "full", "json", "sarif", "github", "gitlab", "junit")
