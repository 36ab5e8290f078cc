"""Cheap source-location capture: the first stack frame outside torch, the guard,
known training libraries (accelerate, Lightning, opacus, transformers...) and the
modules a user lists (an in-house trainer: ``zerograd-guard run --library NAME``,
``pytest --zerograd-guard-library NAME``, ini ``zerograd_guard_library_modules``, or
the ``ZEROGRAD_GUARD_LIBRARY`` environment variable, comma-separated, which guarded
child processes inherit).

A site is kept as ``(code object, line number)``: holding a code object keeps no
locals alive (a frame would keep the whole training step's tensors). Whether a code
object is internal is cached, so a capture costs a few attribute reads per frame.

The hot paths (every clear, every backward pass) keep a *mark* instead: ``(code object,
instruction offset)``, the frame's ``f_lasti``. Its line is looked up only when a
finding is built (``site_of``): ``f_lineno`` decodes the code's line table from its
start, about a microsecond at the end of a 300-line function or script.
"""

from __future__ import annotations

import importlib.util
import linecache
import os
import re
import sys
from collections.abc import Iterable
from types import CodeType

import torch

Site = tuple[CodeType, int]
# (code object, instruction offset): a site whose line is not looked up yet (site_of).
Mark = tuple[CodeType, int]

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


LIBRARY_ENV = "ZEROGRAD_GUARD_LIBRARY"


def _module_locations(name: str) -> list[str] | None:
    """Path prefixes of a module's files (a package's folder, a module's file), found
    without importing it; None when no such module can be found."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec is None:
        return None
    if spec.submodule_search_locations:
        return [os.path.join(location, "") for location in spec.submodule_search_locations]
    return [spec.origin] if spec.origin and os.path.isabs(spec.origin) else []


def _library_dirs(names: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(path for name in names for path in _module_locations(name) or ())


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
internal_by_id = _internal_by_id  # never replaced (cleared in place): read by the hot paths
# Where the last walk from an autograd hook found the user's frame: [its depth below
# ``_backward_user_frame``, its code, the code of the (internal) frame it called].
_backward_probe: list[object] = [0, None, None]


def add_library_modules(names: list[str] | tuple[str, ...]) -> list[str]:
    """Treat these modules' frames like a training library's (sites walk out of them).

    Returns the names that could not be found (the caller reports them); the others
    take effect at once. Dotted names (``company.trainer``) are fine.
    """
    global _INTERNAL_DIRS
    missing = []
    added: list[str] = []
    for name in (name.strip() for name in names):
        if not name:
            continue
        locations = _module_locations(name)
        if locations is None:
            missing.append(name)
        else:
            added += [path for path in locations if path not in _INTERNAL_DIRS]
    if added:
        _INTERNAL_DIRS = (*_INTERNAL_DIRS, *added)
        _internal_by_id.clear()
        _backward_probe[:] = 0, None, None  # its user frame may be a library's now
    return missing


def library_modules_from_environment() -> list[str]:
    return [name for name in os.environ.get(LIBRARY_ENV, "").split(",") if name.strip()]


def is_user_code(code: CodeType) -> bool:
    known = _internal_by_id.get(id(code))
    if known is None:
        known = code, code.co_filename.startswith(_INTERNAL_DIRS)
        _internal_by_id[id(code)] = known
    return not known[1]


def capture_site(skip: int = 1) -> Site | None:
    """The innermost caller frame that is user code, as a site, or None (autograd
    threads); for findings, not hot paths (those keep marks)."""
    return site_of(capture_mark(skip + 1))


def capture_mark(skip: int = 1) -> Mark | None:
    """The innermost caller frame that is user code, its line not looked up yet
    (``site_of``), or None."""
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
            return code, frame.f_lasti
        frame = frame.f_back
    return None


def site_of(mark: Mark | None) -> Site | None:
    """The ``(code, line)`` site of a mark: the line ``f_lineno`` gave at its capture."""
    if mark is None:
        return None
    code, offset = mark
    for start, end, line in code.co_lines():
        if start <= offset < end:
            return code, line if line is not None else code.co_firstlineno
    return code, code.co_firstlineno


def sites_of(marks: Iterable[Mark | None], limit: int) -> list[Site]:
    """The distinct sites of these marks, in order, at most ``limit`` (None skipped)."""
    found: list[Site] = []
    for mark in marks:
        site = site_of(mark)
        if site is not None and site not in found:
            found.append(site)
            if len(found) == limit:
                break
    return found


add_library_modules(library_modules_from_environment())  # unknown names: ignored here

_last_backward: list[object] = [None, None]  # [graph task id, site]
_getframe = sys._getframe


def backward_site(task: int) -> Mark | None:
    """The user line of the running backward pass (graph-task ``task``), captured once
    per backward pass (as a mark: ``site_of``).

    Called from autograd hooks for every parameter; the graph task id tells whether
    this backward pass was already located. (A race between threads can at worst
    attribute the site of a concurrent backward pass.)
    """
    if task != -1 and _last_backward[0] == task:
        return _last_backward[1]  # type: ignore[return-value]
    site = _backward_user_frame()
    _last_backward[0], _last_backward[1] = task, site
    return site


def _backward_user_frame() -> Mark | None:
    """``capture_mark`` for a hook's caller (``backward_site``'s), trying first the depth
    where the last walk found the user's frame.

    Every frame a walk steps through is materialised by Python (and freed again when its
    function returns): about five between an autograd hook and the user's
    ``backward()`` line. The same loop reaches the hook through the same frames each
    step, so the frame at the remembered depth is checked instead, with the one just
    inside it: the same user code object calling the same internal one means the same
    chain (torch's backward frames call no user code); anything else walks.
    """
    depth, user_code, inner_code = _backward_probe
    if depth:
        try:
            frame = _getframe(depth)  # type: ignore[arg-type]
            if frame.f_code is user_code and _getframe(depth - 1).f_code is inner_code:  # type: ignore[operator]
                return user_code, frame.f_lasti  # type: ignore[return-value]
        except ValueError:  # a shallower stack than last time
            pass
    try:
        frame = _getframe(3)  # 0: here, 1: backward_site, 2: the hook, 3: its caller
    except ValueError:
        return None
    depth = 3
    inner_code = None
    while frame is not None:
        code = frame.f_code
        known = _internal_by_id.get(id(code))
        if known is None:
            known = code, code.co_filename.startswith(_INTERNAL_DIRS)
            _internal_by_id[id(code)] = known
        if not known[1]:
            if inner_code is not None:
                _backward_probe[:] = depth, code, inner_code
            return code, frame.f_lasti
        inner_code = code
        frame = frame.f_back
        depth += 1
    return None


def describe_site(site: Site | None) -> str:
    """``path:line  source text`` for a report (``In [5], line 3  text`` for a notebook
    cell); '?' when no user frame was on the stack."""
    if site is None:
        return "? (not on a Python stack: autograd worker thread)"
    code, line = site
    text = linecache.getline(code.co_filename, line).strip()
    cell = notebook_cell(code.co_filename)
    where = (
        f"In [{cell}], line {line}"
        if cell is not None
        else f"{_short_path(code.co_filename)}:{line}"
    )
    return f"{where}  {text}" if text else where


def site_record(site: Site | None) -> dict[str, object] | None:
    """A JSON-ready form of a site (with ``cell``, its execution count, in a notebook)."""
    if site is None:
        return None
    code, line = site
    record: dict[str, object] = {
        "file": code.co_filename,
        "line": line,
        "source": linecache.getline(code.co_filename, line).strip(),
    }
    cell = notebook_cell(code.co_filename)
    if cell is not None:
        record["cell"] = cell
    return record


_OLD_CELL_NAME = re.compile(r"<ipython-input-(\d+)-[0-9a-f]+>")


def notebook_cell(filename: str) -> int | None:
    """The execution count of the IPython/Jupyter cell compiled under ``filename``.

    ipykernel names a cell's code ``.../ipykernel_<pid>/<hash>.py``; IPython's compiler
    (``get_ipython().compile``, ``IPython.core.compilerop.CachingCompiler``) keeps the
    name-to-count map in ``_filename_map``. Older IPython put the count in the name
    itself (``<ipython-input-5-...>``). IPython is never imported here.
    """
    ipython = sys.modules.get("IPython")
    get_shell = getattr(ipython, "get_ipython", None)
    if callable(get_shell):
        try:
            shell = get_shell()
        except Exception:  # a half-initialised shell: no cell names, nothing else
            shell = None
        names = getattr(getattr(shell, "compile", None), "_filename_map", None)
        number = names.get(filename) if isinstance(names, dict) else None
        if isinstance(number, int):
            return number
    match = _OLD_CELL_NAME.fullmatch(filename)
    return int(match[1]) if match else None


def _short_path(path: str) -> str:
    try:
        relative = os.path.relpath(path)
    except ValueError:
        return path
    return path if relative.startswith(".." + os.sep) else relative
