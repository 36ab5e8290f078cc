"""Cheap source-location capture: the first stack frame outside torch, the guard and
known training libraries (accelerate, Lightning, opacus, transformers...).

A site is kept as ``(code object, line number)``: holding a code object keeps no
locals alive (a frame would keep the whole training step's tensors). Whether a code
object is internal is cached, so a capture costs a few attribute reads per frame.
"""

from __future__ import annotations

import importlib.util
import linecache
import os
import sys
from types import CodeType

import torch

Site = tuple[CodeType, int]

# Training libraries whose frames sit between the user's line and torch: a site walks
# out of them to the user's `optimizer.step()` / `accelerator.backward(loss)` /
# `self.manual_backward(loss)` line. Located without importing them.
TRAINING_LIBRARIES = (
    "accelerate",
    "deepspeed",
    "diffusers",
    "ignite",
    "lightning",
    "lightning_fabric",
    "opacus",
    "peft",
    "pytorch_lightning",
    "skorch",
    "timm",
    "transformers",
    "trl",
)


def _library_dirs(names: tuple[str, ...]) -> tuple[str, ...]:
    found = []
    for name in names:
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            continue
        for location in (spec.submodule_search_locations or []) if spec else []:
            found.append(os.path.join(location, ""))
    return tuple(found)


_INTERNAL_DIRS = (
    os.path.dirname(torch.__file__) + os.sep,
    os.path.dirname(os.path.dirname(__file__)) + os.sep,
    os.path.dirname(os.__file__) + os.sep + "contextlib.py",
    os.path.dirname(os.__file__) + os.sep + "functools.py",
    *_library_dirs(TRAINING_LIBRARIES),
)
# Keyed by ``id()``, not by the code object: hashing a code object hashes its constants
# and names afresh on every lookup (microseconds for torch's long ``backward``). The
# entry holds the code object, so its id cannot be reused by another one.
_internal_by_id: dict[int, tuple[CodeType, bool]] = {}


def is_user_code(code: CodeType) -> bool:
    known = _internal_by_id.get(id(code))
    if known is None:
        known = code, code.co_filename.startswith(_INTERNAL_DIRS)
        _internal_by_id[id(code)] = known
    return not known[1]


def capture_site(skip: int = 1) -> Site | None:
    """Return the innermost caller frame that is user code, or None (autograd threads)."""
    try:
        frame = sys._getframe(skip)
    except ValueError:
        return None
    while frame is not None:
        code = frame.f_code
        known = _internal_by_id.get(id(code))
        if known is None:
            known = code, code.co_filename.startswith(_INTERNAL_DIRS)
            _internal_by_id[id(code)] = known
        if not known[1]:
            return code, frame.f_lineno
        frame = frame.f_back
    return None


_last_backward: list[object] = [None, None]  # [graph task id, site]


def backward_site(task: int) -> Site | None:
    """The user line of the running backward pass (graph-task ``task``), captured once
    per backward pass.

    Called from autograd hooks for every parameter; the graph task id tells whether
    this backward pass was already located. (A race between threads can at worst
    attribute the site of a concurrent backward pass.)
    """
    if task != -1 and _last_backward[0] == task:
        return _last_backward[1]  # type: ignore[return-value]
    site = capture_site(2)
    _last_backward[0], _last_backward[1] = task, site
    return site


def describe_site(site: Site | None) -> str:
    """``path:line  source text`` for a report; '?' when no user frame was on the stack."""
    if site is None:
        return "? (not on a Python stack: autograd worker thread)"
    code, line = site
    text = linecache.getline(code.co_filename, line).strip()
    where = f"{_short_path(code.co_filename)}:{line}"
    return f"{where}  {text}" if text else where


def site_record(site: Site | None) -> dict[str, object] | None:
    """A JSON-ready form of a site."""
    if site is None:
        return None
    code, line = site
    return {
        "file": code.co_filename,
        "line": line,
        "source": linecache.getline(code.co_filename, line).strip(),
    }


def _short_path(path: str) -> str:
    try:
        relative = os.path.relpath(path)
    except ValueError:
        return path
    return path if relative.startswith(".." + os.sep) else relative
