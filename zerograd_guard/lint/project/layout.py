"""Module names of source files, as ``import`` would spell them.

A file inside packages (folders with ``__init__.py``) is named from the top-most package
folder down, also through a folder without one inside a package (a namespace portion).
A file outside any package is also importable by its name relative to the project root
(the folder of the nearest ``pyproject.toml``, or its ``src/`` folder): namespace
packages and scripts run from the root. Scripts also import their siblings by
bare name (``import utils`` next to ``train.py``): that name is resolved in the importer's
own folder (see ``graph``), not here. A name claimed by two files is ambiguous and
resolves to neither.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

PACKAGE_MARKER = "__init__.py"
PROJECT_MARKER = "pyproject.toml"


@lru_cache(maxsize=4096)
def _is_package(directory: Path) -> bool:
    return (directory / PACKAGE_MARKER).is_file()


@lru_cache(maxsize=4096)
def project_root(directory: Path) -> Path | None:
    """The nearest folder at or above ``directory`` holding a ``pyproject.toml``."""
    for folder in (directory, *directory.parents):
        if (folder / PROJECT_MARKER).is_file():
            return folder
    return None


def absolute(path: Path) -> Path:
    """``path`` made absolute without resolving symlinks (a symlink loop must not
    raise here: the file's own task reports it)."""
    return Path(os.path.abspath(path))


def _dotted(parts: tuple[str, ...]) -> str | None:
    if not parts or not all(part.isidentifier() for part in parts):
        return None
    return ".".join(parts)


def _stem_parts(path: Path) -> tuple[str, ...]:
    return () if path.name == PACKAGE_MARKER else (path.stem,)


def module_names(path: Path) -> tuple[str, ...]:
    """Every dotted name ``path`` (absolute) may be imported as, most specific first."""
    names: list[str] = []
    for prefix in _folder_prefixes(path.parent):
        name = _dotted(prefix + _stem_parts(path))
        if name and name not in names:
            names.append(name)
    return tuple(names)


@lru_cache(maxsize=4096)
def _folder_prefixes(folder: Path) -> tuple[tuple[str, ...], ...]:
    """The module-name parts of ``folder`` each name of a file in it starts with: from
    its top-most package folder, then from the project root's ``src/`` and the root."""
    top = folder
    while _is_package(top):
        top = top.parent
    prefixes = [folder.relative_to(top).parts]
    inside = _namespace_in_package(folder)
    if inside is not None:
        prefixes.insert(0, inside)  # what its relative imports start from
    root = project_root(folder)
    if root is not None:
        for base in (root / "src", root):
            if base == folder or base in folder.parents:
                prefixes.append(folder.relative_to(base).parts)
    return tuple(prefixes)


# How many folders without ``__init__.py`` may lie between a file and the package they
# are portions of (``learning_strategies/SOP/sop.py`` in a package ``learning_strategies``).
MAX_NAMESPACE_LEVELS = 2


def _namespace_in_package(folder: Path) -> tuple[str, ...] | None:
    """The module-name parts of ``folder`` when it has no ``__init__.py`` but lies inside
    a package within ``MAX_NAMESPACE_LEVELS`` folders: a namespace portion of that
    package (PEP 420), importable as ``package.folder`` and so named, which is where
    ``from ..SOP.sop import SOP`` in it starts (noisy-labels' strategies); None else."""
    if _is_package(folder):
        return None
    inner = folder.parent
    for _ in range(MAX_NAMESPACE_LEVELS):
        if _is_package(inner):
            top = inner
            while _is_package(top):
                top = top.parent
            return folder.relative_to(top).parts
        if inner.parent == inner:
            return None
        inner = inner.parent
    return None


def package_of(name: str, is_package: bool) -> str:
    """The package relative imports in module ``name`` start from."""
    return name if is_package else name.rpartition(".")[0]
