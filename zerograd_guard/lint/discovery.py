"""Which files to lint: walk directories, skip what nobody wants linted.

Directory walks collect ``*.py``, ``*.pyi`` and ``*.ipynb`` files and never enter
VCS folders, virtual environments (any folder holding ``pyvenv.cfg``), build
outputs, caches, configured excludes or (``--respect-gitignore``, the default) what
``.gitignore`` files ignore. A file named on the command line is always linted, unless
``--force-exclude`` applies the excludes to it too.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from zerograd_guard.lint.config import ConfigResolver
from zerograd_guard.lint.paths import compile_patterns, matches, read_gitignore, relative_to

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


def matches_exclude(path: Path, patterns: Sequence[str], root: Path, is_dir: bool = False) -> bool:
    """Whether ``path`` matches the ``exclude`` patterns (gitignore semantics, see ``paths``)."""
    return matches(patterns, path, root, is_dir)


class _GitIgnores:
    """The ``.gitignore`` files that govern a walk: those of the walked folders and of
    their parents up to the enclosing git work tree."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self._by_dir: dict[Path, tuple[tuple[Path, tuple[str, ...]], ...]] = {}

    def _governing(self, folder: Path) -> tuple[tuple[Path, tuple[str, ...]], ...]:
        cached = self._by_dir.get(folder)
        if cached is None:
            inherited: tuple[tuple[Path, tuple[str, ...]], ...] = ()
            if not (folder / ".git").exists() and folder.parent != folder:
                inherited = self._governing(folder.parent)
            own = read_gitignore(folder)
            cached = (*inherited, (folder, own)) if own else inherited
            self._by_dir[folder] = cached
        return cached

    def ignored(self, path: Path, is_dir: bool) -> bool:
        if not self.enabled:
            return False
        absolute = Path(os.path.abspath(path))
        ignored = False
        # Deeper files override shallower ones; the last matching pattern decides.
        for folder, patterns in self._governing(absolute.parent):
            decision = _decision(patterns, absolute, folder, is_dir)
            if decision is not None:
                ignored = decision
        return ignored


def _decision(patterns: tuple[str, ...], path: Path, folder: Path, is_dir: bool) -> bool | None:
    """What one ``.gitignore`` says about ``path``: ignored, re-included (``!``), or nothing."""
    relative = relative_to(path, folder)
    if relative is None:
        return None
    result = compile_patterns(patterns).check_file(relative + "/" if is_dir else relative)
    return result.include


def _skipped_dir(directory: Path, resolver: ConfigResolver, gitignores: _GitIgnores) -> bool:
    if directory.name in SKIPPED_DIRS or (directory / "pyvenv.cfg").exists():
        return True
    config = resolver.for_path(directory, is_dir=True)
    if matches_exclude(directory, config.exclude, config.root, is_dir=True):
        return True
    return gitignores.ignored(directory, is_dir=True)


def _walk(
    root: Path,
    resolver: ConfigResolver,
    gitignores: _GitIgnores,
    errors: list[tuple[str, str]],
) -> Iterable[Path]:
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
                    skipped = _skipped_dir(path, resolver, gitignores)
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
            if not matches_exclude(path, config.exclude, config.root) and not gitignores.ignored(
                path, is_dir=False
            ):
                yield path
        pending.extend(reversed(folders))


def _is_folder(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def _force_excluded(path: Path, resolver: ConfigResolver) -> bool:
    absolute = Path(os.path.abspath(path))
    if any(part in SKIPPED_DIRS for part in absolute.parts[:-1]):
        return True
    config = resolver.for_path(path, is_dir=False)
    # gitignore semantics: a pattern naming a folder also matches the files inside it.
    return matches_exclude(path, config.exclude, config.root)


def discover(
    paths: Sequence[str],
    resolver: ConfigResolver,
    force_exclude: bool,
    respect_gitignore: bool = True,
) -> Discovered:
    """Expand command-line paths into a sorted, de-duplicated list of files.

    ``respect_gitignore``: directory walks skip what ``.gitignore`` files ignore (files
    named on the command line are linted all the same).
    """
    gitignores = _GitIgnores(respect_gitignore)
    seen: set[Path] = set()
    files: list[Path] = []
    missing: list[str] = []
    errors: list[tuple[str, str]] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            candidates: Iterable[Path] = _walk(path, resolver, gitignores, errors)
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
