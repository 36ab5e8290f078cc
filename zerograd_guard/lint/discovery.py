"""Which files to lint: walk directories, skip what nobody wants linted.

Directory walks collect ``*.py``, ``*.pyi`` and ``*.ipynb`` files and never enter
VCS folders, virtual environments (any folder holding ``pyvenv.cfg``), build
outputs, caches or configured excludes. A file named on the command line is
always linted, unless ``--force-exclude`` applies the excludes to it too.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fnmatch import fnmatch
from pathlib import Path

from zerograd_guard.lint.config import ConfigResolver

LINTED_SUFFIXES = (".py", ".pyi", ".ipynb")
SKIPPED_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        ".venv",
        "venv",
        ".tox",
        ".nox",
        ".eggs",
        "build",
        "dist",
        "node_modules",
        "__pycache__",
        "__pypackages__",
        ".ipynb_checkpoints",
        ".direnv",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".zerograd_cache",
    }
)


@dataclass(frozen=True)
class Discovered:
    files: list[Path]
    missing: list[str]


def _relative(path: Path, root: Path) -> str:
    absolute = Path(os.path.abspath(path))
    try:
        return absolute.relative_to(root).as_posix()
    except ValueError:
        return absolute.as_posix()


def matches_exclude(path: Path, patterns: Sequence[str], root: Path) -> bool:
    """gitignore-like: a pattern without ``/`` matches any path component."""
    if not patterns:
        return False
    relative = _relative(path, root)
    parts = relative.split("/")
    for raw in patterns:
        pattern = raw.rstrip("/")
        if "/" in pattern:
            pattern = pattern.removeprefix("./")
            prefixes = ("/".join(parts[: i + 1]) for i in range(len(parts)))
            if any(fnmatch(prefix, pattern) for prefix in prefixes):
                return True
        elif any(fnmatch(part, pattern) for part in parts):
            return True
    return False


def _skipped_dir(directory: Path, resolver: ConfigResolver) -> bool:
    if directory.name in SKIPPED_DIRS or (directory / "pyvenv.cfg").exists():
        return True
    config = resolver.for_path(directory, is_dir=True)
    return matches_exclude(directory, config.exclude, config.root)


def _walk(root: Path, resolver: ConfigResolver) -> Iterable[Path]:
    for current, dirnames, filenames in os.walk(root):
        here = Path(current)
        dirnames[:] = sorted(d for d in dirnames if not _skipped_dir(here / d, resolver))
        for name in sorted(filenames):
            if not name.endswith(LINTED_SUFFIXES):
                continue
            path = here / name
            config = resolver.for_path(path, is_dir=False)
            if not matches_exclude(path, config.exclude, config.root):
                yield path


def _force_excluded(path: Path, resolver: ConfigResolver) -> bool:
    if any(part in SKIPPED_DIRS for part in Path(os.path.abspath(path)).parts[:-1]):
        return True
    config = resolver.for_path(path, is_dir=False)
    return matches_exclude(path, config.exclude, config.root)


def discover(paths: Sequence[str], resolver: ConfigResolver, force_exclude: bool) -> Discovered:
    """Expand command-line paths into a sorted, de-duplicated list of files."""
    seen: set[Path] = set()
    files: list[Path] = []
    missing: list[str] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            candidates: Iterable[Path] = _walk(path, resolver)
        elif path.is_file():
            candidates = [] if force_exclude and _force_excluded(path, resolver) else [path]
        else:
            missing.append(raw)
            continue
        for candidate in candidates:
            key = Path(os.path.abspath(candidate))
            if key not in seen:
                seen.add(key)
                files.append(candidate)
    return Discovered(files=files, missing=missing)
