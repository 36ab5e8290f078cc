"""The seam into the analysis: calls that resolve to another linted module.

The extractor asks the module's ``external`` lookup (``ModuleModel.external``) for a name
it cannot find in the file. The lookup resolves it through the project index and returns
the other module's ``FunctionModel`` (or, for classes, a ``ClassInfo`` whose methods and
attributes are those of its whole MRO, so no base name is looked up in the caller's
namespace). The flow engine then analyses the call in place, exactly like a call of a
function of the same file, parameters bound to the caller's names.

Each other module is parsed, extracted and resolved once per process and reused while
the run lasts. Its model is the same whichever file asked for it first: a module
loaded as another's callee does not resolve calls into the modules of its own import
cycle (``Project.component``), so its model depends on nothing but the project. The
analysed file itself may call into any module; calls back into it stay unknown.
"""

from __future__ import annotations

import os
import re
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from zerograd_guard.lint.errors import AnalysisError
from zerograd_guard.lint.model.program import ClassInfo, FunctionModel
from zerograd_guard.lint.options import AnalysisOptions
from zerograd_guard.lint.project.graph import MAX_DEFINITION_CHARS, MAX_DEPTH, Project, Target
from zerograd_guard.lint.project.index import ModuleEntry, reduced_class_text
from zerograd_guard.lint.project.sources import module_text
from zerograd_guard.lint.sourcefile import SourceError, read_bytes

if TYPE_CHECKING:
    from zerograd_guard.lint.extract.positions import Positions
    from zerograd_guard.lint.model.program import ModuleModel

MAX_LOADED = 256  # other modules' models kept per process


@dataclass(eq=False)
class LoadedModule:
    """Another linted module's event model, and where its nodes are in its file."""

    entry: ModuleEntry
    model: ModuleModel
    positions: Positions
    classes: dict[str, ClassInfo] = field(default_factory=dict)  # flattened, on demand

    def display(self, importer: str) -> str:
        """This module's path as a finding in ``importer`` names it: relative to the
        importer's project root (nearest ``pyproject.toml``, else the importer's folder),
        so the message does not depend on the working directory."""
        from zerograd_guard.lint.project.layout import project_root

        folder = Path(importer).parent
        base = project_root(folder) or folder
        return Path(os.path.relpath(self.entry.path, base)).as_posix()


class Loader:
    """Builds and caches other modules' models for one process."""

    def __init__(self, project: Project, options: AnalysisOptions) -> None:
        self.project = project
        self.options = options
        self._loaded: OrderedDict[tuple[str, str, int, bool], LoadedModule | None] = OrderedDict()

    def load(
        self,
        entry: ModuleEntry,
        name: str,
        depth: int,
        driver: bool = False,
        reduced: bool = False,
    ) -> LoadedModule | None:
        """The model holding definition ``name`` of ``entry``, ``depth`` calls away from
        the analysed file. Only the definition's own text is parsed (placed at its lines
        in the file, the module's imports known), not the whole module: a helper module
        is often large and one function of it is called. ``driver``: a loop over a
        parameter annotated with a class (``ProjectLookup.drivers``), whose calls on it
        are kept whatever that class's own code does. ``reduced``: a class too long to
        load whole, cut down to what a subclass's loop runs (``index.reduced_class_text``)."""
        key = (entry.path, name, depth, driver, reduced)
        if key in self._loaded:
            self._loaded.move_to_end(key)
            return self._loaded[key]
        self._loaded[key] = None  # being built: a call back into it stays unknown
        loaded = self._build(entry, name, depth, driver, reduced)
        self._loaded[key] = loaded
        if len(self._loaded) > MAX_LOADED:
            self._loaded.popitem(last=False)
        return loaded

    def _build(
        self, entry: ModuleEntry, name: str, depth: int, driver: bool, reduced: bool = False
    ) -> LoadedModule | None:
        from zerograd_guard.lint.analyze import parse_for_analysis
        from zerograd_guard.lint.extract import build_model, resolve_module
        from zerograd_guard.lint.extract.positions import Positions
        from zerograd_guard.lint.model.events import events_of

        definition = entry.definitions[name]
        try:
            text = module_text(Path(entry.path), read_bytes(Path(entry.path)))
        except (OSError, SourceError):
            return None  # unknown, as if it were not linted
        own_text = text[definition.start : definition.end]
        if reduced:
            own_text = reduced_class_text(own_text) or ""
            if not own_text or len(own_text.strip()) > MAX_DEFINITION_CHARS:
                return None
        source = "\n" * (definition.line - 1) + own_text
        try:
            module = parse_for_analysis(source)
        except AnalysisError:
            if reduced:
                return None
            try:  # the cheap index cut the definition wrongly: the whole file, then
                source = text
                module = parse_for_analysis(source)
            except AnalysisError:
                return None
        # what the definition's module imports, known while it is walked (a call on an
        # imported module, ``clean.wipe(model)``, is kept for resolution)
        # a driver's walk keeps the calls on its annotated parameter (``drivers``)
        lookup = ProjectLookup(self, entry, None, depth, driver) if depth < MAX_DEPTH else None
        model = build_model(
            module, self.options, entry.imports, external=lookup if driver else None
        )
        if lookup is not None:
            # names the definition uses from its module (imports, other definitions)
            own = {other: f"{entry.name}.{other}" for other in entry.definitions}
            model.imports = {**own, **entry.imports, **model.imports}
            model.external = lookup
        resolve_module(model, self.options)
        positions = Positions(
            module,
            source,
            lambda: (
                (event.node, event.anchor)
                for function in model.functions
                for event in events_of(function.body)
            ),
        )
        loaded = LoadedModule(entry, model, positions)
        for function in model.functions:
            function.origin = loaded
        return loaded


class ProjectLookup:
    """``ModuleModel.external`` for one module: names as written there -> the other
    linted module's function or (flattened) class, or None (unknown)."""

    def __init__(
        self,
        loader: Loader,
        entry: ModuleEntry,
        blocked: frozenset[str] | None,
        depth: int = 0,
        driver: bool = False,
    ) -> None:
        self.loader = loader
        self.entry = entry
        self.depth = depth  # how many calls away from the analysed file this module is
        # a driver's module (``Loader.load``): a class whose own code cannot touch
        # gradients is known too (a subclass's overrides may)
        self.driver = driver
        # files whose names stay unknown here (cycles); None: ``entry``'s import cycle,
        # found only when a call first needs it (``_blocks``)
        self._blocked = blocked
        self.importer = entry.path
        self._functions: dict[str, FunctionModel | None] = {}
        self._classes: dict[str, ClassInfo | None] = {}
        self._inert: dict[str, FunctionModel | None] = {}
        self._bases: dict[str, ClassInfo | None] = {}  # ``base_class``
        self._changed: dict[tuple[str, int | str], frozenset[str] | None] = {}
        self._methods: dict[str, frozenset[str]] = {}  # ``may_define``, per imported name
        self._stores: dict[tuple[str, str], bool] = {}  # ``base_stores``

    def _target(
        self, local: str, inert_too: bool = False
    ) -> tuple[LoadedModule, tuple[str, ...]] | None:
        project = self.loader.project
        head = local.partition(".")[0]
        if self.depth and head in self.entry.definitions:
            # a loaded definition using another of its own module (the analysed file's
            # own definitions are in its own model); one more call away, which bounds
            # recursion between them
            target, own = Target(self.entry, tuple(local.split("."))), True
        else:
            found = project.resolve_local(self.entry, local)
            if found is None or not found.attribute:
                return None
            target, own = found, False
        return self._loaded_target(target, own, inert_too)

    def _loaded_target(
        self, target: Target, own: bool, inert_too: bool = False
    ) -> tuple[LoadedModule, tuple[str, ...]] | None:
        project = self.loader.project
        reduced = False
        if inert_too:
            if self.depth >= MAX_DEPTH:
                return None
            if not project.loadable(target.entry, target.attribute[0]):
                # a class too long to load whole: cut down for a subclass (reduced_class_text)
                reduced = target.entry.definitions[target.attribute[0]].is_class
                if not reduced:
                    return None
        elif not project.reaches(
            target.entry, target.attribute[0], "touches", within=MAX_DEPTH - self.depth - 1
        ):
            return None  # cannot touch gradients: the call stays as harmless as today
        if not own and self._blocks(target.entry):
            return None
        loaded = self.loader.load(
            target.entry, target.attribute[0], self.depth + 1, reduced=reduced
        )
        return None if loaded is None else (loaded, target.attribute)

    def _blocks(self, entry: ModuleEntry) -> bool:
        """Whether names of ``entry`` stay unknown here. The import cycle is searched
        for only now: most calls of a loaded definition cannot touch gradients, and in a
        large tree (torch is one cycle of thousands of files) the search walks most of it."""
        if self._blocked is None:
            self._blocked = self.loader.project.component(self.entry)
        return entry.path in self._blocked

    def function(self, local: str) -> FunctionModel | None:
        if local not in self._functions:
            self._functions[local] = self._function(local)
        return self._functions[local]

    def class_info(self, local: str) -> ClassInfo | None:
        if self.driver:
            return self.base_class(local)
        if local not in self._classes:
            found = self._target(local)
            cls = None
            if found is not None and len(found[1]) == 1:
                cls = flattened(found[0], found[1][0])
            self._classes[local] = cls
        return self._classes[local]

    def may_define(self, local: str, method: str) -> bool:
        """Whether ``local`` (a name this module imports) may be a class of another linted
        module whose own text defines ``method``: no parse (``Project.defined_methods``)."""
        methods = self._methods.get(local)
        if methods is None:
            project = self.loader.project
            target = project.resolve_local(self.entry, local)
            if target is None or len(target.attribute) != 1:
                methods = frozenset()
            else:
                methods = project.defined_methods(target.entry, target.attribute[0])
            self._methods[local] = methods
        return method in methods

    def parameter_classes(self, function: str, param: str) -> tuple[str, ...]:
        """The classes (as names ``class_info`` answers) whose instances the calls of the
        analysed file's top-level ``function`` pass to ``param``, each call one of them
        (``project.call_sites``); empty: unknown. Only the analysed file asks: a loaded
        function's parameters are bound to its caller's names."""
        if self.depth:
            return ()
        from zerograd_guard.lint.project.call_sites import CONSTRUCTOR, for_project

        entry, asked = self.entry, function
        name = function.removesuffix(CONSTRUCTOR)
        if function.endswith(CONSTRUCTOR) and name not in entry.definitions:
            # the constructor of a base class this file imports (the base stores what a
            # subclass of the file hands on)
            found = self.loader.project.resolve_local(entry, name)
            if found is None or len(found.attribute) != 1:
                return ()
            entry, asked = found.entry, found.attribute[0] + CONSTRUCTOR
        targets = for_project(self.loader.project).parameter_classes(entry, asked, param)
        names = []
        for target in targets or ():
            if target.entry is self.entry:
                names.append(target.attribute[0])  # a class of the file: its model has it
                continue
            # a name no source text can hold, so it never meets one written in the file
            name = f"{target.attribute[0]} <{target.entry.path}>"
            if name not in self._classes:
                found = self._loaded_target(target, own=False)
                self._classes[name] = None if found is None else flattened(found[0], found[1][0])
            if self._classes[name] is not None:
                names.append(name)
        return tuple(names)

    def parameter_module(self, function: str, param: str) -> str | None:
        """The parameter of the analysed file's top-level ``function`` that every call
        passes the module the optimizer it passes to ``param`` steps
        (``project.call_sites``); None: unknown."""
        if self.depth:
            return None
        from zerograd_guard.lint.project.call_sites import for_project

        return for_project(self.loader.project).parameter_module(self.entry, function, param)

    def changed_parts(self, callee: str, slot: int | str) -> frozenset[str] | None:
        """What the function ``callee`` (as written here) may change of what it is
        handed in ``slot`` (``project.summaries``); None: unknown."""
        key = (callee, slot)
        if key not in self._changed:
            from zerograd_guard.lint.project.summaries import changed_parts

            self._changed[key] = changed_parts(self.loader.project, self.entry, callee, slot)
        return self._changed[key]

    def base_class(self, local: str) -> ClassInfo | None:
        """``local`` as ``class_info`` answers, also when the class's own code cannot
        touch gradients: a base class whose loop runs the analysed subclass's overrides
        (Dassl's ``TrainerX``, whose own ``forward_backward`` only raises)."""
        if local not in self._bases:
            found = self._target(local, inert_too=True)
            cls = None
            if found is not None and len(found[1]) == 1:
                cls = flattened(found[0], found[1][0])
            self._bases[local] = cls
        return self._bases[local]

    def base_stores(self, local: str, attribute: str) -> bool:
        """Whether the text of class ``local`` (of another linted module) assigns
        ``self.attribute``: what is worth loading it for (``base_class``) when a subclass
        reads that attribute. Read from the text, no parse."""
        known = self._stores.get((local, attribute))
        if known is None:
            known = self._stores[local, attribute] = self._base_stores(local, attribute)
        return known

    def _base_stores(self, local: str, attribute: str) -> bool:
        project = self.loader.project
        target = project.resolve_local(self.entry, local)
        if target is None or len(target.attribute) != 1:
            return False
        definition = target.entry.definitions.get(target.attribute[0])
        text = project.text_of(target.entry) if definition is not None else None
        if definition is None or text is None:
            return False
        return (
            re.search(
                rf"self\.{re.escape(attribute)}\s*=(?!=)", text[definition.start : definition.end]
            )
            is not None
        )

    def derives_from_module(self, local: str) -> bool:
        """Whether ``local`` names a class of another linted module deriving, through
        linted classes, from ``torch.nn.Module`` (read from the index: the bases its
        header names, no parse)."""
        project = self.loader.project
        target = project.resolve_local(self.entry, local)
        seen: set[tuple[str, str]] = set()
        while target is not None and len(target.attribute) == 1:
            entry, name = target.entry, target.attribute[0]
            definition = entry.definitions.get(name)
            if definition is None or not definition.is_class or (entry.path, name) in seen:
                return False
            seen.add((entry.path, name))
            next_target = None
            for base in definition.bases:
                head, _, rest = base.partition(".")
                origin = entry.imports.get(head, "")
                dotted = f"{origin}.{rest}" if origin and rest else origin or base
                if dotted in ("torch.nn.Module", "torch.nn.modules.module.Module"):
                    return True
                if base in entry.definitions:
                    next_target = Target(entry, (base,))
                elif next_target is None:
                    next_target = project.resolve_local(entry, base)
            target = next_target
        return False

    def drivers(self, local: str) -> tuple[tuple[FunctionModel, str], ...]:
        """The looping functions of other linted modules with a parameter annotated with
        class ``local`` (a name this module writes) on which they call methods, each with
        that parameter (``call_sites.annotated_drivers``); only the analysed file asks."""
        if self.depth:
            return ()
        from zerograd_guard.lint.project.call_sites import for_project

        project = self.loader.project
        target = project.resolve_local(self.entry, local)
        if target is None or len(target.attribute) != 1:
            return ()
        found = []
        for entry, name, param in for_project(project).annotated_drivers(target):
            if entry is self.entry or not project.loadable(entry, name) or self._blocks(entry):
                continue
            loaded = self.loader.load(entry, name, self.depth + 1, driver=True)
            function = None if loaded is None else loaded.model.body.nested.get(name)
            if function is not None:
                found.append((function, param))
        return tuple(found)

    def inert_function(self, local: str) -> FunctionModel | None:
        """``local`` as ``function`` answers, also when it cannot touch gradients in what
        the analysis follows: asked for a call handed an optimizer, which is unknown
        (and so may clear) unless its body is read (``adjust_learning_rate(optimizer,
        epoch, args)`` in another module only sets learning rates). The body is analysed
        like any other callee's: its own unknown calls handed the optimizer still may
        clear."""
        if local not in self._inert:
            found = self._target(local, inert_too=True)
            function = None
            if found is not None and len(found[1]) == 1:
                function = found[0].model.body.nested.get(found[1][0])
            self._inert[local] = function
        return self._inert[local]

    def _function(self, local: str) -> FunctionModel | None:
        found = self._target(local)
        if found is None:
            return None
        loaded, attribute = found
        if len(attribute) == 1:
            return loaded.model.body.nested.get(attribute[0])
        if len(attribute) == 2:
            cls = flattened(loaded, attribute[0])
            return None if cls is None else cls.methods.get(attribute[1])
        return None


def flattened(loaded: LoadedModule, name: str) -> ClassInfo | None:
    """Class ``name`` of ``loaded`` with the methods and attributes of its MRO (own
    first), its bases looked up in its own module (and through its imports)."""
    known = loaded.classes.get(name)
    if known is not None or name not in loaded.model.classes:
        return known
    model = loaded.model
    merged = ClassInfo(name=name, bases=())
    pending = [name]
    seen: set[str] = set()
    # a base whose own code cannot touch gradients still gives the methods that call a
    # backward method on ``self`` (a ``train_step`` calling the ``self.update`` the
    # subclass overrides): read only when the index says the class has such a method
    external = model.external
    inherited = (
        external.loader.project.class_backward_methods(loaded.entry, name)
        if isinstance(external, ProjectLookup)
        else frozenset()
    )
    while pending:
        base = pending.pop(0)
        if base in seen:
            continue
        seen.add(base)
        info = model.classes.get(base)
        if info is None and external is not None and inherited - merged.methods.keys():
            info = external.base_class(base)
        if info is None:
            continue
        for method, function in info.methods.items():
            merged.methods.setdefault(method, function)
        for attribute, values in info.attributes.items():
            merged.attributes.setdefault(attribute, list(values))
        merged.manual_optimization = merged.manual_optimization or info.manual_optimization
        pending.extend(info.bases)
    loaded.classes[name] = merged
    return merged


_loader: Loader | None = None


def lookup_for(project: Project, entry: ModuleEntry, options: AnalysisOptions) -> ProjectLookup:
    """The lookup for the analysed module ``entry`` (its own calls back into it, through
    an import cycle, stay unknown). One loader per process and run: a new project or new
    options start a new one."""
    global _loader
    if _loader is None or _loader.project is not project or _loader.options != options:
        _loader = Loader(project, options)
    return ProjectLookup(_loader, entry, frozenset({entry.path}))
