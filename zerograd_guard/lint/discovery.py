"""Which files to lint: walk directories, skip what nobody wants linted.

Directory walks collect ``*.py``, ``*.pyi`` and ``*.ipynb`` files and never enter
VCS folders, virtual environments (any folder holding ``pyvenv.cfg``), build
outputs, caches or configured excludes. A file named on the command line is
always linted, unless ``--force-exclude`` applies the excludes to it too.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
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
    errors: list[tuple[str, str]] = field(default_factory=list)  # (folder, cause)


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


def _walk(root: Path, resolver: ConfigResolver, errors: list[tuple[str, str]]) -> Iterable[Path]:
    """Linted files under ``root`` in ``os.walk`` order (sorted, top-down), without
    recursion (a tree deeper than the path limit must not raise ``RecursionError``).

    A folder that cannot be listed or checked (no read permission, a path longer than
    the OS allows) is an error in ``errors``; the walk goes on with the others.
    """
    pending = [root]
    while pending:
        here = pending.pop()
        try:
            with os.scandir(here) as listing:
                entries = sorted(listing, key=lambda entry: entry.name)
        except OSError as exc:
            errors.append((str(here), f"cannot read directory: {exc.strerror or exc}"))
            continue
        folders: list[Path] = []
        for entry in entries:
            path = here / entry.name
            if _is_folder(entry):
                if entry.is_symlink():
                    continue  # as os.walk: listed, never followed
                try:
                    skipped = _skipped_dir(path, resolver)
                except OSError as exc:
                    errors.append((str(path), f"cannot read directory: {exc.strerror or exc}"))
                    continue
                if not skipped:
                    folders.append(path)
                continue
            if not entry.name.endswith(LINTED_SUFFIXES):
                continue
            try:
                config = resolver.for_path(path, is_dir=False)
            except OSError as exc:
                errors.append((str(path), f"cannot read: {exc.strerror or exc}"))
                continue
            if not matches_exclude(path, config.exclude, config.root):
                yield path
        pending.extend(reversed(folders))


def _is_folder(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


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
    errors: list[tuple[str, str]] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            candidates: Iterable[Path] = _walk(path, resolver, errors)
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
    return Discovered(files=files, missing=missing, errors=errors)
