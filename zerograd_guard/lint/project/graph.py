"""The run's modules together: what an import refers to, and what a file depends on.

Resolution follows what Python would do, within the linted set only: the longest dotted
prefix that names a module, then a definition of that module, or a name it imports
(re-exports in ``__init__``), or a name a ``*`` import brings in. Chains are bounded and
cycle-safe; anything that does not resolve to exactly one linted file is unknown.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from zerograd_guard.lint.project.index import ModuleEntry
from zerograd_guard.lint.project.layout import absolute

MAX_CHAIN = 12  # re-export hops followed when resolving one name


@dataclass(frozen=True)
class Target:
    """What a dotted name resolved to: ``entry`` itself (``attribute == ()``) or the
    definition ``attribute[0]`` in it (``attribute[1:]``: a method of that class)."""

    entry: ModuleEntry
    attribute: tuple[str, ...] = ()


@dataclass(frozen=True)
class ProjectContext:
    """What one task needs to know about the project (small, picklable).

    ``key`` changes whenever any file the analysis may read changes (the file's import
    closure within the linted set); ``candidate``: the file may have a finding although
    its own text has no backward (it calls one in another module).
    """

    path: str
    key: str
    candidate: bool


class Project:
    def __init__(self, entries: Iterable[ModuleEntry]) -> None:
        self.entries: dict[str, ModuleEntry] = {}
        claims: dict[str, list[ModuleEntry]] = {}
        siblings: dict[tuple[str, str], ModuleEntry] = {}
        for entry in entries:
            self.entries[entry.path] = entry
            for name in entry.names:
                claims.setdefault(name, []).append(entry)
            folder, file = os.path.split(entry.path)
            if file == "__init__.py":
                folder, file = os.path.split(folder)
                siblings[(folder, file)] = entry
            elif file.endswith(".py") and entry.names:
                siblings.setdefault((folder, file[:-3]), entry)
        self.by_name = {name: found[0] for name, found in claims.items() if len(found) == 1}
        self._siblings = siblings
        self._closures: dict[str, frozenset[str]] = {}
        self._flags: dict[str, set[tuple[str, str]]] | None = None

    # -- resolution ---------------------------------------------------------------------

    def module(self, name: str, importer: ModuleEntry | None = None) -> ModuleEntry | None:
        found = self.by_name.get(name)
        if importer is not None and "." not in name:
            sibling = self._siblings.get((os.path.dirname(importer.path), name))
            if sibling is not None and found is not None and sibling is not found:
                return None  # which one Python imports depends on how it is run
            found = found or sibling
        return found

    def resolve(self, dotted: str, importer: ModuleEntry | None, hops: int = 0) -> Target | None:
        """The linted definition or module ``dotted`` (absolute) names, seen from
        ``importer`` (for sibling imports), or None."""
        if hops > MAX_CHAIN:
            return None
        parts = dotted.split(".")
        for cut in range(len(parts), 0, -1):
            entry = self.module(".".join(parts[:cut]), importer)
            if entry is not None:
                return self._inside(entry, tuple(parts[cut:]), hops)
        return None

    def _inside(self, entry: ModuleEntry, rest: tuple[str, ...], hops: int) -> Target | None:
        if not rest:
            return Target(entry)
        first = rest[0]
        if first in entry.definitions:
            return Target(entry, rest)
        if first in entry.imports:
            tail = ".".join((entry.imports[first], *rest[1:]))
            return self.resolve(tail, entry, hops + 1)
        for origin in entry.star:
            found = self.resolve(".".join((origin, *rest)), entry, hops + 1)
            if found is not None:
                return found
        return None

    def resolve_local(self, entry: ModuleEntry, local: str) -> Target | None:
        """``local`` as written in ``entry`` (``train_step``, ``steps.train_step``)."""
        head, _, tail = local.partition(".")
        if head in entry.definitions:
            return None  # defined in the file itself: the file's own model has it
        origin = entry.imports.get(head)
        if origin is None:
            for star in entry.star:
                found = self.resolve(f"{star}.{local}", entry)
                if found is not None:
                    return found
            return None
        return self.resolve(f"{origin}.{tail}" if tail else origin, entry)

    # -- what may touch gradients ---------------------------------------------------------

    def reaches(self, entry: ModuleEntry, name: str, flag: str = "backward") -> bool:
        """Whether definition ``name`` of ``entry`` may run a backward (``flag ==
        "backward"``) or touch gradients at all (``"touches"``): its own text says so, or
        it refers to a linted definition that may."""
        if self._flags is None:
            self._flags = self._propagate()
        return (entry.path, name) in self._flags[flag]

    def _propagate(self) -> dict[str, set[tuple[str, str]]]:
        """Both flags for every definition at once, as a fixpoint over the references
        (computed whole, so the answer never depends on the order of the questions)."""
        users: dict[tuple[str, str], list[tuple[str, str]]] = {}
        flags: dict[str, set[tuple[str, str]]] = {"backward": set(), "touches": set()}
        for entry in self.entries.values():
            for name, definition in entry.definitions.items():
                node = (entry.path, name)
                for flag in flags:
                    if getattr(definition, flag):
                        flags[flag].add(node)
                for used in self._used(entry, name, definition.refs):
                    users.setdefault(used, []).append(node)
        for found in flags.values():
            pending = list(found)
            while pending:
                for user in users.get(pending.pop(), ()):
                    if user not in found:
                        found.add(user)
                        pending.append(user)
        return flags

    def _used(
        self, entry: ModuleEntry, name: str, refs: frozenset[str]
    ) -> Iterable[tuple[str, str]]:
        for ref in refs:
            if ref in entry.definitions:
                if ref != name:
                    yield (entry.path, ref)
            elif ref in entry.imports:
                target = self.resolve_local(entry, ref)
                if target is None:
                    continue
                if target.attribute:
                    yield (target.entry.path, target.attribute[0])
                else:
                    yield from ((target.entry.path, other) for other in target.entry.definitions)

    def _target_reaches(self, target: Target, flag: str) -> bool:
        if target.attribute:
            return self.reaches(target.entry, target.attribute[0], flag)
        return self._module_reaches(target.entry, flag, set())

    def _module_reaches(self, entry: ModuleEntry, flag: str, seen: set[str]) -> bool:
        """A module used as a name (``import pkg.steps``, ``from pkg import steps``) may
        lead to: its definitions, what it re-exports, and its submodules."""
        if entry.path in seen:
            return False
        seen.add(entry.path)
        if any(self.reaches(entry, name, flag) for name in entry.definitions):
            return True
        for origin in (*entry.imports.values(), *entry.star):
            target = self.resolve(origin, entry)
            if target is not None and (
                self.reaches(target.entry, target.attribute[0], flag)
                if target.attribute
                else self._module_reaches(target.entry, flag, seen)
            ):
                return True
        name = entry.name
        if name is None:
            return False
        prefix = name + "."
        return any(
            self._module_reaches(self.by_name[other], flag, seen)
            for other in self.by_name
            if other.startswith(prefix)
        )

    def calls_backward_elsewhere(self, entry: ModuleEntry) -> bool:
        """Whether ``entry`` uses an imported name that resolves to a linted definition
        (or module) that may run a backward."""
        for local in entry.imports:
            if local not in entry.references:
                continue
            target = self.resolve_local(entry, local)
            if (
                target is not None
                and target.entry is not entry
                and self._target_reaches(target, "backward")
            ):
                return True
        return False

    # -- dependencies -----------------------------------------------------------------------

    def _direct(self, entry: ModuleEntry) -> set[str]:
        found: set[str] = set()
        for origin in (*entry.imports.values(), *entry.star):
            target = self.resolve(origin, entry)
            if target is not None:
                found.add(target.entry.path)
            # ``import a.b`` also runs ``a/__init__``: its re-exports may be read
            parts = origin.split(".")
            for cut in range(1, len(parts)):
                package = self.module(".".join(parts[:cut]), entry)
                if package is not None:
                    found.add(package.path)
        found.discard(entry.path)
        return found

    def closure(self, entry: ModuleEntry) -> frozenset[str]:
        """Every linted file the analysis of ``entry`` may read (its import closure)."""
        known = self._closures.get(entry.path)
        if known is not None:
            return known
        seen: set[str] = set()
        pending = [entry.path]
        while pending:
            path = pending.pop()
            if path in seen:
                continue
            seen.add(path)
            pending.extend(self._direct(self.entries[path]) - seen)
        seen.discard(entry.path)
        result = frozenset(seen)
        self._closures[entry.path] = result
        return result

    def context(self, path: Path) -> ProjectContext | None:
        """The task context of ``path`` (None: not indexed, e.g. it cannot be read)."""
        entry = self.entries.get(str(absolute(path)))
        if entry is None:
            return None
        digest = hashlib.sha256()
        for dependency in sorted(self.closure(entry)):
            digest.update(f"{dependency}\0{self.entries[dependency].digest}\0".encode())
        candidate = not entry.backward and self.calls_backward_elsewhere(entry)
        return ProjectContext(path=entry.path, key=digest.hexdigest(), candidate=candidate)
