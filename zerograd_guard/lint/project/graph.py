"""The run's modules together: what an import refers to, and what a file depends on.

Resolution follows what Python would do, within the linted set only: the longest dotted
prefix that names a module, then a definition of that module, or a name it imports
(re-exports in ``__init__``), or a name a ``*`` import brings in. Chains are bounded and
cycle-safe; anything that does not resolve to exactly one linted file is unknown.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from zerograd_guard.lint.project.index import (
    Links,
    Marks,
    ModuleEntry,
    calling_methods,
    definition_links,
    definition_marks,
)
from zerograd_guard.lint.project.layout import absolute
from zerograd_guard.lint.project.sources import current_text

MAX_CHAIN = 12  # re-export hops followed when resolving one name
KEPT_TEXTS = 256  # module texts kept while questions read their definitions
# How far calls are followed from the analysed file: into a definition it imports (1),
# from there into another (2); calls in definitions loaded deeper stay unknown.
MAX_DEPTH = 2
# Definitions longer than this stay unknown: parsing a framework's main class (tens of
# thousands of lines' worth of methods: transformers' Trainer, 200,000 characters) for one
# call costs more than the run itself; speechbrain's Brain (53,000) is read.
MAX_DEFINITION_CHARS = 64_000
MAX_BASES = 4  # base classes followed from a class, for its methods with a backward


# a method definition line inside a class's text: ``    def name(``, ``async def``
_METHOD_DEF = re.compile(r"^[ \t]+(?:async[ \t]+)?def[ \t]+(\w+)[ \t]*\(", re.MULTILINE)


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


def _builds(text: str, name: str) -> bool:
    """Whether ``text`` calls ``name(`` (not ``x.name(``, ``other_name(`` nor ``class
    name(``): a class built there. Found with ``str.find``, which scans at C speed."""
    needle = name + "("
    position = text.find(needle)
    while position >= 0:
        before = text[position - 1] if position else " "
        if not (before.isalnum() or before in "._") and text[max(0, position - 6) : position] != (
            "class "
        ):
            return True
        position = text.find(needle, position + 1)
    return False


# Methods a call of an instance runs (``scaler(loss, opt)``, ``model(x)``): no text names them.
INSTANCE_CALLS = frozenset({"__call__", "forward"})


def uses_methods(text: str, methods: Iterable[str]) -> bool:
    """Whether ``text`` may use an instance whose ``methods`` run a backward: it calls
    one of them by name, or the instance runs one when called (``INSTANCE_CALLS``)."""
    return any(
        method in INSTANCE_CALLS or (method[:2] != "__" and f".{method}(" in text)
        for method in methods
    )


def _children(paths: Iterable[str]) -> dict[str, set[str]]:
    """Every folder above a linted file -> the names of what it holds on the way to one
    (subfolders, module stems): ``Project._under_folder``'s quick answer for a dotted
    name whose first part is not beside the importer, the usual case."""
    children: dict[str, set[str]] = {}
    for path in paths:
        folder, name = os.path.split(path)
        name = name[:-3] if name.endswith(".py") else name
        while True:
            known = children.setdefault(folder, set())
            if name in known:
                break  # the folders above were recorded with it
            known.add(name)
            parent, name = os.path.split(folder)
            if parent == folder:
                break
            folder = parent
    return children


class Project:
    def __init__(
        self,
        entries: Iterable[ModuleEntry],
        markers: tuple[str, ...] = (),
        contexts: dict[str, ProjectContext] | None = None,
        keyed: bool = True,
    ) -> None:
        self.markers = markers  # configured backward / clear / step calls (``Marks``)
        # whether task contexts carry cache keys: a run without a result cache reads none
        self.keyed = keyed
        # the task contexts known (from the last run over exactly these entries) or
        # computed; ``unsaved``: the index cache does not hold them all yet
        self.contexts: dict[str, ProjectContext] = dict(contexts or {})
        self.unsaved = contexts is None
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
        self._children = _children(self.entries)
        self._holding: dict[tuple[str, str], tuple[str, ...]] = {}
        self._directs: dict[str, set[str]] = {}
        self._components: dict[str, frozenset[str]] = {}
        self._tarjan_index: dict[str, int] = {}
        self._tarjan_low: dict[str, int] = {}
        self._keys: dict[frozenset[str], str] | None = None
        # a pure function of its arguments, remembered: star imports make chains branch
        self._resolved: dict[tuple[str, str | None, int], Target | None] = {}
        self._levels: dict[tuple[str, str, str], int | None] = {}
        self._methods: dict[tuple[str, str, int], frozenset[str]] = {}
        self._marks: dict[tuple[str, str], Marks | None] = {}
        self._defined: dict[tuple[str, str], frozenset[str]] = {}  # ``defined_methods``
        self._links: dict[tuple[str, str], Links | None] = {}
        self._texts: OrderedDict[str, str | None] = OrderedDict()
        self._built: dict[str, frozenset[str]] = {}
        self._star_bound: dict[str, dict[str, ModuleEntry]] = {}  # ``star_bound``
        self._fed: dict[str, frozenset[str]] = {}

    # -- resolution ---------------------------------------------------------------------

    def module(self, name: str, importer: ModuleEntry | None = None) -> ModuleEntry | None:
        candidates = self._modules(name, importer)
        return candidates[0] if len(candidates) == 1 else None

    def _modules(self, name: str, importer: ModuleEntry | None) -> tuple[ModuleEntry, ...]:
        """The linted modules ``name`` may import from ``importer``: one, or two when a
        module of that name beside the importer and another of the run's both are
        (which one Python imports depends on how it is run), or none."""
        found = self.by_name.get(name)
        if importer is not None:
            sibling = (
                self._siblings.get((importer.folder, name))
                if "." not in name
                else self._under_folder(importer.folder, name)
            )
            if sibling is not None and found is not None and sibling is not found:
                return (found, sibling)
            found = found or sibling
            if found is None and "." in name:
                found = self._above_folder(importer.folder, name)
        return () if found is None else (found,)

    def _above_folder(self, folder: str, dotted: str) -> ModuleEntry | None:
        """``agents.base`` imported by a script in a subfolder of a repository without
        packages or ``pyproject.toml``: it runs with the repository's root on
        ``sys.path``, so ``agents/base.py`` under one of the folders above ``folder``.
        Found under two of them, it resolves to neither (which one Python imports
        depends on the folder the script is run from)."""
        head = dotted.partition(".")[0]
        if head in self.by_name:
            return None  # a linted package of that name: its modules are named from it
        key = (folder, head)
        ancestors = self._holding.get(key)
        if ancestors is None:
            ancestors = self._holding[key] = self._ancestors_holding(folder, head)
        found = None
        for ancestor in ancestors:
            entry = self._under_folder(ancestor, dotted)
            if entry is not None:
                if found is not None and entry is not found:
                    return None
                found = entry
        return found

    def _ancestors_holding(self, folder: str, head: str) -> tuple[str, ...]:
        """The folders above ``folder`` that hold a linted file or folder ``head``."""
        found = []
        parent = os.path.dirname(folder)
        while parent != folder:
            if head in self._children.get(parent, ()):
                found.append(parent)
            folder, parent = parent, os.path.dirname(parent)
        return tuple(found)

    def _under_folder(self, folder: str, dotted: str) -> ModuleEntry | None:
        """``util.misc`` as a script in ``folder`` imports it: ``folder/util/misc.py`` (or
        its package ``__init__``), ``util`` perhaps a folder without ``__init__.py`` (a
        namespace package: research code run as ``python main.py`` has no
        ``pyproject.toml`` to name it from)."""
        if dotted.partition(".")[0] not in self._children.get(folder, ()):
            return None  # most dotted imports: nothing of that name beside the file
        path = os.path.join(folder, *dotted.split("."))
        return self.entries.get(path + ".py") or self.entries.get(os.path.join(path, "__init__.py"))

    def resolve(self, dotted: str, importer: ModuleEntry | None, hops: int = 0) -> Target | None:
        """The linted definition or module ``dotted`` (absolute) names, seen from
        ``importer`` (for sibling imports), or None."""
        if hops > MAX_CHAIN:
            return None
        # what ``importer`` changes is only which siblings it sees (``module``): files
        # of one folder share their answers
        key = (dotted, importer.folder if importer is not None else None, hops)
        if key in self._resolved:
            return self._resolved[key]
        found = self._resolve(dotted, importer, hops)
        self._resolved[key] = found
        return found

    def _resolve(self, dotted: str, importer: ModuleEntry | None, hops: int) -> Target | None:
        parts = dotted.split(".")
        rebound = self._rebound_by_package(parts, importer, hops)
        if rebound is not None:
            return rebound
        for cut in range(len(parts), 0, -1):
            candidates = self._modules(".".join(parts[:cut]), importer)
            rest = tuple(parts[cut:])
            if len(candidates) == 1:
                return self._inside(candidates[0], rest, hops)
            if candidates:
                # two modules of that name (cyoon1729/Policy-Gradient-Methods' package
                # ``ddpg/`` holding ``ddpg.py``, run as ``python ddpg_test.py`` from
                # inside it): the name is imported from the one that defines it, the
                # import of the other would fail; both or neither: not this cut
                found = [self._inside(entry, rest, hops) for entry in candidates] if rest else []
                defined = [target for target in found if target is not None]
                if defined and all(target == defined[0] for target in defined):
                    return defined[0]
        return None

    def _rebound_by_package(
        self, parts: list[str], importer: ModuleEntry | None, hops: int
    ) -> Target | None:
        """``pkg.Name`` where the package's ``__init__`` binds ``Name`` itself (ostris's
        ai-toolkit: ``jobs/process/__init__.py`` runs ``from .BaseSDTrainProcess import
        BaseSDTrainProcess``) besides a submodule ``pkg/Name.py``: importing the
        submodule set the package's attribute, and the ``__init__``'s binding then
        replaced it, so ``from jobs.process import BaseSDTrainProcess`` is the class.
        None when the package binds nothing of that name, or binds the submodule."""
        if len(parts) < 2:
            return None
        dotted, name = ".".join(parts), parts[-1]
        packages = self._modules(".".join(parts[:-1]), importer)
        if len(packages) != 1 or not packages[0].path.endswith("__init__.py"):
            return None
        package = packages[0]
        if name not in package.definitions and package.imports.get(name, dotted) == dotted:
            return None
        if not self._modules(dotted, importer):
            return None  # no submodule of that name: the usual reading finds the binding
        return self._inside(package, (name,), hops)

    def _inside(self, entry: ModuleEntry, rest: tuple[str, ...], hops: int) -> Target | None:
        if not rest:
            return Target(entry)
        first = rest[0]
        if first in entry.definitions:
            return Target(entry, rest)
        if first in entry.imports:
            tail = ".".join((entry.imports[first], *rest[1:]))
            return self.resolve(tail, entry, hops + 1)
        return self._through_stars(entry, rest, hops)

    def _through_stars(self, entry: ModuleEntry, rest: tuple[str, ...], hops: int) -> Target | None:
        """``rest`` bound by a ``*`` import of ``entry``: in the linted modules those
        imports name exactly (one outside the run binds nothing known; it is not looked
        up again as an attribute of its package), and in theirs, depth first in import
        order, each module once, so star cycles end."""
        seen = {entry.path}
        stack = [iter(entry.star)]
        while stack:
            origin = next(stack[-1], None)
            if origin is None:
                stack.pop()
                continue
            module = self.by_name.get(origin)
            if module is None or module.path in seen:
                continue
            seen.add(module.path)
            first = rest[0]
            if first in module.definitions:
                return Target(module, rest)
            if first in module.imports:
                found = self.resolve(".".join((module.imports[first], *rest[1:])), module, hops + 1)
                if found is not None:
                    return found
                continue
            stack.append(iter(module.star))
        return None

    def star_modules(self, entry: ModuleEntry) -> list[ModuleEntry]:
        """The linted modules whose names ``entry``'s ``*`` imports bind, theirs
        included (each once, so star cycles end)."""
        found: list[ModuleEntry] = []
        seen = {entry.path}
        pending = list(entry.star)
        while pending:
            module = self.by_name.get(pending.pop(0))
            if module is None or module.path in seen:
                continue
            seen.add(module.path)
            found.append(module)
            pending.extend(module.star)
        return found

    def star_bound(self, entry: ModuleEntry) -> dict[str, ModuleEntry]:
        """The top-level names ``entry``'s ``*`` imports bind to definitions of linted
        modules (the first star module defining a name; none the file defines or imports
        itself), found once per file: resolving each name through the stars again
        (``_through_stars``) costs a search of the star graph per name, and torch's
        packages re-export with ``*``. A name a star module only re-imports from
        elsewhere is not followed here."""
        bound = self._star_bound.get(entry.path)
        if bound is None:
            bound = {}
            for module in self.star_modules(entry):
                for name in module.definitions:
                    bound.setdefault(name, module)
            for name in (*entry.definitions, *entry.imports):
                bound.pop(name, None)
            self._star_bound[entry.path] = bound
        return bound

    def resolve_local(self, entry: ModuleEntry, local: str) -> Target | None:
        """``local`` as written in ``entry`` (``train_step``, ``steps.train_step``)."""
        head, _, tail = local.partition(".")
        if head in entry.definitions:
            return None  # defined in the file itself: the file's own model has it
        origin = entry.imports.get(head)
        if origin is None:
            return self._through_stars(entry, tuple(local.split(".")), 0)
        return self.resolve(f"{origin}.{tail}" if tail else origin, entry)

    # -- what may touch gradients ---------------------------------------------------------

    def reaches(
        self, entry: ModuleEntry, name: str, flag: str = "backward", within: int = MAX_DEPTH - 1
    ) -> bool:
        """Whether definition ``name`` of ``entry`` may run a backward (``flag ==
        "backward"``), clear or step (``"steps"``) or touch gradients at all
        (``"touches"``) in what the analysis follows: its own text says so (0 calls away),
        or it calls a linted definition whose own text does (1 call away; ``within``: the
        most calls away that count). Beyond ``MAX_DEPTH`` calls from the analysed file the
        analysis leaves calls unknown, so a definition that reaches gradient work only
        deeper than that can change nothing where it is called: loading it (or analysing
        a loop that calls it) is cost without a possible finding; the deepest question
        asked is ``MAX_DEPTH - 1`` calls away, one. Nor can a definition too long to load
        (``MAX_DEFINITION_CHARS``): it reaches nothing.

        Asked lazily: what a definition says (``marks``, ``links``) is read only where a
        question reaches, and every answer is a function of the project alone, so it
        never depends on the order of the questions."""
        assert within <= MAX_DEPTH - 1 == 1  # levels are 0 or 1
        key = (entry.path, name, flag)
        level = self._levels.get(key, -1)
        if level == -1:
            level = self._levels[key] = self._level(entry, name, flag)
        return level is not None and level <= within

    @staticmethod
    def _text_may(entry: ModuleEntry, flag: str) -> bool:
        """Whether ``entry``'s text may hold the marker at all (the cheap pass's flags)."""
        return entry.backward if flag == "backward" else entry.marked

    @staticmethod
    def loadable(entry: ModuleEntry, name: str) -> bool:
        """A definition too long to load is never loaded where it is called: it leads
        nowhere from there."""
        definition = entry.definitions[name]
        return definition.end - definition.start <= MAX_DEFINITION_CHARS

    def _own(self, node: tuple[str, str], flag: str) -> bool:
        """Whether ``node``'s own text has the marker (level 0)."""
        entry = self.entries[node[0]]
        if not self.loadable(entry, node[1]) or not self._text_may(entry, flag):
            return False
        marks = self.marks(entry, node[1])
        return marks is not None and bool(getattr(marks, flag))

    def _level(self, entry: ModuleEntry, name: str, flag: str) -> int | None:
        """0: the definition's own text has the marker; 1: it refers to one whose own
        text has it. A class's marks spread only to a definition that runs code of it:
        calls it (and then, once loaded, may call its methods), reads an attribute of it
        (``Cls.method(...)``) or derives from it; naming it in a type hint or an
        ``isinstance`` check runs none of its code (a function naming
        ``LightningModule`` runs no backward)."""
        node = (entry.path, name)
        if self._own(node, flag):
            return 0
        if not self.loadable(entry, name):
            return None
        links = self.links(entry, name)
        if links is None:
            return None
        read_only = dict(links.read_only)
        for used, called, read in self._used(entry, name, links, read_only):
            if not called and self.is_class(used):
                continue
            if read is not None and flag == "backward" and self.is_class(used):
                # ``Cls.apply(...)``: only the methods read run (an autograd Function's
                # ``backward`` runs inside autograd, not from here)
                used_entry = self.entries[used[0]]
                if self.loadable(used_entry, used[1]) and (
                    read & self._backward_methods(used_entry, used[1])
                ):
                    return 1
                continue
            if self._own(used, flag):
                return 1
        return None

    def marks(self, entry: ModuleEntry, name: str) -> Marks | None:
        """What definition ``name`` of ``entry`` says of gradients, read from its file the
        first time a question needs it (None: the file was edited since it was indexed)."""
        key = (entry.path, name)
        if key not in self._marks:
            text = self.text_of(entry)
            self._marks[key] = (
                None if text is None else definition_marks(text, entry, name, self.markers)
            )
        return self._marks[key]

    def links(self, entry: ModuleEntry, name: str) -> Links | None:
        """The names definition ``name`` of ``entry`` refers to (read like ``marks``)."""
        key = (entry.path, name)
        if key not in self._links:
            text = self.text_of(entry)
            self._links[key] = None if text is None else definition_links(text, entry, name)
        return self._links[key]

    def text_of(self, entry: ModuleEntry) -> str | None:
        """The text ``entry`` was indexed from (the last few read are kept; None: edited
        since)."""
        if entry.path in self._texts:
            self._texts.move_to_end(entry.path)
            return self._texts[entry.path]
        text = current_text(Path(entry.path), entry.digest)
        self._texts[entry.path] = text
        if len(self._texts) > KEPT_TEXTS:
            self._texts.popitem(last=False)
        return text

    def defined_methods(self, entry: ModuleEntry, name: str) -> frozenset[str]:
        """The names class ``name`` of ``entry`` may define methods of, read from its own
        text (``def m(`` lines; what it inherits is not read): no parse, once per class."""
        key = (entry.path, name)
        found = self._defined.get(key)
        if found is None:
            definition = entry.definitions.get(name)
            text = self.text_of(entry) if definition is not None else None
            if definition is None or not definition.is_class or text is None:
                found = frozenset()
            else:
                found = frozenset(_METHOD_DEF.findall(text, definition.start, definition.end))
            self._defined[key] = found
        return found

    def is_class(self, node: tuple[str, str]) -> bool:
        return self.entries[node[0]].definitions[node[1]].is_class

    def _used(
        self,
        entry: ModuleEntry,
        name: str,
        definition: Links,
        read_only: dict[str, frozenset[str]],
    ) -> Iterable[tuple[tuple[str, str], bool, frozenset[str] | None]]:
        """The linted definitions ``definition`` refers to, each with whether it calls
        it (or derives from it: ``Definition.calls``; only a class needs the answer),
        and, for a name only read attributes of (``read_only``), those attributes
        (None: it may run anything of it)."""
        for ref in definition.refs:
            if ref in entry.definitions:
                if ref != name:
                    yield (entry.path, ref), ref in definition.calls, read_only.get(ref)
            elif ref in entry.imports:
                target = self.resolve_local(entry, ref)
                if target is None:
                    continue
                if target.attribute:
                    # the attributes read on it are its own only when it names the class
                    read = read_only.get(ref) if len(target.attribute) == 1 else None
                    yield (target.entry.path, target.attribute[0]), ref in definition.calls, read
                else:  # a module: what its chains reach (one only passed on stays unknown)
                    yield from self._reached_through(entry, ref, definition.import_uses)

    def _reached_through(
        self, entry: ModuleEntry, module: str, uses: frozenset[str]
    ) -> Iterable[tuple[tuple[str, str], bool, frozenset[str] | None]]:
        """The definitions a definition reaches through the imported module name
        ``module``, by its ``module.attr...`` chains (a submodule named whole: all of it)."""
        prefix = module + "."
        for use in uses:
            if not use.startswith(prefix):
                continue
            target = self.resolve_local(entry, use.rstrip("("))
            if target is None:
                continue
            if target.attribute:
                # ``mod.Cls(...)``, a base class, ``mod.Cls.method``: code of it runs
                called = use.endswith("(") or len(target.attribute) > 1
                # ``mod.Cls.method(...)``: that method of it
                read = frozenset(target.attribute[1:2]) if len(target.attribute) > 1 else None
                yield (target.entry.path, target.attribute[0]), called, read
            else:
                yield from (
                    ((target.entry.path, other), True, None) for other in target.entry.definitions
                )

    def calls_elsewhere(self, entry: ModuleEntry, flag: str = "backward") -> bool:
        """Whether ``entry`` uses an imported name that resolves to a linted function (or
        module) that may run a backward (``flag``: or step), or to a class with a method
        whose text has one and that the file calls (``.name(``; for a step, any of the
        class's text): what a file without a backward of its own needs for a finding.
        Narrower than what the analysis can follow (a class's method reaching a backward
        through a helper): such a file is not analysed."""
        built_through = {chain.partition(".")[0] for chain in entry.built_classes}
        outside: list[str] = []
        for local in entry.imports:
            # a function or module is used in a loop; a class (a capitalised name, by
            # convention) may be built anywhere, its method called in a loop, and so may
            # a class of a module (``agents.Agent(net)``)
            if (
                local not in entry.loop_references
                and not local[:1].isupper()
                and local not in built_through
            ):
                outside.append(local)
                continue
            target = self.resolve_local(entry, local)
            if target is None or target.entry is entry:
                continue
            if target.attribute:
                # a function must be called in a loop; a class may be built anywhere,
                # its method is called in a loop (``_definition_does``)
                is_class = target.entry.definitions[target.attribute[0]].is_class
                if not is_class and local not in entry.loop_references:
                    continue
                if self._definition_does(entry, target, flag):
                    return True
                continue
            # a module: what the file reaches through it in a loop (``pl.LightningModule``)
            # or a class of it the file builds anywhere (``agents.Agent(net)``)
            for use in entry.dotted_uses | entry.built_classes:
                if use.partition(".")[0] != local:
                    continue
                found = self.resolve_local(entry, use)
                if (
                    found is not None
                    and found.attribute
                    and found.entry is not entry
                    and self._definition_does(entry, found, flag)
                ):
                    return True
        return bool(outside) and self._called_outside_loops(entry, outside, flag)

    def _called_outside_loops(self, entry: ModuleEntry, locals_: list[str], flag: str) -> bool:
        """Whether the file calls, outside its loops, an imported function whose own text
        may run a backward (a helper of a helper is not looked for here): a method the
        loop calls (``self.learn()``) may call it. Read from the file's text (a call in a
        comment only costs analysis time), only for names that resolve to such a
        function."""
        reaching = []
        for local in locals_:
            target = self.resolve_local(entry, local)
            if (
                target is None
                or target.entry is entry
                or not target.attribute
                or self.is_class((target.entry.path, target.attribute[0]))
            ):
                continue
            if self._own((target.entry.path, target.attribute[0]), flag):  # not a callee's
                reaching.append(local)
        text = self.text_of(entry) if reaching else None
        return text is not None and any(
            re.search(rf"(?<![\w.]){re.escape(local)}\s*\(", text) for local in reaching
        )

    def _definition_does(self, entry: ModuleEntry, target: Target, flag: str) -> bool:
        if not self.is_class((target.entry.path, target.attribute[0])) or flag != "backward":
            return self.reaches(target.entry, target.attribute[0], flag)
        methods = self._backward_methods(target.entry, target.attribute[0])
        if len(target.attribute) > 1:
            methods = methods & {target.attribute[1]}
        if methods & (entry.method_calls | INSTANCE_CALLS):
            return True
        # called outside the loops: a method of the file's subclass that a loop calls
        # (``self.learn()``) may call the inherited one (``self.take_optimisation_step``)
        text = self.text_of(entry) if methods else None
        return text is not None and any(f".{method}(" in text for method in methods)

    def _backward_methods(self, entry: ModuleEntry, name: str, depth: int = 0) -> frozenset[str]:
        """The methods of class ``name`` of ``entry`` whose own text has a backward, its
        linted bases' included (``MLPNet(Net)``, ``Net.train_step`` in another module),
        bases followed ``MAX_BASES`` deep (an answer is remembered with its depth, so it
        never depends on which class asked first; a cycle of bases ends at that depth)."""
        key = (entry.path, name, depth)
        known = self._methods.get(key)
        if known is not None:
            return known
        found: set[str] = set()
        if self._text_may(entry, "backward"):
            marks = self.marks(entry, name)
            if marks is not None and marks.backward_methods:
                found |= marks.backward_methods
        bases = []
        for base in entry.definitions[name].bases if depth < MAX_BASES else ():
            if base in entry.definitions:
                base_entry, base_name = entry, base
            else:
                found_base = self.resolve_local(entry, base)
                if found_base is None or len(found_base.attribute) != 1:
                    continue
                base_entry, base_name = found_base.entry, found_base.attribute[0]
            if base_entry.definitions[base_name].is_class:
                found |= self._backward_methods(base_entry, base_name, depth + 1)
                bases.append((base_entry, base_name))
        # a base's method calling one of them on ``self`` runs this class's override
        for base_entry, base_name in bases if found else ():
            found |= self._calling(base_entry, base_name, frozenset(found))
        self._methods[key] = frozenset(found)
        return self._methods[key]

    def _calling(self, entry: ModuleEntry, name: str, called: frozenset[str]) -> frozenset[str]:
        """The methods of class ``name`` of ``entry`` that call one of ``called`` on
        ``self`` (``index.calling_methods``)."""
        text = self.text_of(entry)
        if text is None:
            return frozenset()
        definition = entry.definitions[name]
        return calling_methods(text[definition.start : definition.end], called)

    # -- dependencies -----------------------------------------------------------------------

    def _direct(self, entry: ModuleEntry) -> set[str]:
        known = self._directs.get(entry.path)
        if known is None:
            known = self._directs[entry.path] = self._imported_files(entry)
        return known

    def _imported_files(self, entry: ModuleEntry) -> set[str]:
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

    def component(self, entry: ModuleEntry) -> frozenset[str]:
        """The files in an import cycle with ``entry`` (itself included), found from
        ``entry`` the first time it is asked (a run whose few analysed files import a
        part of the tree searches only that part)."""
        known = self._components.get(entry.path)
        if known is None:
            self._strongly_connected_from(entry.path)
            known = self._components[entry.path]
        return known

    def _strongly_connected_from(self, root: str) -> None:
        """Tarjan's algorithm over the import graph from ``root``, iterative (deep import
        chains). Its numbering persists between calls: every earlier search has ended
        (nothing on the stack), so the components it found are final and a new search
        only descends into files not yet numbered."""
        index, low = self._tarjan_index, self._tarjan_low
        on_stack: set[str] = set()
        stack: list[str] = []
        work = [(root, iter(sorted(self._direct(self.entries[root]))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(self._direct(self.entries[child])))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                members: set[str] = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    members.add(member)
                    if member == node:
                        break
                frozen = frozenset(members)
                for member in members:
                    self._components[member] = frozen

    def context(self, path: Path) -> ProjectContext | None:
        """The task context of ``path`` (None: not indexed, e.g. it cannot be read)."""
        entry = self.entries.get(str(absolute(path)))
        if entry is None:
            return None
        known = self.contexts.get(entry.path)
        if known is None:
            known = self.contexts[entry.path] = self._context(entry)
            self.unsaved = True
        return known

    def place(self, paths: Sequence[Path], jobs: int = 1) -> list[ProjectContext | None]:
        """``context`` of each of ``paths``, in order; with ``jobs`` forked workers for a
        large run (``forked.MIN_ITEMS`` files). A context is a function of the project
        alone (``reaches``), so the workers' answers are the parent's; only the contexts
        come back (what each worker remembered on the way is dropped with it)."""
        from zerograd_guard.lint.forked import map_forked

        missing = [
            index
            for index, path in enumerate(paths)
            if (entry := self.entries.get(str(absolute(path)))) is not None
            and entry.path not in self.contexts
        ]
        found = map_forked(lambda index: self.context(paths[missing[index]]), len(missing), jobs)
        for context in found:
            if context is not None:
                self.contexts[context.path] = context
                self.unsaved = True
        return [self.context(path) for path in paths]

    def _context(self, entry: ModuleEntry) -> ProjectContext:
        # every finding needs a step in the loop's iteration: in the file's own text or in
        # what it calls
        candidate = (
            not entry.backward
            and entry.has_loop
            and (
                (
                    self.calls_elsewhere(entry, "backward")
                    and (entry.steps or self.calls_elsewhere(entry, "steps"))
                )
                or bool(self.fed_definitions(entry))
            )
        )
        # a file whose text has no backward and that is no candidate is never analysed,
        # so it reads no cache entry: it needs no key (nor does any file of a run
        # without a cache)
        key = ""
        if self.keyed and (entry.backward or candidate):
            key = self._closure_key(entry)
            callers = sorted(
                {c.path for c in (*self._callers(entry), *self._drivers(entry))} - {entry.path}
            )
            if callers:  # what they pass may type a parameter (``call_sites``)
                digest = hashlib.sha256(key.encode())
                for caller in callers:
                    digest.update(self._closure_key(self.entries[caller]).encode())
                key = digest.hexdigest()
        return ProjectContext(path=entry.path, key=key, candidate=candidate)

    def _callers(self, entry: ModuleEntry) -> list[ModuleEntry]:
        """The files that may call a top-level function of ``entry`` (or, in a file with
        a loop, build an instance of a top-level class, also through a subclass: its
        constructor hands the base what its own callers pass) and so may say what its
        parameters hold (``call_sites``); none for a definition with too many."""
        from zerograd_guard.lint.project.call_sites import for_project

        sites = for_project(self)
        found: list[ModuleEntry] = []
        for name, definition in entry.definitions.items():
            if not definition.is_class or entry.has_loop:  # a class's: what it is built with
                for caller in sites.callers(entry, name) or ():
                    found.append(caller.entry)
                    if definition.is_class:
                        found.extend(c.entry for c in sites.subclass_callers(caller))
        return found

    def _drivers(self, entry: ModuleEntry) -> list[ModuleEntry]:
        """The files with a loop over a parameter annotated with a base class (of another
        module) of a class of ``entry`` with a backward: the analysis runs them with an
        instance of that class (``call_sites.annotated_drivers``)."""
        from zerograd_guard.lint.project.call_sites import for_project

        sites = for_project(self)
        found: list[ModuleEntry] = []
        for name, definition in entry.definitions.items():
            if not definition.is_class or not self._backward_methods(entry, name):
                continue
            for base in definition.bases:
                target = self.top_definition(entry, base, is_class=True)
                if target is not None and target.entry is not entry:
                    found.extend(e for e, _, _ in sites.annotated_drivers(target))
        return found

    def fed_definitions(self, entry: ModuleEntry) -> frozenset[str]:
        """The looping top-level functions of ``entry`` that are passed an instance
        whose methods run a backward, and may use it: the function's text calls one of
        those methods (``agent.update(``), or the class runs one when called
        (``__call__`` / ``forward``: ``loss_scaler(loss, optimizer)``; any call may be
        of the parameter). The same for a looping top-level class whose constructor is
        passed one (``MFPolicyTrainer(policy=policy)``, then ``self.policy.learn(batch)``
        in its loop): the class's name and those of its methods that may use it. A
        candidate's and the fast path's test (``project.seeds``): first from text (the
        classes with such methods the callers build), then, for a definition that
        passes, from what every call passes (``call_sites``, the answer the analysis
        reads): a looping helper that a script building a scaler calls with other
        arguments (``create_loader(dataset, ...)``) is not fed."""
        known = self._fed.get(entry.path)
        if known is not None:
            return known
        from zerograd_guard.lint.project.call_sites import CONSTRUCTOR, for_project

        sites = for_project(self)
        text = self.text_of(entry)
        found: set[str] = set()
        for name, definition in entry.definitions.items() if text is not None else ():
            own = text[definition.start : definition.end]  # type: ignore[index]
            if "for " not in own and "while " not in own:
                continue  # no loop of its own: nothing it is passed repeats there
            methods: set[str] = set()
            for caller in sites.callers(entry, name) or ():
                methods |= self.built_backward_methods(caller.entry)
                if definition.is_class:  # a subclass's callers build the class too
                    for built_by in sites.subclass_callers(caller):
                        methods |= self.built_backward_methods(built_by.entry)
            if not uses_methods(own, methods):
                continue
            called = name + CONSTRUCTOR if definition.is_class else name
            if sites.fed_parameter(entry, called, own):
                found.add(name)
                if definition.is_class:
                    found |= sites.methods_using(entry, name, methods)
        known = self._fed[entry.path] = frozenset(found)
        return known

    def built_backward_methods(self, caller: ModuleEntry) -> frozenset[str]:
        """The methods with a backward of the linted classes ``caller`` builds
        (``Name(``, a capitalised name it defines or imports, also through ``*``),
        other than ``backward``
        itself: an object whose ``backward(loss)`` runs one (a tensor, an
        ``Accelerator``, an engine) is known by that name already. A class only
        derived from or named in a hint builds nothing."""
        known = self._built.get(caller.path)
        if known is None:
            found: set[str] = set()
            text: str | None = None
            # a class bound by a ``*`` import is read where it is defined (``star_bound``)
            named: dict[str, ModuleEntry | None] = dict.fromkeys((*caller.classes, *caller.imports))
            for name, module in self.star_bound(caller).items():
                if module.definitions[name].is_class:
                    named[name] = module
            for name, module in named.items():
                if not name[:1].isupper():
                    continue
                methods = (
                    self.class_backward_methods(caller, name)
                    if module is None
                    else self._backward_methods(module, name)
                ) - {"backward"}
                if not methods or methods <= found:
                    continue
                text = self.text_of(caller) if text is None else text
                if text is not None and _builds(text, name):
                    found |= methods
            known = self._built[caller.path] = frozenset(found)
        return known

    def class_backward_methods(self, caller: ModuleEntry, name: str) -> frozenset[str]:
        """The methods with a backward of class ``name`` as ``caller`` names it."""
        target = self.top_definition(caller, name, is_class=True)
        if target is None:
            return frozenset()
        return self._backward_methods(target.entry, target.attribute[0])

    def top_definition(self, entry: ModuleEntry, written: str, is_class: bool) -> Target | None:
        """The top-level class (``is_class``) or function ``written`` names in ``entry``:
        one of its own, or one it imports from a linted module; None otherwise."""
        if written in entry.definitions:
            found: Target | None = Target(entry, (written,))
        else:
            found = self.resolve_local(entry, written)
        if found is None or len(found.attribute) != 1:
            return None
        return found if self.is_class((found.entry.path, found.attribute[0])) == is_class else None

    def _closure_key(self, entry: ModuleEntry) -> str:
        """A digest of every file ``entry``'s import closure reaches (paths and contents),
        built once per import cycle over the cycles' DAG (a Merkle hash: a file's key
        covers its cycle's files and the keys of the cycles it imports), so a change in
        any reached file changes the key, at the cost of one hash per cycle."""
        if self._keys is None:
            self._keys = {}
        component = self.component(entry)
        pending = [component]
        while pending:
            current = pending[-1]
            if current in self._keys:
                pending.pop()
                continue
            children = {
                self.component(self.entries[child])
                for member in current
                for child in self._direct(self.entries[member])
            } - {current}
            missing = [child for child in children if child not in self._keys]
            if missing:
                pending.extend(missing)
                continue
            digest = hashlib.sha256()
            for member in sorted(current):
                digest.update(
                    f"{member}\0{self.entries[member].digest}\0".encode("utf-8", "surrogatepass")
                )
            for key in sorted(self._keys[child] for child in children):
                digest.update(key.encode())
            self._keys[current] = digest.hexdigest()
            pending.pop()
        return self._keys[component]
