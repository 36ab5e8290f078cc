"""Rule selection: ``select`` / ``ignore`` / ``per-file-ignores`` selectors -> rule codes.

A selector is ``ALL``, a full code (``ZG101``) or a code prefix (``ZG1``). A selector
that matches no known rule is an error: a typo must not silently disable a check.
Layers are applied in order (config, then command line): a layer's ``select``
replaces what earlier layers chose, its ``ignore`` removes from the result.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from zerograd_guard.lint.paths import matches


class SelectionError(Exception):
    """An unknown selector; ``str()`` is a one-line message."""


def expand(selectors: Iterable[str], known: Sequence[str], origin: str) -> set[str]:
    chosen: set[str] = set()
    for raw in selectors:
        selector = raw.strip().upper()
        if not selector:
            continue
        if selector == "ALL":
            chosen.update(known)
            continue
        matches = {code for code in known if code.startswith(selector)}
        if not matches:
            raise SelectionError(
                f"error: unknown rule selector {raw!r} in {origin} "
                f"(known codes: {', '.join(sorted(known))})"
            )
        chosen.update(matches)
    return chosen


def resolve(
    known: Sequence[str],
    layers: Iterable[tuple[str, Sequence[str] | None, Sequence[str], Sequence[str]]],
) -> frozenset[str]:
    """``layers`` = (origin, select or None, extend_select, ignore) in precedence order."""
    selected = set(known)
    for origin, select, extend_select, ignore in layers:
        if select is not None:
            selected = expand(select, known, origin)
        selected |= expand(extend_select, known, origin)
        selected -= expand(ignore, known, origin)
    return frozenset(selected)


def per_file_ignored(
    per_file_ignores: Sequence[tuple[str, Sequence[str]]],
    path: Path,
    root: Path,
    known: Sequence[str],
    origin: str,
) -> set[str]:
    """Codes that ``per-file-ignores`` switches off for ``path``."""
    if not per_file_ignores:
        return set()
    ignored: set[str] = set()
    for pattern, codes in per_file_ignores:
        # gitignore semantics (``paths``): ``*_test.py`` at any depth, ``./tests/*.py``
        # and ``tests/*.py`` in the root's tests folder only.
        if matches((pattern,), path, root):
            ignored |= expand(codes, known, origin)
    return ignored
