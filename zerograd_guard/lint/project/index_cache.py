"""The project index of the last run, kept in the cache folder, so a warm run does not
scan unchanged files again (it still reads and hashes them: the digest decides).

One JSON file per analyzer (``_version.analyzer``) and set of configured markers; an
entry is reused only when its file's digest and module names are unchanged. A file that
cannot be read or parsed is ignored and rewritten, never trusted (JSON, not pickle:
nothing in it runs).
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from zerograd_guard._version import analyzer
from zerograd_guard.lint.project.graph import ProjectContext
from zerograd_guard.lint.project.index import Definition, ModuleEntry

_FORMAT = "12"


def _file(directory: Path, markers: tuple[str, ...]) -> Path:
    digest = hashlib.sha256("\0".join((_FORMAT, analyzer(), *markers)).encode()).hexdigest()
    return directory / "project" / f"index-{digest[:16]}.json"


def _to_json(entry: ModuleEntry) -> dict[str, Any]:
    data = dataclasses.asdict(entry)
    for key in (
        "names",
        "star",
        "loop_references",
        "method_calls",
        "dotted_uses",
        "built_classes",
    ):
        data[key] = sorted(data[key])
    return data


def _from_json(data: dict[str, Any]) -> ModuleEntry:
    definitions = {
        name: Definition(
            start=int(item["start"]),
            end=int(item["end"]),
            line=int(item["line"]),
            is_class=bool(item["is_class"]),
            bases=tuple(str(base) for base in item["bases"]),
        )
        for name, item in data["definitions"].items()
    }
    return ModuleEntry(
        path=str(data["path"]),
        names=tuple(data["names"]),
        digest=str(data["digest"]),
        is_package=bool(data["is_package"]),
        backward=bool(data["backward"]),
        steps=bool(data["steps"]),
        marked=bool(data["marked"]),
        imports={str(k): str(v) for k, v in data["imports"].items()},
        star=tuple(data["star"]),
        definitions=definitions,
        loop_references=frozenset(data["loop_references"]),
        has_loop=bool(data["has_loop"]),
        method_calls=frozenset(data["method_calls"]),
        dotted_uses=frozenset(data["dotted_uses"]),
        built_classes=frozenset(data["built_classes"]),
    )


def load(directory: Path | None, markers: tuple[str, ...]) -> dict[str, ModuleEntry]:
    """The entries of the last run's index (empty when there is none or it is broken)."""
    return load_all(directory, markers)[0]


def load_all(
    directory: Path | None, markers: tuple[str, ...]
) -> tuple[dict[str, ModuleEntry], dict[str, ProjectContext]]:
    """The last run's entries and the task contexts computed from them (valid only for
    exactly those entries: ``build.build_project`` checks)."""
    if directory is None:
        return {}, {}
    try:
        raw = json.loads(_file(directory, markers).read_text(encoding="utf-8"))
        entries = {path: _from_json(item) for path, item in raw["entries"].items()}
        contexts = {
            path: ProjectContext(path=path, key=str(key), candidate=bool(candidate))
            for path, (key, candidate) in raw["contexts"].items()
        }
        return entries, contexts
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}, {}


def save(
    directory: Path | None,
    markers: tuple[str, ...],
    entries: list[ModuleEntry],
    contexts: dict[str, ProjectContext] | None = None,
) -> None:
    """Write the index (and the contexts computed from it) atomically; a cache that
    cannot be written is skipped."""
    if directory is None:
        return
    target = _file(directory, markers)
    payload = json.dumps(
        {
            "entries": {entry.path: _to_json(entry) for entry in entries},
            "contexts": {
                path: [context.key, context.candidate] for path, context in (contexts or {}).items()
            },
        }
    )
    try:
        from zerograd_guard.lint.cache import ensure_cache_dir

        ensure_cache_dir(directory)
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=target.parent, suffix=".tmp")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as stream:
                stream.write(payload)
            os.replace(temporary, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
    except OSError:
        return
