"""``--output-format gitlab``: a GitLab Code Quality report (``artifacts:reports:codequality``).

A JSON array of issues with ``description``, ``check_name``, ``fingerprint``,
``severity`` and ``location.path`` / ``location.lines.begin``, the subset of the
Code Climate format GitLab reads. The fingerprint hashes the path, the code, the
reported line's text and its occurrence, not the line number, so an issue keeps its
identity across edits above it (as the SARIF fingerprint does). The description is the
message; the fix hint (:mod:`zerograd_guard.lint.formats.help`) is the issue's
``content.body``, the Code Climate field for more about an issue.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from zerograd_guard.lint.formats.help import help_text
from zerograd_guard.lint.runner import Reported

# Our levels -> GitLab's severities (info, minor, major, critical, blocker).
_SEVERITIES = {"error": "major", "warning": "minor", "note": "info"}


def _fingerprint(item: Reported, occurrence: int) -> str:
    material = "\0".join([item.path, str(item.cell or ""), item.code, item.source_line])
    material += f"\0{occurrence}"
    return hashlib.sha256(material.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def render(items: Sequence[Reported], levels: Mapping[str, str]) -> str:
    seen: dict[tuple[str, int | None, str, str], int] = {}
    issues: list[dict[str, Any]] = []
    for item in items:
        key = (item.path, item.cell, item.code, item.source_line)
        seen[key] = seen.get(key, 0) + 1
        cell = f"cell {item.cell}: " if item.cell is not None else ""
        issue: dict[str, Any] = {
            "type": "issue",
            "check_name": item.code,
            "description": f"{item.code} {cell}{item.message}",
            "categories": ["Bug Risk"],
            "fingerprint": _fingerprint(item, seen[key]),
            "severity": _SEVERITIES.get(levels.get(item.code, "error"), "major"),
            "location": {"path": item.path, "lines": {"begin": item.line}},
        }
        hint = help_text(item)
        if hint:
            issue["content"] = {"body": hint}
        issues.append(issue)
    return json.dumps(issues, indent=2, ensure_ascii=True) + "\n"
