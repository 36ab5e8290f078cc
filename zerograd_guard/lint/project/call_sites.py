"""What a function's callers pass: the class of a parameter, read from its call sites.

``def train_one_epoch(model, loader, optimizer, loss_scaler)`` says nothing of what
``loss_scaler`` is, so its ``loss_scaler(loss, optimizer)`` in the loop is unknown and
the loop is never judged. Its callers often say: ``loss_scaler = NativeScaler()`` and
``train_one_epoch(model, loader, optimizer, loss_scaler)`` in another module (MAE's,
ConvNeXt's and BEiT's layout). When every call of the function in the linted set passes
that parameter an instance of one linted class, the parameter holds one: the analysis
then follows its methods as if the parameter were annotated with the class.

Precision first, so anything less than that is unknown: a caller that hands the
function on as a value (a callback, a table), a call that leaves the parameter to its
default or passes ``*args`` / ``**kwargs`` before it, an argument whose name is bound
other than by one constructor call (a parameter of the caller, a loop target, two
different classes), or callers that disagree. Callers are found through the project's
imports (``from engine import train_one_epoch``, ``import engine`` and
``engine.train_one_epoch(...)``) and in the function's own module; they are read with
``ast`` (the C parser), only when a parameter's class is asked for.
"""

from __future__ import annotations

import ast
import re
from collections import OrderedDict
from dataclasses import dataclass

from zerograd_guard.lint.module_methods import MOVES
from zerograd_guard.lint.project.graph import Project, Target, uses_methods
from zerograd_guard.lint.project.index import ModuleEntry
from zerograd_guard.lint.regions import dotted_name

# a looping function, and its parameter annotated with a class: (file, function, parameter)
_Driver = tuple[ModuleEntry, str, str]
MAX_SUBCLASS_DEPTH = 3  # subclasses without constructors of their own, followed down
CONSTRUCTOR = ".__init__"  # ``Cls.__init__``: the parameters a call of ``Cls(...)`` passes
MAX_BASES = 8  # classes above one whose drivers are looked for
MAX_CALLER_FILES = 16  # more callers than this: the parameter stays unknown
MAX_CALLS = 32
KEPT_TREES = 32

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


@dataclass(frozen=True)
class Caller:
    """A linted file that may call the function, and how it writes the call's name
    (``train_one_epoch``, or ``engine.train_one_epoch`` through a module import)."""

    entry: ModuleEntry
    written: str


class CallSites:
    """One project's answers (built once per process and project: ``for_project``)."""

    def __init__(self, project: Project) -> None:
        self.project = project
        # the last part of an imported dotted name -> (importer, the name bound there)
        self._by_last: dict[str, list[tuple[ModuleEntry, str]]] | None = None
        # module name -> the files importing it with ``*`` (``_star_importers``)
        self._by_star: dict[str, list[ModuleEntry]] | None = None
        self._trees: OrderedDict[str, ast.Module | None] = OrderedDict()
        self._answers: dict[tuple[str, str, str], tuple[Target, ...] | None] = {}
        self._callers: dict[tuple[str, str], list[Caller] | None] = {}
        # per module: the files that import the module itself, and the name bound there
        self._module_importers: dict[str, list[tuple[ModuleEntry, str]]] = {}
        self._modules: dict[tuple[str, str, str], str | None] = {}
        self._indexed: dict[str, _Uses] = {}  # for the trees kept
        # per class (path, name): its annotated drivers (``annotated_drivers``)
        self._drivers: dict[tuple[str, tuple[str, ...]], tuple[_Driver, ...]] = {}

    # -- callers ----------------------------------------------------------------------

    def _imports_by_last(self) -> dict[str, list[tuple[ModuleEntry, str]]]:
        if self._by_last is None:
            self._by_last = {}
            for entry in self.project.entries.values():
                for local, origin in entry.imports.items():
                    last = origin.rpartition(".")[2]
                    self._by_last.setdefault(last, []).append((entry, local))
        return self._by_last

    def callers(self, entry: ModuleEntry, function: str) -> list[Caller] | None:
        """The files that may call top-level function ``function`` of ``entry`` (its own
        module first); None: too many to read. Asked again for each question about the
        function (candidacy, the fast path's seeds, each parameter, the cache key)."""
        key = (entry.path, function)
        if key not in self._callers:
            self._callers[key] = self._find_callers(entry, function)
        return self._callers[key]

    def _find_callers(self, entry: ModuleEntry, function: str) -> list[Caller] | None:
        found = [Caller(entry, function)]
        for importer, local in self._imports_by_last().get(function, ()):
            target = self.project.resolve_local(importer, local)
            if target is not None and target.entry is entry and target.attribute == (function,):
                found.append(Caller(importer, local))
        found.extend(
            Caller(importer, f"{local}.{function}") for importer, local in self._importers(entry)
        )
        for importer in self._star_importers(entry):
            if self.project.star_bound(importer).get(function) is entry:
                found.append(Caller(importer, function))
        return found if len(found) <= MAX_CALLER_FILES + 1 else None

    def _star_importers(self, entry: ModuleEntry) -> list[ModuleEntry]:
        """The files whose ``*`` imports may bind ``entry``'s names (``from agent import
        *``; through packages that re-export it with ``*`` of their own, DeepRL's ``from
        deep_rl import *``), at most ``MAX_CALLER_FILES + 1``."""
        if self._by_star is None:
            self._by_star = {}
            for importer in self.project.entries.values():
                for origin in importer.star:
                    self._by_star.setdefault(origin, []).append(importer)
        found: list[ModuleEntry] = []
        seen = {entry.path}
        pending = list(entry.names)
        while pending and len(found) <= MAX_CALLER_FILES:
            for importer in self._by_star.get(pending.pop(0), ()):
                if importer.path not in seen:
                    seen.add(importer.path)
                    found.append(importer)
                    pending.extend(importer.names)
        return found

    def _importers(self, entry: ModuleEntry) -> list[tuple[ModuleEntry, str]]:
        """The files that bind ``entry``'s module itself to a name (``import engine``,
        ``from . import engine``), in import order. The same for every function of the
        module: found once (a module named like ``torch`` or ``utils`` is imported by
        thousands of files, and each import is resolved). The search stops once there
        are more than ``MAX_CALLER_FILES``: the callers are too many to read then."""
        known = self._module_importers.get(entry.path)
        if known is None:
            known = self._module_importers[entry.path] = []
            module_last = (entry.name or "").rpartition(".")[2]
            importers = self._imports_by_last().get(module_last, ()) if module_last else ()
            for importer, local in importers:
                target = self.project.resolve_local(importer, local)
                if target is not None and target.entry is entry and not target.attribute:
                    known.append((importer, local))
                    if len(known) > MAX_CALLER_FILES:
                        break
        return known

    # -- the question -----------------------------------------------------------------

    def fed_parameter(self, entry: ModuleEntry, function: str, text: str) -> bool:
        """Whether a parameter of top-level ``function`` of ``entry`` (its ``text``) is
        passed instances of classes (``parameter_classes``) whose methods
        with a backward the function may use (``graph.uses_methods``)."""
        tree = self.tree(entry)
        signature = _signature(tree, function) if tree is not None else None
        if signature is None:
            return False
        args, skipped = signature
        for param in (*args.posonlyargs, *args.args, *args.kwonlyargs)[skipped:]:
            for target in self.parameter_classes(entry, function, param.arg) or ():
                if uses_methods(
                    text,
                    self.project.class_backward_methods(target.entry, target.attribute[0])
                    - {"backward"},
                ):
                    return True
        return False

    def annotated_drivers(self, target: Target) -> tuple[_Driver, ...]:
        """The looping top-level functions with a parameter annotated with class
        ``target`` or one of its linted bases, on which they call methods (mammoth's
        ``train(model: ContinualModel, ...)`` calling ``model.meta_observe(...)`` per
        batch), as (file, function, parameter): they run the methods of whatever
        subclass a script passes. Looked for in each class's own module and the files
        importing it by name (at most ``MAX_CALLER_FILES`` of them: more, none)."""
        found: list[_Driver] = []
        pending, seen = [target], set()
        while pending and len(seen) < MAX_BASES:
            current = pending.pop(0)
            key = (current.entry.path, current.attribute)
            if key in seen or len(current.attribute) != 1:
                continue
            seen.add(key)
            if key not in self._drivers:
                self._drivers[key] = self._annotated_drivers(current)
            found.extend(self._drivers[key])
            definition = current.entry.definitions.get(current.attribute[0])
            for base in definition.bases if definition is not None else ():
                above = self.project.top_definition(current.entry, base, is_class=True)
                if above is not None:
                    pending.append(above)
        unique = {(entry.path, name, param): (entry, name, param) for entry, name, param in found}
        return tuple(unique.values())

    def _annotated_drivers(self, target: Target) -> tuple[_Driver, ...]:
        name = target.attribute[0]
        files = [(target.entry, name)]
        for importer, local in self._imports_by_last().get(name, ()):
            resolved = self.project.resolve_local(importer, local)
            if importer is not target.entry and resolved == target:
                files.append((importer, local))
        # every subclass's module imports the class: only a looping file that writes the
        # name as an annotation is read
        files = [
            (entry, local)
            for entry, local in files
            if entry.has_loop
            and re.search(rf":\s*['\"]?{re.escape(local)}\b", self.project.text_of(entry) or "")
        ]
        if len(files) > MAX_CALLER_FILES + 1:
            return ()
        found = []
        for entry, local in files:
            tree = self.tree(entry)
            for node in tree.body if tree is not None else ():
                if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    continue
                params = [
                    arg.arg
                    for arg in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs)
                    if arg.annotation is not None and _annotation_name(arg.annotation) == local
                ]
                if params and _loops(node):
                    found.extend((entry, node.name, param) for param in _receivers(node, params))
        return tuple(found)

    def methods_using(
        self, entry: ModuleEntry, class_name: str, methods: set[str]
    ) -> frozenset[str]:
        """The methods of top-level class ``class_name`` of ``entry`` whose text may use
        an instance whose ``methods`` run a backward (``graph.uses_methods``)."""
        tree = self.tree(entry)
        text = self.project.text_of(entry)
        if tree is None or text is None:
            return frozenset()
        lines = text.splitlines(keepends=True)
        found = set()
        for node in tree.body:
            if not isinstance(node, ast.ClassDef) or node.name != class_name:
                continue
            for member in node.body:
                if isinstance(member, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    own = "".join(lines[member.lineno - 1 : member.end_lineno])
                    if uses_methods(own, methods):
                        found.add(member.name)
        return frozenset(found)

    def parameter_module(self, entry: ModuleEntry, function: str, param: str) -> str | None:
        """The parameter of top-level ``function`` of ``entry`` to which every call
        passes the module whose parameters the optimizer it passes to ``param`` was built
        over (``d_optim = optim.Adam(discriminator.parameters())``, then ``train(...,
        discriminator, ..., d_optim)``); None: unknown."""
        key = (entry.path, function, f"<module of {param}>")
        if key not in self._modules:
            self._modules[key] = self._parameter_module(entry, function, param)
        return self._modules[key]

    def _parameter_module(self, entry: ModuleEntry, function: str, param: str) -> str | None:
        callers = self.callers(entry, called_name(function))
        own = self.tree(entry)
        signature = _signature(own, function) if own is not None else None
        if callers is None or signature is None:
            return None
        args, skipped = signature
        slots = {
            name: slot
            for name in (a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs))
            if (slot := _slot(args, skipped, name)) is not None
        }
        if param not in slots:
            return None
        agreed: str | None = None
        count = 0
        for caller in callers:
            tree = self.tree(caller.entry)
            if tree is None:
                return None
            uses = self._uses(caller.entry, tree)
            sites = uses.sites(caller.written)
            if sites is None:
                return None
            for scope, call in sites:
                count += 1
                if count > MAX_CALLS:
                    return None
                module = _optimized_module(_argument(call, slots[param]), scope, tree, uses)
                if module is None:
                    return None
                passed = [
                    name
                    for name, slot in slots.items()
                    if name != param
                    and isinstance(argument := _argument(call, slot), ast.Name)
                    and argument.id == module
                ]
                if len(passed) != 1 or (agreed is not None and passed[0] != agreed):
                    return None
                agreed = passed[0]
        return agreed

    def parameter_classes(
        self, entry: ModuleEntry, function: str, param: str
    ) -> tuple[Target, ...] | None:
        """The linted classes the calls of ``function`` (top-level in ``entry``) pass to
        its parameter ``param`` instances of, in the order they are first passed; only
        those that run a backward. Each is a configuration of the program some call
        runs (DeepRL's ``run_steps(agent)``, one agent class per script), judged whatever
        the other calls pass (a call whose argument is not known is another
        configuration). None: no such class, or the function's calls are not all known
        (handed on as a value, too many)."""
        key = (entry.path, function, param)
        if key not in self._answers:
            self._answers[key] = self._parameter_classes(entry, function, param)
        return self._answers[key]

    def _parameter_classes(
        self, entry: ModuleEntry, function: str, param: str
    ) -> tuple[Target, ...] | None:
        callers = self.callers(entry, called_name(function))
        # only a class with a backward can change a finding: callers with none in reach
        # are not read (most functions' parameters are asked about), unless a subclass's
        # constructor hands its own parameter on (``_handed_by_subclasses``)
        if callers is None or not any(
            self.project.built_backward_methods(caller.entry)
            or (function.endswith(CONSTRUCTOR) and _subclasses(caller))
            for caller in callers
        ):
            return None
        own = self.tree(entry)
        signature = _signature(own, function) if own is not None else None
        if signature is None:
            return None
        slot = _slot(*signature, param)
        if slot is None:
            return None
        passed = self._passed_to(callers, function, slot)
        if passed is None:
            return None
        running = tuple(target for target in passed if self._runs_backward(target))
        return running or None

    def _passed_to(
        self, callers: list[Caller], function: str, slot: _Slot, depth: int = 0
    ) -> list[Target] | None:
        """The linted classes ``callers``' calls pass to ``slot`` instances of (a
        constructor's: also through their subclasses); None when some call is not known."""
        passed: list[Target] = []
        count = 0
        for caller in callers:
            tree = self.tree(caller.entry)
            if tree is None:
                return None
            uses = self._uses(caller.entry, tree)
            sites = uses.sites(caller.written)
            if sites is None:
                return None  # handed on as a value: its other callers are not known
            for target in self._handed_by_subclasses(caller, tree, uses, function, slot, depth):
                if target not in passed:
                    passed.append(target)
            for scope, call in sites:
                count += 1
                if count > MAX_CALLS:
                    return None
                argument = _argument(call, slot)
                made = _constructed(argument, scope, tree, uses) if argument is not None else None
                if made == _NONE:
                    continue  # ``None``: the function's calls on it never run then
                target = (
                    self.project.top_definition(caller.entry, made, is_class=True)
                    if made is not None
                    else None
                )
                if target is None:
                    continue  # another configuration, not known: the known ones stand
                if target not in passed:
                    passed.append(target)
        return passed

    def subclass_callers(self, caller: Caller, depth: int = 0) -> list[Caller]:
        """The callers of the top-level classes ``caller``'s module derives from the name
        (and of theirs, ``MAX_SUBCLASS_DEPTH`` deep): building one runs the base's
        constructor and gives the instance the base's methods. Read from the index (the
        bases a class header names): no parse."""
        if depth > MAX_SUBCLASS_DEPTH:
            return []
        found: list[Caller] = []
        for subclass in _subclasses(caller):
            for sub_caller in self.callers(caller.entry, subclass) or ():
                found.append(sub_caller)
                found.extend(self.subclass_callers(sub_caller, depth + 1))
        return found

    def _handed_by_subclasses(
        self,
        caller: Caller,
        tree: ast.Module,
        uses: _Uses,
        function: str,
        slot: _Slot,
        depth: int = 0,
    ) -> list[Target]:
        """For a constructor (``Base.__init__``): the classes the subclasses ``caller``
        defines hand it through ``super().__init__(trainer, ...)``, each argument one of
        their own constructor's parameters, typed from their own calls (rlkit's
        ``BatchRLAlgorithm`` over ``BaseRLAlgorithm``); a subclass with no constructor
        of its own is called with the base's (``TorchBatchRLAlgorithm``): its calls pass
        the same slot. What a subclass hands otherwise (``*args``, a value of its own,
        a class not top-level) is another configuration, not known: the known ones
        stand, as for the direct calls."""
        if not function.endswith(CONSTRUCTOR) or depth > MAX_SUBCLASS_DEPTH:
            return []
        if not _subclasses(caller):
            return []  # the index says no class of the module derives from it
        subclasses = uses.subclasses.get(caller.written, [])
        found: list[Target] = []
        for scope, subclass in subclasses:
            if scope is not tree:
                continue
            classes: tuple[Target, ...] | list[Target] | None = None
            if not _own_constructor(subclass):
                sub_callers = self.callers(caller.entry, subclass.name)
                if sub_callers is not None:
                    classes = self._passed_to(sub_callers, function, slot, depth + 1)
            else:
                handed = _super_init_argument(subclass, slot)
                sub_param = _slot_param(subclass, handed) if handed else None
                if sub_param is not None:
                    classes = self.parameter_classes(
                        caller.entry, subclass.name + CONSTRUCTOR, sub_param
                    )
            found.extend(classes or ())
        return found

    def _runs_backward(self, target: Target) -> bool:
        """Whether the class has a method with a backward other than ``backward``
        (``graph.Project.built_backward_methods``)."""
        methods = self.project.class_backward_methods(target.entry, target.attribute[0])
        return bool(methods - {"backward"})

    def _uses(self, entry: ModuleEntry, tree: ast.Module) -> _Uses:
        """The uses of names in ``tree`` (``entry``'s, just read with ``tree``)."""
        uses = self._indexed.get(entry.path)
        if uses is None:
            uses = self._indexed[entry.path] = _Uses(tree)
        return uses

    def tree(self, entry: ModuleEntry) -> ast.Module | None:
        """``entry``'s text parsed with ``ast`` (the last few are kept, with their uses of
        names); None when it cannot be read or parsed."""
        if entry.path in self._trees:
            self._trees.move_to_end(entry.path)
            return self._trees[entry.path]
        text = self.project.text_of(entry)
        tree = None
        if text is not None:
            try:
                tree = ast.parse(text)
            except (SyntaxError, ValueError):
                tree = None
        self._trees[entry.path] = tree
        self._indexed.pop(entry.path, None)
        if len(self._trees) > KEPT_TREES:
            forgotten, _ = self._trees.popitem(last=False)
            self._indexed.pop(forgotten, None)
        return tree


@dataclass(frozen=True)
class _Slot:
    """Where a call passes a parameter: by position (None: keyword-only) or keyword."""

    name: str
    position: int | None


def top_level_function(
    tree: ast.Module, name: str
) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The one top-level function ``name`` of ``tree`` (None: none, or defined twice)."""
    found = [
        node
        for node in tree.body
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name
    ]
    return found[0] if len(found) == 1 else None


def _annotation_name(annotation: ast.expr) -> str | None:
    """The dotted name an annotation writes (``Model``, ``models.Model``, ``"Model"``)."""
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        return annotation.value.strip() or None
    return _written(annotation)


def _loops(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return any(isinstance(node, (ast.For, ast.AsyncFor, ast.While)) for node in ast.walk(function))


def _receivers(function: ast.FunctionDef | ast.AsyncFunctionDef, params: list[str]) -> list[str]:
    """Those of ``params`` that ``function`` calls a method on (``model.observe(...)``)."""
    called = {
        node.func.value.id
        for node in ast.walk(function)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
    }
    return [param for param in params if param in called]


def called_name(function: str) -> str:
    """The name a call of ``function`` is written with: a class's for its constructor
    (``Trainer`` for ``Trainer.__init__``)."""
    return function.removesuffix(CONSTRUCTOR)


def _signature(tree: ast.Module, function: str) -> tuple[ast.arguments, int] | None:
    """The parameters of top-level function ``function`` of ``tree``, or, for
    ``Cls.__init__``, of the constructor of top-level class ``Cls`` (defined once, with
    one ``__init__`` of its own), with how many leading ones a call does not pass
    (``self``: 1)."""
    if not function.endswith(CONSTRUCTOR):
        definition = top_level_function(tree, function)
        return None if definition is None else (definition.args, 0)
    name = called_name(function)
    classes = [node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == name]
    if len(classes) != 1:
        return None
    inits = [
        node
        for node in classes[0].body
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == "__init__"
    ]
    if len(inits) != 1 or not (inits[0].args.posonlyargs or inits[0].args.args):
        return None
    return inits[0].args, 1


def _slot(args: ast.arguments, skipped: int, param: str) -> _Slot | None:
    positional = [a.arg for a in (*args.posonlyargs, *args.args)][skipped:]
    if param in positional:
        keyword_ok = param not in {a.arg for a in args.posonlyargs}
        return _Slot(param if keyword_ok else "", positional.index(param))
    if param in {a.arg for a in args.kwonlyargs}:
        return _Slot(param, None)
    return None


def _written(node: ast.expr) -> str | None:
    """``a.b.c`` (or ``a``) for a chain of names, else None."""
    if isinstance(node, ast.Name):
        return node.id
    return dotted_name(node) if isinstance(node, ast.Attribute) else None


class _Uses:
    """Where a module uses dotted names (``f``, ``engine.f``): its calls of each, with the
    scope each is in, and the names it uses other than by calling them. One walk per
    module; a chain of names is looked at once, from its outermost node."""

    def __init__(self, tree: ast.Module) -> None:
        self.calls: dict[str, list[tuple[ast.AST, ast.Call]]] = {}
        self.other: set[str] = set()
        # the classes deriving from each name, with the scope each is defined in
        self.subclasses: dict[str, list[tuple[ast.AST, ast.ClassDef]]] = {}
        # scope id -> the scope (kept, so its id is not reused) and what it binds
        self._bindings: dict[int, tuple[ast.AST, _Bindings]] = {}
        pending: list[tuple[ast.AST, ast.AST]] = [(tree, tree)]
        while pending:
            node, scope = pending.pop()
            kind = type(node)
            if kind is ast.Name or kind is ast.Attribute:
                written = _written(node)  # type: ignore[arg-type]
                if written is not None:
                    self.other.add(written)
                    continue  # names all the way down: nothing else inside
            inner = node if isinstance(node, _SCOPES) else scope
            if kind is ast.ClassDef:
                for base in node.bases:  # type: ignore[attr-defined]
                    written = _written(base)
                    if written is None:
                        pending.append((base, scope))
                    else:
                        self.subclasses.setdefault(written, []).append((scope, node))  # type: ignore[arg-type]
                pending.extend(
                    (child, inner)
                    for child in (*node.keywords, *node.decorator_list, *node.body)  # type: ignore[attr-defined]
                )
                continue
            if kind is ast.Call:
                written = _written(node.func)  # type: ignore[attr-defined]
                if written is not None:
                    self.calls.setdefault(written, []).append((scope, node))  # type: ignore[arg-type]
                    children = [*node.args, *node.keywords]  # type: ignore[attr-defined]
                    pending.extend((child, inner) for child in children)
                    continue
            # a name in an annotation is a type, handed to nothing that could call it
            if kind is ast.arg:
                continue
            if kind is ast.AnnAssign:
                pending.extend((child, inner) for child in (node.target, node.value) if child)  # type: ignore[attr-defined]
                continue
            if kind is ast.FunctionDef or kind is ast.AsyncFunctionDef:
                pending.extend(
                    (child, inner)
                    for child in ast.iter_child_nodes(node)
                    if child is not node.returns  # type: ignore[attr-defined]
                    and type(child) is not ast.arguments
                )
                arguments = node.args  # type: ignore[attr-defined]
                defaults = [*arguments.defaults, *(d for d in arguments.kw_defaults if d)]
                pending.extend((default, inner) for default in defaults)
                continue
            pending.extend((child, inner) for child in ast.iter_child_nodes(node))

    def bindings(self, scope: ast.AST) -> _Bindings:
        """What ``scope`` (a node of this module's tree) binds, read once."""
        found = self._bindings.get(id(scope))
        if found is None or found[0] is not scope:
            found = self._bindings[id(scope)] = (scope, _Bindings(scope))
        return found[1]

    def sites(self, written: str) -> list[tuple[ast.AST, ast.Call]] | None:
        """Every call of ``written`` with its scope; None when the name is also used other
        than called (handed on, stored, decorated, an attribute of it read). A class
        deriving from it is no such use: ``subclasses`` lists them."""
        if written in self.other or any(
            other.startswith(written + ".") for other in self.other if other[:1] == written[:1]
        ):
            return None
        return self.calls.get(written, [])


def _super_init_argument(subclass: ast.ClassDef, slot: _Slot) -> str | None:
    """The name a subclass's own ``__init__`` passes to ``super().__init__(...)`` for
    ``slot``; "" when its constructor never calls it; None when not known (no
    constructor of its own, or anything but a plain name passed)."""
    inits = [
        node
        for node in subclass.body
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == "__init__"
    ]
    if len(inits) != 1:
        return None
    calls = [
        node
        for node in ast.walk(inits[0])
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "__init__"
        and isinstance(node.func.value, ast.Call)
        and isinstance(node.func.value.func, ast.Name)
        and node.func.value.func.id == "super"
    ]
    if not calls:
        return ""
    if len(calls) != 1:
        return None
    argument = _argument(calls[0], slot)
    return argument.id if isinstance(argument, ast.Name) else None


def _subclasses(caller: Caller) -> list[str]:
    """The top-level classes of ``caller``'s module whose header names the name as a base."""
    return [
        name
        for name, definition in caller.entry.definitions.items()
        if definition.is_class and caller.written in definition.bases
    ]


def _own_constructor(subclass: ast.ClassDef) -> bool:
    return any(
        isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == "__init__"
        for node in subclass.body
    )


def _slot_param(subclass: ast.ClassDef, name: str) -> str | None:
    """``name`` when it is a parameter of the subclass's ``__init__``, else None."""
    for node in subclass.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == "__init__":
            arguments = node.args
            names = {
                a.arg for a in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs)
            }
            return name if name in names else None
    return None


def _argument(call: ast.Call, slot: _Slot) -> ast.expr | None:
    for keyword in call.keywords:
        if slot.name and keyword.arg == slot.name:
            return keyword.value
    if slot.position is not None:
        for index, value in enumerate(call.args):
            if isinstance(value, ast.Starred):
                return None
            if index == slot.position:
                return value
    return None  # left to its default, or passed through ``**kwargs``


def _optimized_module(
    argument: ast.expr | None, scope: ast.AST, tree: ast.Module, uses: _Uses
) -> str | None:
    """The name of the module an optimizer argument was built over: a name bound (in
    its scope, else at module level) only by ``Optimizer(module.parameters(), ...)``
    (or parameter groups of that one module: ``_parameter_sources``),
    ``module`` a plain name bound at most once other than by wrapping itself
    (``module = DDP(module)``, ``module = module.to(device)``); None otherwise."""
    # imported here: the names module pulls in libcst, which only the analysis (the
    # one caller of this) has loaded
    from zerograd_guard.lint.extract.names import OPTIMIZER_CLASSES

    if not isinstance(argument, ast.Name):
        return None
    bound = _bound(argument.id, scope, tree, uses)
    if bound is None:
        return None
    holder, values = bound
    found: set[str] = set()
    for value in values:
        if not (
            isinstance(value, ast.Call)
            and (_written(value.func) or "").rpartition(".")[2] in OPTIMIZER_CLASSES
            and value.args
        ):
            return None
        sources = _parameter_sources(value.args[0], holder, uses, 0)
        if sources is None:
            return None
        found |= sources
    if len(found) != 1:
        return None
    module = found.pop()
    module_values = uses.bindings(holder).of(module)
    if module_values is None:
        return None
    fresh = [
        v
        for v in module_values
        if module not in {n.id for n in ast.walk(v) if isinstance(n, ast.Name)}
    ]
    return module if len(fresh) <= 1 else None


_PARAMETER_CALLS = frozenset({"parameters", "named_parameters"})


def _parameter_sources(
    value: ast.expr, holder: ast.AST, uses: _Uses, depth: int
) -> set[str] | None:
    """The modules whose parameters ``value`` (an optimizer's first argument) lists:
    ``m.parameters()``, ``list(...)`` of it, a comprehension over ``m.named_parameters()``
    keeping the parameter, parameter-group dicts (only their ``"params"`` entries
    count), lists of those, or a name ``holder`` binds once to one of them; None when
    anything else may add parameters."""
    if depth > 4:
        return None
    if isinstance(value, ast.Call):
        func = value.func
        if isinstance(func, ast.Attribute) and func.attr in _PARAMETER_CALLS:
            return {func.value.id} if isinstance(func.value, ast.Name) else None
        if isinstance(func, ast.Name) and func.id in ("list", "tuple") and len(value.args) == 1:
            return _parameter_sources(value.args[0], holder, uses, depth + 1)
        return None
    if isinstance(value, (ast.List, ast.Tuple)):
        found: set[str] = set()
        for element in value.elts:
            sources = _parameter_sources(element, holder, uses, depth + 1)
            if sources is None:
                return None
            found |= sources
        return found
    if isinstance(value, ast.Dict):
        params = [
            item
            for key, item in zip(value.keys, value.values, strict=True)
            if isinstance(key, ast.Constant) and key.value == "params"
        ]
        if len(params) != 1 or None in value.keys:  # ``**other`` may hold params
            return None
        return _parameter_sources(params[0], holder, uses, depth + 1)
    if isinstance(value, (ast.ListComp, ast.GeneratorExp)) and len(value.generators) == 1:
        generator = value.generators[0]
        kept = value.elt
        target = generator.target
        names = [target] if isinstance(target, ast.Name) else getattr(target, "elts", [])
        if not (isinstance(kept, ast.Name) and names and kept.id == getattr(names[-1], "id", None)):
            return None  # keeps something other than each parameter
        return _parameter_sources(generator.iter, holder, uses, depth + 1)
    if isinstance(value, ast.Name):
        values = uses.bindings(holder).of(value.id)
        if not values or len(values) != 1:
            return None
        return _parameter_sources(values[0], holder, uses, depth + 1)
    return None


_NONE = "None"  # what ``_constructed`` says of ``None``


def _constructed(argument: ast.expr, scope: ast.AST, tree: ast.Module, uses: _Uses) -> str | None:
    """The dotted class name ``argument`` was built from: ``C(...)`` itself, or a name
    bound in its scope (else at module level) only by assignments of ``C(...)`` and of
    ``None`` (``loss_scaler = None``, then ``loss_scaler = NativeScaler()`` under an
    ``if``, timm's ``train.py``); ``_NONE`` when it is only ever ``None``."""
    argument = _unmoved(argument)
    if isinstance(argument, ast.Call):
        return _written(argument.func)
    if isinstance(argument, ast.Constant) and argument.value is None:
        return _NONE
    if not isinstance(argument, ast.Name):
        return None
    bound = _bound(argument.id, scope, tree, uses)
    if bound is None or (bound[0] is tree and isinstance(scope, ast.ClassDef)):
        return None  # a class body's name: not the module's
    made = {
        _written(v.func) if isinstance(v, ast.Call) else _none_or_unknown(v)
        for v in map(_unmoved, bound[1])
    }
    if len(made) > 1:
        made.discard(_NONE)
    return made.pop() if len(made) == 1 else None


def _unmoved(value: ast.expr) -> ast.expr:
    """``value`` without the ``MOVES`` calls on it (``Net().cuda().train()``: ``Net()``):
    a module's ``to``, ``cuda``, ``train`` and the like return the module itself."""
    while (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and value.func.attr in MOVES
    ):
        value = value.func.value
    return value


def _bound(
    name: str, scope: ast.AST, tree: ast.Module, uses: _Uses
) -> tuple[ast.AST, list[ast.expr]] | None:
    """Where a use of ``name`` in ``scope`` takes its value: the scope if it assigns the
    name, else the module, with the values assigned there; None when it is bound any
    other way (``_Bindings.of``) or nowhere."""
    for holder in (scope, tree) if scope is not tree else (tree,):
        values = uses.bindings(holder).of(name)
        if values is None:
            return None
        if values:
            return holder, values
    return None


def _none_or_unknown(value: ast.expr) -> str | None:
    return _NONE if isinstance(value, ast.Constant) and value.value is None else None


class _Bindings:
    """The values ``scope``'s own statements assign to each name (nested scopes apart),
    and the names it binds any other way (a parameter, a loop, ``with``, an import,
    ``global``): one walk of the scope answers every name asked of it."""

    def __init__(self, scope: ast.AST) -> None:
        self.values: dict[str, list[ast.expr]] = {}
        self.other: set[str] = set()
        if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            args = scope.args
            every = (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg)
            self.other.update(a.arg for a in every if a is not None)
        pending: list[ast.AST] = list(ast.iter_child_nodes(scope))
        while pending:
            node = pending.pop()
            if isinstance(node, ast.Assign) and all(type(t) is ast.Name for t in node.targets):
                for target in dict.fromkeys(t.id for t in node.targets):  # type: ignore[attr-defined]
                    self.values.setdefault(target, []).append(node.value)
                pending.append(node.value)
                continue
            if isinstance(node, ast.AnnAssign) and type(node.target) is ast.Name:
                if node.value is not None:
                    self.values.setdefault(node.target.id, []).append(node.value)
                    pending.append(node.value)
                continue
            if isinstance(node, (ast.Global, ast.Nonlocal)):
                self.other.update(node.names)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                self.other.update((a.asname or a.name.partition(".")[0]) for a in node.names)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                self.other.add(node.name)
                pending.extend(node.decorator_list)
                continue  # its body is its own scope
            elif isinstance(node, ast.Lambda):
                continue
            elif isinstance(node, ast.Name) and type(node.ctx) is not ast.Load:
                self.other.add(node.id)  # a loop target, ``with ... as``, unpacking, ``+=``
            elif isinstance(node, ast.ExceptHandler) and node.name is not None:
                self.other.add(node.name)
            pending.extend(ast.iter_child_nodes(node))

    def of(self, name: str) -> list[ast.expr] | None:
        """The values assigned to ``name``; None when it is bound any other way."""
        return None if name in self.other else self.values.get(name, [])


_sites: CallSites | None = None


def for_project(project: Project) -> CallSites:
    """The answers for ``project`` (a new project starts new ones)."""
    global _sites
    if _sites is None or _sites.project is not project:
        _sites = CallSites(project)
    return _sites
