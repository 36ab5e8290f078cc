"""One path matcher for ``exclude``, ``extend-exclude``, ``per-file-ignores`` and
``.gitignore`` files: gitignore semantics, by ``pathspec``.

Patterns are relative to a root (the folder of the configuration that holds them, or of
the ``.gitignore``). As in git: a pattern without a ``/`` (other than a trailing one)
matches a name at any depth (``*_test.py``, ``outputs``); a pattern with one is anchored
at the root (``legacy/*.py``: not ``legacy/sub/x.py``; ``legacy/**/*.py`` for every
depth); a trailing ``/`` matches folders only; ``!`` re-includes. One extension for
configuration files: a leading ``./`` means the root, as users write it
(``./tests/*.py``).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pathspec


def _normalised(pattern: str) -> str:
    if pattern.startswith("./"):
        return "/" + pattern[2:].lstrip("/")
    return pattern


@lru_cache(maxsize=256)
def compile_patterns(patterns: tuple[str, ...]) -> pathspec.PathSpec:
    # Imported on first use: a run under no ``.gitignore`` and no exclude pattern never
    # needs it, and importing it is a good part of a warm run's start-up.
    import pathspec

    return pathspec.GitIgnoreSpec.from_lines([_normalised(pattern) for pattern in patterns])


def relative_to(path: Path, root: Path) -> str | None:
    """``path`` relative to ``root`` in POSIX form, or None when it is outside ``root``."""
    absolute = Path(os.path.abspath(path))
    try:
        return absolute.relative_to(root).as_posix()
    except ValueError:
        return None


def matches(patterns: Iterable[str], path: Path, root: Path, is_dir: bool = False) -> bool:
    """Whether ``path`` (a folder when ``is_dir``) matches the gitignore-style ``patterns``.

    A path outside ``root`` never matches: the patterns say nothing about it.
    """
    key = tuple(patterns)
    if not key:
        return False
    relative = relative_to(path, root)
    if relative is None or relative == ".":
        return False
    return compile_patterns(key).match_file(relative + "/" if is_dir else relative)


def read_gitignore(folder: Path) -> tuple[str, ...]:
    """The patterns of ``folder/.gitignore`` (none when it is absent or unreadable)."""
    try:
        text = (folder / ".gitignore").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ()
    return tuple(text.splitlines())
