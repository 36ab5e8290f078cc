"""Fold the repeats of one finding into one entry: "(also at N later step(s): ...)".

A bug in a training loop recurs at every optimizer step. ``zerograd-guard run`` and
the pytest plugin's warn mode both show each distinct finding once (code, optimizer,
parameters, step line; per process), with the later steps it recurred at.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

MAX_STEPS_LISTED = 8


def fold_repeats(findings: Sequence[tuple[dict[str, Any], str]]) -> list[tuple[int, str]]:
    """``(index of the first occurrence, its text with the later steps appended)`` for
    each distinct finding, in order of first occurrence.

    ``findings`` are ``(details, text)`` pairs: ``details`` as ``Finding.as_dict()``
    (or a child's record) gives them, ``text`` the rendered finding.
    """
    first: dict[tuple[object, ...], tuple[int, str]] = {}
    later_steps: dict[tuple[object, ...], list[str]] = {}
    for index, (details, text) in enumerate(findings):
        key = _identity(details)
        if key in first:
            later_steps[key].append(str(details.get("step", "?")))
        else:
            first[key] = (index, text)
            later_steps[key] = []
    folded = []
    for key, (index, text) in first.items():
        repeats = later_steps[key]
        if repeats:
            shown = ", ".join(repeats[:MAX_STEPS_LISTED])
            more = ", ..." if len(repeats) > MAX_STEPS_LISTED else ""
            text += f"\n  (also at {len(repeats)} later step(s): {shown}{more})"
        folded.append((index, text))
    return folded


def _identity(details: dict[str, Any]) -> tuple[object, ...]:
    site = details.get("step_site") or {}
    return (
        details.get("pid"),
        details.get("code"),
        details.get("optimizer"),
        tuple(details.get("parameters") or ()),
        site.get("file"),
        site.get("line"),
    )
