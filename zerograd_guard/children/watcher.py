"""Run a callback right after ``torch`` finishes importing, without importing it ourselves.

A one-shot meta path finder: when ``import torch`` starts, it finds the real spec
through the rest of ``sys.meta_path`` and wraps that spec's loader so the callback
runs once torch's ``__init__`` has completed. Processes that never import torch
pay one string comparison per import.

The boot ``sitecustomize`` loads this file by path, before ``zerograd_guard`` is
imported, so it imports nothing beyond ``sys`` at run time.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from importlib.machinery import ModuleSpec
    from types import ModuleType

WATCHED = "torch"


class TorchImportWatcher:
    """Calls ``on_import()`` after the first successful ``import torch`` (or of ``module``).

    A meta path finder by duck typing (``find_spec``); it never finds anything itself.
    """

    is_zerograd_guard_watcher = True  # how ``leave_parent`` recognises it on sys.meta_path

    def __init__(self, on_import: Callable[[], None], module: str = WATCHED) -> None:
        self._on_import = on_import
        self.module = module

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname != self.module:
            return None
        self.uninstall()
        spec = _find_with_other_finders(fullname, path, target)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        _run_after_exec(spec.loader, self._on_import)
        return spec

    def install(self) -> None:
        if self.module in sys.modules:
            self._on_import()
        elif self not in sys.meta_path:
            sys.meta_path.insert(0, self)

    def uninstall(self) -> None:
        if self in sys.meta_path:
            sys.meta_path.remove(self)


def uninstall_all() -> None:
    """Remove every watcher, whichever copy of this module created it."""
    for finder in list(sys.meta_path):
        if getattr(finder, "is_zerograd_guard_watcher", False):
            sys.meta_path.remove(finder)


def _find_with_other_finders(
    fullname: str, path: Sequence[str] | None, target: ModuleType | None
) -> ModuleSpec | None:
    for finder in sys.meta_path:
        find_spec = getattr(finder, "find_spec", None)
        if find_spec is None:
            continue
        spec = find_spec(fullname, path, target)
        if spec is not None:
            return spec
    return None


def _run_after_exec(loader: object, callback: Callable[[], None]) -> None:
    """Shadow ``loader.exec_module`` on this one loader instance, for one call only."""
    original = loader.exec_module  # type: ignore[attr-defined]

    def exec_module(module: ModuleType) -> None:
        del loader.exec_module  # type: ignore[attr-defined]
        original(module)
        callback()

    loader.exec_module = exec_module  # type: ignore[attr-defined]
