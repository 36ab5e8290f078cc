"""Module names of source files, as ``import`` would spell them.

A file inside packages (folders with ``__init__.py``) is named from the top-most package
folder down. A file outside any package is also importable by its name relative to the
project root (the folder of the nearest ``pyproject.toml``, or its ``src/`` folder):
namespace packages and scripts run from the root. Scripts also import their siblings by
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
    top = path.parent
    while _is_package(top):
        top = top.parent
    package_name = _dotted(path.parent.relative_to(top).parts + _stem_parts(path))
    if package_name:
        names.append(package_name)
    root = project_root(path.parent)
    if root is not None:
        for base in (root / "src", root):
            if base in path.parents:
                name = _dotted(path.parent.relative_to(base).parts + _stem_parts(path))
                if name and name not in names:
                    names.append(name)
    return tuple(names)


def package_of(name: str, is_package: bool) -> str:
    """The package relative imports in module ``name`` start from."""
    return name if is_package else name.rpartition(".")[0]
