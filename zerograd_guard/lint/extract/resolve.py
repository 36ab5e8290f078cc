"""Decide what names hold and turn raw calls into backward / clear / step / call events.

A name's kind comes from the file's own assignments, imports and annotations first
(``torch.optim.Adam(...)``, ``create_optimizer(...)``, ``self.optimizers()``,
``accelerator.prepare(...)`` tuples, ``deepspeed.initialize(...)``, ``GradScaler()``),
then from parameter names. Anything still unknown is harmless: a ``.step()`` on it is
not a step, and an unknown call only makes the optimizers it is handed unknown.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property

import libcst as cst

from zerograd_guard.lint.extract.inert_methods import gradient_free_step, inert_zero_grad
from zerograd_guard.lint.extract.names import (
    CLEARISH_CALL,
    CLIPPING_CALL,
    CONFIGURED_STEP,
    GRAD_WRITE,
    NEW_LEAF,
    NOT_OPTIMIZER_NAME,
    OPTIMIZER_ATTRIBUTES,
    OPTIMIZER_CLASSES,
    OPTIMIZER_FACTORY,
    REBUILT_OPTIMIZER,
    SCALER_NAME,
    SCHEDULER_FACTORY,
    TupleElement,
    callee_name,
    decorated_with,
    from_torch,
    key_of,
    last_segment,
    looks_like_optimizer,
    matches,
    may_write_grads,
    return_values,
    stored_parameters,
    subnodes,
    unmoved,
)
from zerograd_guard.lint.extract.parameter_sets import (
    TENSOR_METHODS,
    ReachTracer,
    bound_arguments,
    optimizer_modules,
)
from zerograd_guard.lint.extract.summed_reads import summed_reads
from zerograd_guard.lint.extract.walker import local_class, target_names
from zerograd_guard.lint.model.events import (
    ALL,
    MANUAL,
    SYNC,
    Event,
    EventKind,
    If,
    Jump,
    Loop,
    Statement,
    child_blocks,
    events_of,
)
from zerograd_guard.lint.model.program import ClassInfo, FunctionModel, ModuleGroups, ModuleModel
from zerograd_guard.lint.module_methods import MOVES
from zerograd_guard.lint.options import AnalysisOptions

OPTIMIZER, SCALER, ENGINE, OTHER, INSTANCE = "optimizer", "scaler", "engine", "other", "instance"
# Calls that are handed optimizers but never clear or step them.
HARMLESS_CALLS = frozenset(
    {
        "clip_gradients", "clip_grad_norm_", "clip_grad_norm", "clip_grad_value_",
        "toggle_optimizer", "untoggle_optimizer", "unscale_", "update", "log", "log_dict",
        "state_dict", "load_state_dict", "append", "extend", "add_param_group", "save", "info",
        "debug", "warning", "set_postfix", "add_scalar", "prepare", "initialize", "wrap",
        "save_checkpoint", "load_checkpoint", "register_for_checkpointing", "zip", "save_model",
        "scale_loss", "master_params",
    }
)  # fmt: skip
# What code reads on an optimizer (``_used_as_optimizer``).
# Method names too common to tell which class an object is.
GENERIC_METHODS = frozenset(
    {
        "step", "zero_grad", "forward", "train", "eval", "to", "update", "backward", "reset",
        "state_dict", "load_state_dict", "parameters", "cuda", "cpu", "run", "fit", "save",
        "load", "log", "close", "get", "set", "add", "apply", "predict", "evaluate",
    }
)  # fmt: skip


@dataclass(frozen=True)
class Holds:
    """What a name holds: ``kind`` (one of the constants above or None: unknown); for an
    optimizer, ``tie``: one group per module it steps (the module and the names it goes
    by, see ``parameter_sets``), None when unknown."""

    kind: str | None
    canonical: str
    tie: ModuleGroups | None = None
    class_name: str | None = None


_MethodJudge = Callable[[list[ClassInfo], bool, Callable[[cst.CSTNode], str]], FunctionModel | None]
"""``inert_methods``' judgements of a class's method (its MRO, unread bases, code)."""
Choice = tuple[str, str]
"""A name whose class or made function a branch chooses: the qualified name of the
function that assigns it, and the name (``("main", "policy")``)."""
Made = tuple[
    FunctionModel, FunctionModel, tuple[str | None, ...], tuple[tuple[str, str | None], ...]
]
"""What a name bound to ``factory(a, b=c)`` runs when called: the function the factory
returns, the factory, and the positional and keyword arguments handed to it."""
RETURNED = "<returned>"
"""The name a factory's returned value is classified under (no name of the code)."""


def _declared_only(method: FunctionModel) -> bool:
    """Whether ``method`` only declares what subclasses implement: an ``@abstractmethod``,
    or a body (past its docstring) that is one ``raise NotImplementedError``. Called on
    an instance, it runs no code of its own (a raise ends the caller's iteration), so it
    makes no receiver's class ambiguous."""
    node = method.node
    if type(node) is not cst.FunctionDef:
        return False
    if decorated_with(node, "abstractmethod"):
        return True
    body = node.body
    if type(body) is cst.SimpleStatementSuite:  # ``def f(self): raise ...``
        small = list(body.body)
    else:
        statements = [s for s in body.body if not _docstring(s)]
        if len(statements) != 1 or type(statements[0]) is not cst.SimpleStatementLine:
            return False
        small = list(statements[0].body)  # type: ignore[attr-defined]
    if len(small) != 1 or type(small[0]) is not cst.Raise or small[0].exc is None:
        return False
    raised = small[0].exc
    if type(raised) is cst.Call:
        raised = raised.func
    return type(raised) is cst.Name and raised.value == "NotImplementedError"


def _self_attribute(node: cst.BaseExpression) -> str | None:
    """``name`` for ``self.name``, else None."""
    if type(node) is cst.Attribute and type(node.value) is cst.Name and node.value.value == "self":
        return node.attr.value
    return None


def _assigning(info: ClassInfo, value: cst.BaseExpression, reader: FunctionModel) -> FunctionModel:
    """Where ``self.x = value`` is read from: the method of ``info`` that assigned it when
    ``value`` is one of that method's parameters (``self.optimizer = optimizer`` in
    ``__init__`` is what callers pass, not a module-level ``optimizer``, which would make
    a wrapper's ``self.optimizer.step()`` call itself); else ``reader``, as before."""
    if type(value) is not cst.Name:
        return reader
    for method in info.methods.values():
        if id(value) in method.value_order:
            return method if value.value in method.params else reader
    return reader


def _docstring(statement: cst.BaseStatement) -> bool:
    return (
        type(statement) is cst.SimpleStatementLine
        and len(statement.body) == 1
        and type(statement.body[0]) is cst.Expr
        and isinstance(statement.body[0].value, cst.BaseString)
    )


class Resolver:
    def __init__(
        self, model: ModuleModel, options: AnalysisOptions, chosen: dict[Choice, int] | None = None
    ) -> None:
        self.model = model
        self.options = options
        # which class each choice takes in this resolution (default: its first branch's),
        # and how many classes each choice met has (``choices``)
        self.chosen = chosen or {}
        self.choices: dict[Choice, int] = {}
        self.reach = ReachTracer(model)
        self.backwards: list[tuple[Event, FunctionModel]] = []  # their reach is set last
        self.duck_types: dict[str, str] = {}
        self._held: dict[tuple[str, FunctionModel], Holds] = {}  # what ``holds`` found
        self._returns: dict[int, list[cst.BaseExpression]] = {}  # ``returns``, per function
        # per function: receiver -> its methods called (see ``_used_as_optimizer``)
        self._receiver_uses: dict[int, dict[str, frozenset[str]]] = {}
        owners: dict[str, set[str]] = {}
        for info in model.classes.values():
            for name, method in info.methods.items():
                if not _declared_only(method):  # an abstract declaration runs nothing
                    owners.setdefault(name, set()).add(info.name)
        self.unique_methods = {
            name: next(iter(classes))
            for name, classes in owners.items()
            if len(classes) == 1 and name not in GENERIC_METHODS and not name.startswith("__")
        }
        self._own_methods = frozenset(owners)  # defined by some class of the file
        self._imported_owners: dict[str, str | None] = {}  # ``_imported_owner``
        # (class, judgement) -> ``_judged_method``'s answer: each class's methods are
        # read (their code generated) once, not at every ``zero_grad()`` / ``step()``
        self._judged: dict[tuple[str, _MethodJudge], FunctionModel | None] = {}

    @cached_property
    def manual_keys(self) -> frozenset[str]:
        """The keys of the file's hand-written updates (``w.grad`` of ``w -= lr * w.grad``)."""
        return frozenset(
            key
            for function in self.model.functions
            for event in events_of(function.body)
            if event.kind == EventKind.STEP
            for key in event.optimizers
            if key.endswith(".grad")
        )

    def duck_typed(self, function: FunctionModel) -> dict[str, str]:
        """Receivers that are handed a method only one class of this file defines
        (``optimizer.step_and_update_lr()``) hold an instance of that class; not an
        attribute of ``self`` that class's own methods hand it (``self.model.pretrain()``
        in ``Trainer.pretrain`` delegates to the model it holds)."""
        found: dict[str, str] = {}
        own_class = self._class_name(function)
        for event in events_of(function.body):
            if event.kind == EventKind.METHOD and event.receiver not in (None, "self", "cls"):
                method = event.method or ""
                owner = self.unique_methods.get(method) or self._imported_owner(method)
                if owner is None or event.receiver is None:
                    continue
                if owner == own_class and event.receiver.startswith("self."):
                    continue
                found.setdefault(event.receiver, owner)
        return found

    def _imported_owner(self, method: str) -> str | None:
        """Project mode: the one class this file imports from another linted module
        (``from transformer.Optim import ScheduledOptim``) that defines ``method`` with a
        body of its own, when no class of the file defines it; None otherwise. Only
        classes that touch gradients are read (``ProjectLookup.class_info``)."""
        external = self.model.external
        if (
            external is None
            or method in self._own_methods
            or method in GENERIC_METHODS
            or method.startswith("__")
        ):
            return None
        if method not in self._imported_owners:
            owners = []
            for local in self.model.imports:
                if not local[:1].isupper() or not external.may_define(local, method):
                    continue  # classes are capitalised; read only a class whose text has it
                info = external.class_info(local)
                defined = info.methods.get(method) if info is not None else None
                if defined is not None and not _declared_only(defined):
                    owners.append(local)
            self._imported_owners[method] = owners[0] if len(owners) == 1 else None
        return self._imported_owners[method]

    # -- what names hold ----------------------------------------------------------------

    def holds(self, key: str, function: FunctionModel, depth: int = 0) -> Holds:
        if key == ALL:
            return Holds(OPTIMIZER, ALL)
        if depth > 6:
            return Holds(None, key)
        if depth == 0 and (key, function) in self._held:  # asked again for every event
            return self._held[key, function]
        found = self._declared(key, function, depth)
        held = found if found is not None and found.kind is not None else self._by_name(key)
        if held.kind is None and self._used_as_optimizer(key, function):
            held = Holds(OPTIMIZER, key)
        elif held.kind is None and self._used_as_scaler(key, function):
            held = Holds(SCALER, key)
        if held.kind == OPTIMIZER and held.tie is None:
            held = Holds(OPTIMIZER, held.canonical, self._tied_by_callers(key, function))
        if depth == 0:
            self._held[key, function] = held
        return held

    def _chosen_instance(self, key: str, scope: FunctionModel, depth: int) -> Holds | None:
        """What plain name ``key`` holds when the arms of one ``if`` assign it instances of
        different classes (``policy = TD3(...)`` / ``policy = DDPG(...)``): a choice of
        configuration, made once per call of ``scope``. This resolution reads the class
        ``chosen`` says (the first branch's by default) and records how many there are, so
        the analysis can judge the function once per class. None: no such choice (one
        class, or assignments that may run one after the other: a rebinding)."""
        values = scope.assignments.get(key, ())
        if len(values) < 2 or "." in key or "[" in key or key in scope.shared_names:
            return None
        instances: list[tuple[Holds, tuple]] = []
        for value in values:
            held = self.classify(value, key, scope, depth)
            if held.kind == INSTANCE and held.class_name is not None:
                place = scope.value_order.get(id(value))
                if place is None:
                    return None
                instances.append((held, place[2]))
        classes = list(dict.fromkeys(held.class_name for held, _ in instances))
        if len(classes) < 2:
            return None
        if not _all_exclusive([arms for _, arms in instances]):
            return None
        picked = self._pick((scope.qualname, key), classes)
        return next(held for held, _ in instances if held.class_name == picked)

    def _pick(self, choice: Choice, classes: list[str]) -> str:
        """The class this analysis gives ``choice`` (see ``_pick_index``)."""
        return classes[self._pick_index(choice, len(classes))]

    def _pick_index(self, choice: Choice, count: int) -> int:
        """The alternative this analysis gives ``choice`` (``chosen``'s, the first by
        default); records how many there are when there is a choice (one analysis per
        alternative, ``analyze._variants``)."""
        if count > 1:
            self.choices[choice] = count
        return min(self.chosen.get(choice, 0), count - 1)

    def _tied_by_callers(self, key: str, function: FunctionModel) -> ModuleGroups | None:
        """For an optimizer that is a parameter of a top-level function (unannotated, not
        rebound in it): the module parameter every caller passes the module it was built
        over (project mode, ``project.call_sites``): stylegan2's ``train(...,
        discriminator, ..., d_optim)``. None: unknown."""
        external = self.model.external
        if (
            external is None
            or not function.top_level
            or key not in function.params
            or key in function.param_annotations
            or key in function.assignments
        ):
            return None
        module = external.parameter_module(function.name, key)
        if module is None or module not in function.params or module in function.assignments:
            return None
        return (frozenset(self.reach.origins(module, function)),)

    def _used_as_optimizer(self, key: str, function: FunctionModel) -> bool:
        """Whether parameter ``key`` of ``function`` holds an optimizer by how the function
        uses it: it calls both ``key.zero_grad()`` and ``key.step()`` (with no argument),
        and neither calls ``key(...)``, runs ``key.backward(...)`` nor calls ``key.step``
        with arguments. No other object training code calls that way has both methods (a
        module has ``zero_grad``, and a ``step`` of its own takes data: ``policy.step(obs)``,
        ``rnn.step(x, h)``; a scheduler, an environment or a scaler has ``step`` only); an
        engine that runs the backward too (DeepSpeed's, whose ``step()`` clears for you), a
        called module and one on which anything but an optimizer's attributes is read
        (``vae.reconstruct``: ``OPTIMIZER_ATTRIBUTES``) are left unknown. Parameters only,
        without an annotation: any other binding says what the name holds. The same for
        an attribute ``self.x`` that only the constructor binds, to such a parameter, and
        that the class's methods use that way (a wrapper of the optimizers it is handed,
        uvadlc's ``OptCollection``)."""
        if key.startswith("self.") and key.count(".") == 1:
            return self._attribute_used_as_optimizer(key, function)
        if key not in function.params or key in function.param_annotations:
            return False
        used = self._uses(function).get(key, frozenset())
        return _optimizer_uses(used) and _reads_optimizer_attributes(
            self.model.module.code_for_node(function.node), key
        )

    def _attribute_used_as_optimizer(self, key: str, function: FunctionModel) -> bool:
        cls = self._class_of(function)
        constructor = cls.methods.get("__init__") if cls is not None else None
        if cls is None or constructor is None or cls.node is None:
            return False
        bindings = cls.attributes.get(key[5:], ())
        stored = stored_parameters(cls, key[5:])
        if (
            not bindings
            or len(stored) != len(bindings)
            or any(
                param in constructor.param_annotations
                or _has_default(constructor, param)  # ``cv=None``: maybe none
                for param in stored
            )
        ):
            return False
        used: set[str] = set()
        for method in cls.methods.values():
            used |= self._uses(method).get(key, frozenset())
        return _optimizer_uses(frozenset(used)) and _reads_optimizer_attributes(
            self.model.module.code_for_node(cls.node), key
        )

    def _used_as_scaler(self, key: str, function: FunctionModel) -> bool:
        """Whether parameter ``key`` of ``function`` holds a gradient scaler by how the
        function uses it, whatever its name (NVAE's ``grad_scalar``): it backpropagates
        ``key.scale(loss)`` and calls ``key.step(...)`` with an argument, GradScaler's
        own calls. Parameters only, without an annotation."""
        if key not in function.params or key in function.param_annotations:
            return False
        return {"scale(...).backward", "step(...)"} <= self._uses(function).get(key, frozenset())

    def _uses(self, function: FunctionModel) -> dict[str, frozenset[str]]:
        uses = self._receiver_uses.get(id(function))
        if uses is None:
            uses = self._receiver_uses[id(function)] = _receiver_uses(function)
        return uses

    def _by_name(self, key: str) -> Holds:
        if looks_like_optimizer(key):
            return Holds(OPTIMIZER, key)
        last = key.rsplit(".", 1)[-1]
        if matches(SCALER_NAME, last):
            return Holds(SCALER, key)
        if matches(NOT_OPTIMIZER_NAME, last):
            return Holds(OTHER, key)
        return Holds(None, key)

    def _declared(self, key: str, function: FunctionModel, depth: int) -> Holds | None:
        if key.startswith("self.") and key.count(".") == 1:
            cls = self._class_of(function)
            if cls is None:
                return None
            for info in self._mro(cls, with_inert_bases=key[5:]):
                for value in info.attributes.get(key[5:], ()):
                    held = self.classify(value, key, _assigning(info, value, function), depth)
                    if held.kind is not None:
                        return held
            return None
        if "[" in key:
            return self._element(key, function, depth)
        if "." in key:
            return self._member(key, function, depth)
        scope: FunctionModel | None = function
        while scope is not None:
            chosen = self._chosen_instance(key, scope, depth)
            if chosen is not None:
                return chosen
            values = scope.assignments.get(key, ())
            for index, value in enumerate(values):
                held = self.classify(value, key, scope, depth)
                if held.kind == OPTIMIZER and held.tie is not None:
                    return self._rebound(held, values[index + 1 :], key, scope, depth)
                if held.kind is not None:
                    return held
            if key in scope.tuple_assignments:
                index, value = scope.tuple_assignments[key]
                return self.classify_tuple(value, index, key, scope, depth)
            annotation = scope.annotations.get(key) or scope.param_annotations.get(key)
            if annotation is not None:
                held = self._annotated(annotation, key)
                if (held is None or held.kind == INSTANCE) and key in scope.params:
                    # ``policy: BasePolicy``: the classes the callers pass say more
                    return self._passed_by_callers(key, scope) or held
                return held
            if key in scope.params:
                return self._passed_by_callers(key, scope)
            scope = scope.parent
        return None

    def _rebound(
        self,
        held: Holds,
        later: Sequence[cst.BaseExpression],
        key: str,
        scope: FunctionModel,
        depth: int,
    ) -> Holds:
        """``held``, an optimizer over known modules, unless ``key`` is bound again to an
        optimizer over other modules (``optimizer`` over ``model_0``, later over
        ``model_1``): which one a read sees depends on where it is, so its modules are
        unknown, as for one name bound in different functions (``_optimizer``)."""
        for value in later:
            other = self.classify(value, key, scope, depth)
            if other.kind == OPTIMIZER and other.tie is not None and other.tie != held.tie:
                return Holds(OPTIMIZER, held.canonical)
        return held

    def _passed_by_callers(self, key: str, function: FunctionModel) -> Holds | None:
        """Parameter ``key`` of a top-level function or of the constructor of a top-level
        class (``self.policy = policy`` in ``Trainer.__init__``), unannotated: an
        instance of the class its callers pass (project mode, ``project.call_sites``),
        else unknown.
        Callers passing instances of different classes are a choice of configuration,
        each class judged (``_pick``)."""
        external = self.model.external
        called = function.called_as
        if external is None or called is None:
            return None
        named = [
            name
            for name in external.parameter_classes(called, key)
            if self.model.class_info(name) is not None
        ]
        if not named:
            return None
        return Holds(INSTANCE, key, class_name=self._pick((function.qualname, key), named))

    def _element(self, key: str, function: FunctionModel, depth: int) -> Holds | None:
        """``opts[1]`` where ``opts`` is assigned one list or tuple literal of names
        (``opts = [optG, optD]``): what that element holds, under its own name; None for
        any other subscript (what its name suggests, as before)."""
        base, _, rest = key.partition("[")
        index = rest[:-1]
        if not index.isdigit() or "." in base or "[" in base:
            return None
        scope: FunctionModel | None = function
        while scope is not None and not _binds(scope, base):
            scope = scope.parent
        values = scope.assignments.get(base, []) if scope is not None else []
        if len(values) != 1 or type(values[0]) not in (cst.List, cst.Tuple):
            return None
        elements = values[0].elements
        position = int(index)
        if position >= len(elements) or type(elements[position]) is cst.StarredElement:
            return None
        element = key_of(elements[position].value)
        if element is None:
            return None
        return self.holds(element, scope, depth + 1)  # type: ignore[arg-type]

    def _member(self, key: str, function: FunctionModel, depth: int) -> Holds | None:
        """``a.b.opt`` where ``a.b`` holds an instance of a class defined in this file."""
        base, attribute = key.rsplit(".", 1)
        owner = self.holds(base, function, depth + 1)
        cls = self.model.class_info(owner.class_name or "") if owner.kind == INSTANCE else None
        if cls is None:
            return None
        for info in self._mro(cls):
            context = info.methods.get("__init__", function)
            for value in info.attributes.get(attribute, ()):
                held = self.classify(value, key, context, depth + 1)
                if held.kind is None:
                    continue
                tie = held.tie
                if tie is not None:
                    tie = tuple(
                        frozenset(
                            base + module[4:]
                            if module == "self" or module.startswith("self.")
                            else module
                            for module in group
                        )
                        for group in tie
                    )
                return Holds(held.kind, key, tie, held.class_name)
        return None

    def _annotated(self, annotation: cst.BaseExpression, key: str) -> Holds | None:
        text = self.model.module.code_for_node(annotation)
        if "Optimizer" in text or any(name in text for name in ("Adam", "SGD")):
            return Holds(OPTIMIZER, key)
        if "GradScaler" in text:
            return Holds(SCALER, key)
        named = key_of(annotation)  # ``scaler: NativeScaler``: a class of this run
        if named is not None and self.model.class_info(named) is not None:
            return Holds(INSTANCE, key, class_name=named)
        return None

    def classify(
        self, value: cst.BaseExpression, key: str, function: FunctionModel, depth: int
    ) -> Holds:
        if isinstance(value, TupleElement):
            return self.classify_tuple(value.value, value.index, key, function, depth)
        if type(value) in (cst.Name, cst.Attribute, cst.Subscript):
            source = key_of(value)
            if source is not None and source != key:
                held = self.holds(source, function, depth + 1)
                if held.kind == OPTIMIZER and "[" not in source and not key.startswith("self."):
                    return held  # a local alias names the same optimizer
                return Holds(held.kind, key, held.tie, held.class_name)
            if type(value) is cst.Subscript and type(value.value) is cst.Call:
                index = value.slice[0].slice
                if type(index) is cst.Index and type(index.value) is cst.Integer:
                    return self.classify_tuple(
                        value.value, int(index.value.value), key, function, depth
                    )
            return Holds(None, key)
        if type(value) is not cst.Call:
            return Holds(None, key)
        name = callee_name(value.func) or ""
        dotted = key_of(value.func) or name
        if dotted in function.optimizer_classes:  # ``opt_func(...)``, ``opt_func=optim.SGD``
            dotted = function.optimizer_classes[dotted]
            name = last_segment(dotted)
        origin = self.model.imports.get(dotted.split(".", 1)[0], "")
        call = _Callee(value, name, dotted, origin)
        for matches_shape, handle in _CALL_KINDS:
            if matches_shape(self, call):
                held = handle(self, call, key, function, depth)
                if held is not None:
                    return held
        return Holds(None, key)

    # -- what a call returns, by its shape (see ``_CALL_KINDS``) ------------------------

    def _is_engine(self, call: _Callee) -> bool:
        return call.name in self.options.managed_engines

    def _engine(self, call: _Callee, key: str, function: FunctionModel, depth: int) -> Holds:
        return Holds(ENGINE, key)

    def _is_scheduler(self, call: _Callee) -> bool:
        if "lr_scheduler" in call.dotted or "lr_scheduler" in call.origin:
            return True  # PyTorch's (``torch.optim.lr_scheduler``), also when linted
        # a name that reads like one: a linted class is judged by its code, not its name
        # (``ScheduledOptim`` wraps the optimizer and steps it); asked last, as another
        # module's class costs a lookup
        return matches(SCHEDULER_FACTORY, call.name) and not (
            (self._is_plain_call(call) and call.name in self.model.classes)
            or self._is_class_of_another_module(call)
        )

    def _other(self, call: _Callee, key: str, function: FunctionModel, depth: int) -> Holds:
        return Holds(OTHER, key)

    def _is_optimizer_class(self, call: _Callee) -> bool:
        return (
            call.name in OPTIMIZER_CLASSES
            or "optim." in call.dotted
            or call.origin.startswith("torch.optim")
            or (matches(OPTIMIZER_FACTORY, call.name) and not self._module_class(call))
            or (self._is_plain_call(call) and self._optimizer_subclass(call.name))
        )

    def _module_class(self, call: _Callee) -> bool:
        """A class (of the file, or in project mode of another linted module) deriving
        from ``nn.Module``: a learned optimizer (``class MetaOptimizer(nn.Module)``) is a
        model, whatever its name says; its ``zero_grad()`` clears its parameters."""
        if not self._is_plain_call(call):
            return False
        if call.name not in self.model.classes and self.model.external is not None:
            return self.model.external.derives_from_module(call.name)
        seen: set[str] = set()
        pending = [call.name]
        while pending:
            name = pending.pop()
            info = self.model.class_info(name)
            if info is None or name in seen:
                continue
            seen.add(name)
            for base in info.bases:
                root, _, rest = base.partition(".")
                origin = self.model.imports.get(root, "") if info.name in self.model.classes else ""
                dotted = f"{origin}.{rest}" if origin and rest else origin or base
                if dotted in ("torch.nn.Module", "nn.Module") or dotted.endswith(".nn.Module"):
                    return True
                pending.append(base)
        return False

    def _optimizer_subclass(self, name: str) -> bool:
        """A class of the file that derives, through classes of the file, from one of
        PyTorch's optimizers (A3C's ``class SharedAdam(optim.Adam)``, or
        ``optim.Optimizer`` with a ``step`` of its own): its instances are optimizers and
        ``step()`` applies their gradients, whatever its body does to them first (weight
        decay added into ``p.grad``)."""
        seen: set[str] = set()
        pending = [name]
        while pending:
            info = self.model.classes.get(pending.pop())
            if info is None or info.name in seen:
                continue
            seen.add(info.name)
            for base in info.bases:
                root, _, rest = base.partition(".")
                origin = self.model.imports.get(root, "")
                dotted = f"{origin}.{rest}" if origin and rest else origin
                if dotted.startswith("torch.optim") and (
                    dotted.rsplit(".", 1)[-1] in OPTIMIZER_CLASSES or dotted.endswith(".Optimizer")
                ):
                    return True
                pending.append(base)
        return False

    def _built_optimizer(
        self, call: _Callee, key: str, function: FunctionModel, depth: int
    ) -> Holds:
        return Holds(OPTIMIZER, key, self.tie(call.node, function))

    def _is_lightning_optimizers(self, call: _Callee) -> bool:
        return call.name == "optimizers"

    def _untied_optimizer(
        self, call: _Callee, key: str, function: FunctionModel, depth: int
    ) -> Holds:
        return Holds(OPTIMIZER, key)

    def _is_move(self, call: _Callee) -> bool:
        return call.name in MOVES and type(call.node.func) is cst.Attribute

    def _moved(self, call: _Callee, key: str, function: FunctionModel, depth: int) -> Holds:
        return self.classify(call.node.func.value, key, function, depth + 1)  # type: ignore[attr-defined]

    def _is_deep_copy(self, call: _Callee) -> bool:
        return call.dotted == "copy.deepcopy" or call.origin == "copy.deepcopy"

    def _copied(self, call: _Callee, key: str, function: FunctionModel, depth: int) -> Holds | None:
        """``copy.deepcopy(model)``: an instance of the class ``model`` holds one of (its
        methods are that class's; its parameters, and an optimizer it holds, are the
        copy's own, under ``key``)."""
        arguments = call.node.args
        source = key_of(arguments[0].value) if len(arguments) == 1 else None
        if source is None:
            return None
        held = self.holds(source, function, depth + 1)
        if held.kind != INSTANCE:
            return None
        return Holds(INSTANCE, key, class_name=held.class_name)

    def _is_grad_scaler(self, call: _Callee) -> bool:
        return call.name == "GradScaler"

    def _scaler(self, call: _Callee, key: str, function: FunctionModel, depth: int) -> Holds:
        return Holds(SCALER, key)

    def _is_single_prepare(self, call: _Callee) -> bool:
        return call.name == "prepare" and len(call.node.args) == 1

    def _prepared(
        self, call: _Callee, key: str, function: FunctionModel, depth: int
    ) -> Holds | None:
        source = key_of(call.node.args[0].value)
        if source is None:
            return None
        held = self.holds(source, function, depth + 1)
        return Holds(held.kind, key, held.tie, held.class_name)

    def _is_plain_call(self, call: _Callee) -> bool:
        return "." not in call.dotted

    def _is_function_call(self, call: _Callee) -> bool:
        """A plain call, or (project mode) ``module.f(...)`` of an imported module."""
        return self._is_plain_call(call) or (
            self.model.external is not None and call.dotted.split(".", 1)[0] in self.model.imports
        )

    def _instance_of_local_class(
        self, call: _Callee, key: str, function: FunctionModel, depth: int
    ) -> Holds | None:
        class_key = local_class(call.name, function) or call.name
        if class_key in self.model.classes:
            return Holds(INSTANCE, key, class_name=class_key)
        return None

    def _built_by_function(
        self, call: _Callee, key: str, function: FunctionModel, depth: int
    ) -> Holds | None:
        """A call of a function of this file whose every return builds an instance of a
        class of the file (a factory: ``model = define_classifier()``): that instance.
        Returns of different classes (``return VAE()`` under an ``if``, else ``return
        Classifier()``) are a choice of configuration, like ``_chosen_instance``'s: this
        resolution reads the class ``chosen`` says and records how many there are. None
        when a return builds anything else, or none is seen."""
        callee = self.function_named(call.name, function)
        if callee is None or depth > 6:
            return None
        classes: list[str] = []
        for value in self.returns(callee):
            held = self.classify(value, RETURNED, callee, depth + 1)
            if held.kind != INSTANCE or held.class_name is None:
                return None
            classes.append(held.class_name)
        classes = list(dict.fromkeys(classes))
        if not classes:
            return None
        return Holds(INSTANCE, key, class_name=self._pick((callee.qualname, RETURNED), classes))

    def _passed_through(
        self, call: _Callee, key: str, function: FunctionModel, depth: int
    ) -> Holds | None:
        """A call of a function of this file (or, in project mode, of another linted
        module: CDAN's ``lr_schedule.inv_lr_scheduler(optimizer, i)``) whose every return
        returns one parameter it never rebinds (``optimizer = exp_lr_scheduler(optimizer,
        epoch)`` sets the learning rate and hands the optimizer back): what the argument
        passed for it holds, whatever the function's name says. None otherwise."""
        if depth > 6:
            return None
        callee = self.function_named(call.name, function) if self._is_plain_call(call) else None
        if callee is None and key in {key_of(arg.value) for arg in call.node.args}:
            # another module's function is read only for a name bound to its own result
            # (``optimizer = f(optimizer, i)``): most calls are not worth a parse
            callee = self._external(call.dotted, inert=True)
        if callee is None:
            return None
        returned = {key_of(value) for value in self.returns(callee)}
        if len(returned) != 1:
            return None
        (param,) = returned
        if param not in callee.params or _binds_again(callee, param):
            return None
        argument = (bound_arguments(callee.node, call.node) or {}).get(param)
        if argument is None:
            return None
        return self.classify(argument, key, function, depth + 1)

    def _is_class_of_another_module(self, call: _Callee) -> bool:
        return self.model.external is not None and self.model.class_info(call.dotted) is not None

    def _instance_of_another_module(
        self, call: _Callee, key: str, function: FunctionModel, depth: int
    ) -> Holds:
        return Holds(INSTANCE, key, class_name=call.dotted)  # project mode

    def classify_tuple(
        self,
        value: cst.BaseExpression,
        index: int,
        key: str,
        function: FunctionModel,
        depth: int,
    ) -> Holds:
        if type(value) is not cst.Call:
            return Holds(None, key)
        name = callee_name(value.func)
        if name == "initialize" and "deepspeed" in (key_of(value.func) or ""):
            return Holds(ENGINE if index == 0 else OPTIMIZER if index == 1 else OTHER, key)
        if name == "optimizers":
            return Holds(OPTIMIZER, key)
        if name == "prepare":
            positional = [arg for arg in value.args if arg.keyword is None]
            if index < len(positional):
                source = key_of(positional[index].value)
                if source is not None:
                    held = self.holds(source, function, depth + 1)
                    return Holds(held.kind, key, held.tie, held.class_name)
        callee = self._tuple_maker(value, function)
        if callee is not None:
            return self._returned(value, callee, index, key, function, depth)
        return Holds(None, key)

    def _tuple_maker(self, call: cst.Call, function: FunctionModel) -> FunctionModel | None:
        """The function of this file ``call`` runs: a plain name's, or a method of the
        class of ``self`` (``Gopt, Dopt = self.build_optimizers()``)."""
        func = call.func
        if type(func) is cst.Name:
            return self.function_named(func.value, function)
        if (
            type(func) is cst.Attribute
            and type(func.value) is cst.Name
            and func.value.value == "self"
        ):
            return self.method(self._class_name(function), func.attr.value)
        return None

    def _returned(
        self,
        call: cst.Call,
        callee: FunctionModel,
        index: int,
        key: str,
        function: FunctionModel,
        depth: int,
    ) -> Holds:
        """Element ``index`` of the tuple a function of this file returns
        (``model, opt = setup(args)``), what it holds seen from the caller: its tie's
        modules renamed to the caller's names for the elements they are returned as.
        A model both functions read keeps its name (a module-level one, or ``self``'s for
        a method of the same instance). Unknown when the
        function's returns of that length name different things, or when the optimizer
        steps a module the caller cannot name."""
        targets = {
            position: target
            for target, (position, value) in function.tuple_assignments.items()
            if value is call
        }
        elements = returned_tuple(callee, len(targets)) if len(targets) > 1 else None
        if elements is None:
            return Holds(None, key)
        element = elements[index]
        element_key = key_of(element)
        held = (
            self.holds(element_key, callee, depth + 1)
            if element_key is not None
            else self.classify(element, key, callee, depth + 1)  # ``return ..., Adam(...)``
        )
        if held.kind is None:
            return Holds(None, key)
        returned = [key_of(value) for value in elements]
        renamed = {name: targets[position] for position, name in enumerate(returned) if name}
        on_self = type(call.func) is cst.Attribute
        for group in held.tie or ():
            for module in group:
                if module in renamed:
                    continue
                if self._same_global(module, callee, function) or (
                    on_self and module.startswith("self.")
                ):
                    renamed[module] = module  # a model both read (module level, or ``self``'s)
        tie = None
        if held.tie is not None:
            groups = [frozenset(renamed[m] for m in group if m in renamed) for group in held.tie]
            if all(groups):
                tie = tuple(
                    frozenset().union(*(self.reach.origins(m, function) for m in group))
                    for group in groups
                )
        return Holds(held.kind, key, tie, held.class_name)

    def _same_global(self, name: str, *functions: FunctionModel) -> bool:
        """Whether ``name`` is a module-level variable that each of ``functions`` reads as
        that global (no local binding of it in the function or an enclosing one)."""
        body = self.model.body
        if "." in name or (name not in body.assignments and name not in body.tuple_assignments):
            return False
        for function in functions:
            scope: FunctionModel | None = function
            while scope is not None and scope is not body:
                if name in scope.shared_names:
                    break  # ``global name``: the module's variable
                if _binds(scope, name):
                    return False
                scope = scope.parent
        return True

    def tie(self, call: cst.Call, function: FunctionModel) -> ModuleGroups | None:
        """Modules whose parameters an optimizer built by ``call`` steps (None: unknown),
        each with the modules it wraps or aliases (see ``parameter_sets``)."""
        modules = optimizer_modules(call, function)
        if modules is None:
            return None
        return tuple(frozenset(self.reach.origins(module, function)) for module in sorted(modules))

    def _class_of(self, function: FunctionModel) -> ClassInfo | None:
        scope: FunctionModel | None = function
        while scope is not None:
            if scope.class_name is not None:
                return self.model.classes.get(scope.class_name)
            scope = scope.parent
        return None

    def _mro(self, cls: ClassInfo, with_inert_bases: str = "") -> list[ClassInfo]:
        """``cls`` and its bases known here; ``with_inert_bases`` (an attribute): also the
        bases of other linted modules whose own code touches no gradient but stores that
        attribute (rlkit's ``BaseRLAlgorithm`` stores ``self.trainer``)."""
        external = self.model.external if with_inert_bases else None
        order: list[ClassInfo] = []
        pending = [cls]
        while pending:
            info = pending.pop(0)
            if info in order:
                continue
            order.append(info)
            for base in info.bases:
                found = self.model.class_info(base)
                if (
                    found is None
                    and external is not None
                    and info is cls
                    and external.base_stores(base, with_inert_bases)
                ):
                    found = external.base_class(base)
                if found is not None:
                    pending.append(found)
        return order

    def method(self, class_name: str | None, name: str) -> FunctionModel | None:
        cls = self.model.class_info(class_name or "")
        if cls is None:
            return None
        for info in self._mro(cls):
            if name in info.methods:
                return info.methods[name]
        return None

    def returns(self, function: FunctionModel) -> list[cst.BaseExpression]:
        """The values ``function``'s ``return`` statements return (``return_values``),
        read once: the shapes of ``classify`` ask again for every name bound to a call."""
        found = self._returns.get(id(function))
        if found is None:
            found = self._returns[id(function)] = return_values(
                getattr(function.node, "body", None)
            )
        return found

    def function_named(self, name: str, function: FunctionModel) -> FunctionModel | None:
        """The function a plain ``name`` called in ``function`` is defined as, by Python's
        scopes: a parameter or a local value of that name in a function on the way hides
        the functions of the scopes around it (None: what it holds is not a definition)."""
        scope = _binding_scope(name, function)
        return scope.nested.get(name) if scope is not None else None

    # -- events -------------------------------------------------------------------------

    def resolve_block(self, statements: list[Statement], function: FunctionModel) -> None:
        resolved: list[Statement] = []
        for statement in statements:
            if isinstance(statement, Event):
                resolved.extend(map(_synced, self.resolve_event(statement, function)))
                continue
            for part in child_blocks(statement):
                self.resolve_block(part, function)
            resolved.append(statement)
        _join_module_clears(resolved)
        _sync_after_accumulate(resolved)
        statements[:] = resolved

    def _optimizer(self, key: str | None, function: FunctionModel) -> str | None:
        if key is None:
            return None
        held = self.holds(key, function)
        if held.kind != OPTIMIZER:
            return None
        key = held.canonical
        if held.tie is not None:
            tie = frozenset(name for group in held.tie for name in group)
            known = self.model.ties.get(key, tie)
            if key in self.model.ties and known != tie:
                # one name, optimizers over different modules (in different functions):
                # which one a clear or a backward meets is not known
                self.model.ties[key] = None
                self.model.tie_groups.pop(key, None)
            elif key not in self.model.ties or known is not None:
                self.model.ties[key] = tie
                self.model.tie_groups[key] = held.tie
        elif key not in self.model.ties:
            self.model.ties[key] = None
        return held.canonical

    def resolve_event(self, event: Event, function: FunctionModel) -> list[Event]:
        kind = event.kind
        if kind == EventKind.HAVOC and event.callee_name == REBUILT_OPTIMIZER:
            return self._rebuilt(event, function)
        if kind == EventKind.CLEAR and event.callee_name == NEW_LEAF:
            factory = event.receiver or ""  # "": a copy (``x.detach().clone()``)
            new_leaf = not factory or from_torch(factory, self.model.imports)
            return [event] if new_leaf and event.optimizers[0] in self.manual_keys else []
        if kind == EventKind.BACKWARD:
            callee = self._user_backward(event, function)
            if callee is not None:  # ``model.backward(loss)``: that method, on ``model``
                receiver = key_of(event.node.func.value)  # type: ignore[attr-defined]
                event.kind, event.callee, event.receiver = EventKind.CALL, callee, receiver
                event.instance_class = self.holds(receiver, function).class_name
                event.args = tuple(key_of(arg.value) for arg in event.node.args if not arg.keyword)  # type: ignore[attr-defined]
                return [event]
            if event.loss is not None:
                self.backwards.append((event, function))
            return [event]
        if kind == EventKind.STEP and event.callee_name == CONFIGURED_STEP:
            target = next(
                (o for key in event.args if (o := self._optimizer(key, function)) is not None),
                None,
            )
            event.optimizers = (ALL,) if target is None else (target,)
            if target is not None:
                event.callee_name = None
            return [event]
        if kind in (EventKind.STEP, EventKind.CLEAR) and event.optimizers:
            for key in event.optimizers:
                if key.endswith(".grad"):  # a manually updated tensor is its own module
                    self.model.ties[key] = frozenset({key[:-5]})
                    self.model.tie_groups[key] = (frozenset({key[:-5]}),)
            event.optimizers = tuple(
                k if k.endswith(".grad") else self._optimizer(k, function) or k
                for k in event.optimizers
            )
            return [event]
        if kind == EventKind.METHOD:
            return self._method(event, function)
        if kind == EventKind.CALL:
            return self._call(event, function)
        return [event]

    def _closure(
        self, step: Event, name: str, function: FunctionModel, defined: FunctionModel | None
    ) -> None:
        """The function ``step(name)`` runs as its closure: the nearest scope that binds
        ``name`` decides. A function defined there is the closure (in the step's own
        function, ``defined``: the definition made so far, when the name is defined again
        later); a variable there is one only as ``name = functools.partial(f, a, b=c)``
        (``f`` a function of this file, those arguments bound), assigned that once and
        nothing else; anything else leaves the closure unknown. ``self.m`` in a method is
        the method ``m`` of its class, run on the same ``self`` (torchbearer's
        ``optimizer.step(self.closure)``)."""
        if name.startswith("self.") and name.count(".") == 1:
            if function.class_name is not None and function.params[:1] == ("self",):
                step.closure_model = self.method(function.class_name, name[5:])
            return
        scope: FunctionModel | None = function
        while scope is not None:
            assigned = _binds(scope, name)
            if name in scope.nested:
                if not assigned:
                    own = defined if scope is function else None
                    step.closure_model = own or scope.nested[name]
                return
            if assigned:
                self._partial_closure(step, name, scope)
                return
            scope = scope.parent

    def _partial_closure(self, step: Event, name: str, scope: FunctionModel) -> None:
        bound = self._partial(name, scope)
        if bound is not None:
            step.closure_model, step.closure_args, step.closure_kwargs = bound

    def _partial(
        self, name: str, scope: FunctionModel
    ) -> tuple[FunctionModel, tuple[str | None, ...], tuple[tuple[str, str | None], ...]] | None:
        """What ``name = functools.partial(f, a, b=c)`` binds in ``scope`` (assigned that
        once and nothing else; ``f`` a function of this file): ``f`` and the arguments it
        is handed ahead of a call's own. A plain alias (``train_fn = train_step``) binds
        ``f`` and nothing."""
        values = scope.assignments.get(name, [])
        if len(values) != 1 or name in scope.tuple_assignments or name in scope.params:
            return None
        value = self._uncompiled(values[0])
        if type(value) is cst.Name:
            aliased = self.function_named(value.value, scope)
            return None if aliased is None else (aliased, (), ())
        if type(value) is cst.IfExp:
            chosen = self._chosen_function(value, name, scope)
            return None if chosen is None else (chosen, (), ())
        if type(value) is not cst.Call or not self._is_partial(value.func):
            return None
        if any(arg.star for arg in value.args):
            return None  # ``*args`` / ``**kwargs``: what is bound is not known
        positional = [arg.value for arg in value.args if arg.keyword is None]
        if not positional or type(positional[0]) is not cst.Name:
            return None
        target = self.function_named(positional[0].value, scope)
        if target is None:
            return None
        return (
            target,
            tuple(key_of(arg) for arg in positional[1:]),
            tuple(
                (arg.keyword.value, key_of(arg.value))
                for arg in value.args
                if arg.keyword is not None
            ),
        )

    def _chosen_function(
        self, value: cst.IfExp, name: str, scope: FunctionModel
    ) -> FunctionModel | None:
        """``name = f if c else (g if d else h)``, every arm a function of this file: a
        choice of configuration (continual-learning's ``train_fn``), each function judged
        in its own analysis (``_pick``). None when an arm is anything else."""
        arms: list[cst.BaseExpression] = [value]
        functions: list[FunctionModel] = []
        while arms:
            arm = arms.pop(0)
            if type(arm) is cst.IfExp:
                arms[:0] = [arm.body, arm.orelse]
                continue
            function = self.function_named(arm.value, scope) if type(arm) is cst.Name else None
            if function is None:
                return None
            if function not in functions:
                functions.append(function)
        names = [function.qualname for function in functions]
        return functions[names.index(self._pick((scope.qualname, name), names))]

    def _made(self, name: str, scope: FunctionModel) -> Made | None:
        """What ``name = factory(a, b=c)`` binds in ``scope`` (assigned that once and
        otherwise only ``None``, which no call can run: open_clip's ``train_step = None``
        on one branch) when ``factory`` is a function of this file whose every ``return``
        returns one function it defines: that function, the factory and the arguments the
        factory was handed (what the made function's free names read). Assigned in the
        arms of one ``if``, the arm ``chosen`` says (``_chosen_value``)."""
        values = [
            value
            for value in scope.assignments.get(name, [])
            if not (type(value) is cst.Name and value.value == "None")
        ]
        if not values or name in scope.tuple_assignments or name in scope.params:
            return None
        if len(values) == 1:
            return self._made_by(values[0], scope)
        return self._chosen_value(name, values, scope)

    def _chosen_value(
        self, name: str, values: list[cst.BaseExpression], scope: FunctionModel
    ) -> Made | None:
        """The function ``name`` holds when the arms of one ``if`` assign it different
        values, at least one of them a made function: a choice of configuration, made once
        per call of ``scope`` like ``_chosen_instance``'s, so the analysis judges the
        function once per arm (``analyze._variants``); an arm whose value is not a made
        function leaves the call unresolved in its analysis. None: no such choice
        (assignments that may run one after the other)."""
        arms = []
        for value in values:
            place = scope.value_order.get(id(value))
            if place is None:
                return None
            arms.append(place[2])
        if not _all_exclusive(arms):
            return None
        made = [self._made_by(value, scope) for value in values]
        if all(one is None for one in made):
            return None
        return made[self._pick_index((scope.qualname, name), len(made))]

    def _made_by(
        self, value: cst.BaseExpression, scope: FunctionModel, depth: int = 0
    ) -> Made | None:
        """``_made`` for one assigned ``value``: a call of a factory function, or of a
        method of the class on ``self`` (``self._make_train_step_fn()``, then ``self``
        is the factory's first argument), or an attribute of ``self`` bound to one
        (``step_fn = self.train_step_fn``)."""
        value = self._uncompiled(value)
        if _self_attribute(value) is not None and depth < 2:
            return self._made_attribute(_self_attribute(value), scope, depth + 1)  # type: ignore[arg-type]
        if type(value) is cst.Name:
            return self._defined_here(value.value, scope)
        if type(value) is not cst.Call or any(arg.star for arg in value.args):
            return None
        receiver: tuple[str, ...] = ()
        if type(value.func) is cst.Name:
            factory = self.function_named(value.func.value, scope)
        elif (method := _self_attribute(value.func)) is not None:
            factory, receiver = self.method(self._class_name(scope), method), ("self",)
        else:
            return None
        if factory is None:
            return None
        made = _returned_function(factory)
        if made is None:
            return None
        return (
            made,
            factory,
            receiver + tuple(key_of(arg.value) for arg in value.args if arg.keyword is None),
            tuple(
                (arg.keyword.value, key_of(arg.value))
                for arg in value.args
                if arg.keyword is not None
            ),
        )

    def _defined_here(self, name: str, scope: FunctionModel) -> Made | None:
        """A function ``scope`` defines and binds nowhere else, handed on by its name
        (deepxde's ``self.train_step = train_step`` in ``_compile_pytorch``): ``scope`` is
        its factory, a method's ``self`` the instance."""
        made = scope.nested.get(name)
        if made is None or _assigns(scope, name):
            return None
        receiver = (
            ("self",) if scope.class_name is not None and scope.params[:1] == ("self",) else ()
        )
        return made, scope, receiver, ()

    def _made_here(self, name: str, scope: FunctionModel) -> Made | None:
        """``_made``, when what the factory was handed are names ``scope`` binds itself
        or its module does, not parameters: the function it is passed to reads them under
        those names (a caller's parameter is another name there)."""
        made = self._made(name, scope)
        if made is None:
            return None
        handed = (*made[2], *(value for _, value in made[3]))
        for key in handed:
            if key is None:
                continue  # a value no name holds (``torch.nn.MSELoss()``): unknown there too
            head = key.split(".", 1)[0]
            owner: FunctionModel | None = scope
            while owner is not None and not _binds(owner, head):
                owner = owner.parent
            if owner is not None and head in owner.params:
                return None
        return made

    def _made_attribute(self, name: str, function: FunctionModel, depth: int = 0) -> Made | None:
        """What ``self.name`` holds when the class binds it once, to a made function
        (``self.train_step_fn = self._make_train_step_fn()`` in PyTorchStepByStep's
        ``__init__``): calling it runs that function."""
        cls = self._class_of(function)
        if cls is None:
            return None
        bound = [
            (value, info)
            for info in self._mro(cls)
            for value in info.attributes.get(name, ())
            if not (type(value) is cst.Name and value.value == "None")
        ]
        if len(bound) != 1:
            return None
        value, info = bound[0]
        scope = next(
            (method for method in info.methods.values() if id(value) in method.value_order),
            None,
        )
        return None if scope is None else self._made_by(value, scope, depth)

    def _is_partial(self, func: cst.BaseExpression) -> bool:
        return self._imported_as(func) == "functools.partial"

    def _imported_as(self, func: cst.BaseExpression) -> str | None:
        """The dotted name ``func`` stands for through the file's imports."""
        dotted = key_of(func)
        if dotted is None:
            return None
        head, _, rest = dotted.partition(".")
        origin = self.model.imports.get(head)
        return f"{origin}.{rest}" if origin and rest else origin or dotted

    def _uncompiled(self, value: cst.BaseExpression) -> cst.BaseExpression:
        """``f`` for ``torch.compile(f, ...)``: calling the compiled function runs the
        same Python (dynamo breaks the graph at a backward or a step), so a name bound
        to it is bound to ``f`` for what a call of it does."""
        if (
            type(value) is cst.Call
            and value.args
            and value.args[0].keyword is None
            and not value.args[0].star
            and self._imported_as(value.func) == "torch.compile"
        ):
            return value.args[0].value
        return value

    def _rebuilt(self, event: Event, function: FunctionModel) -> list[Event]:
        """An optimizer built again in a loop over the same modules: the gradients its
        parameters hold stay (no event); over modules the function may also rebuild, or
        unknown ones, what it holds is unknown (the HAVOC stays)."""
        key = event.optimizers[0]
        held = self.holds(key, function)
        modules = [module for group in held.tie or () for module in group]
        if (
            held.kind != OPTIMIZER
            or not modules
            or any(self._reassigned(module, function) for module in modules)
        ):
            event.callee_name = None
            return [event]
        self._optimizer(key, function)
        self.model.rebuilt_optimizers.setdefault(held.canonical, []).append(event)
        return []

    def _super_method(
        self, event: Event, method: str, function: FunctionModel
    ) -> FunctionModel | None:
        """``method`` as the bases of the class whose method ``function`` is define it,
        when ``event`` is ``super().method(...)``; ``super(Base, self)`` starts after
        ``Base`` (BasicSR's ``super(VideoBaseModel, self).optimize_parameters(...)``).
        In-file bases only, in method resolution order (None otherwise: a library base's
        method stays what it was)."""
        func = getattr(event.node, "func", None)
        if type(func) is not cst.Attribute or type(func.value) is not cst.Call:
            return None
        made = func.value
        if type(made.func) is not cst.Name or made.func.value != "super":
            return None
        cls = self._class_of(function)
        if cls is None:
            return None
        order = self._mro(cls)
        start = 1
        if made.args:
            first = made.args[0].value
            if len(made.args) != 2 or type(first) is not cst.Name:
                return None
            named = [index for index, info in enumerate(order) if info.name == first.value]
            if not named:
                return None
            start = named[0] + 1
        for info in order[start:]:
            if method in info.methods:
                return info.methods[method]
        return None

    def _reassigned(self, module: str, function: FunctionModel) -> bool:
        if module.startswith("self.") and module.count(".") == 1:
            cls = self._class_of(function)
            return cls is None or len(cls.attributes.get(module[5:], ())) != 1
        return module in function.assignments or module in function.tuple_assignments

    def _method(self, event: Event, function: FunctionModel) -> list[Event]:
        receiver, method = event.receiver, event.method or ""
        inherited = self._super_method(event, method, function) if receiver is None else None
        if inherited is not None:  # ``super().m()``: that method, on the same ``self``
            event.kind, event.callee, event.receiver, event.method = (
                EventKind.CALL,
                inherited,
                "self",
                None,  # no dispatch on ``self``'s class: it would find the override
            )
            return [event]
        held = self.holds(receiver, function) if receiver is not None else Holds(None, "")
        if "zero_grad" in event.keywords:
            events = []
            if "step" in method and held.kind == OPTIMIZER:
                events.append(self._as(event, EventKind.STEP, (held.canonical,)))
            events.append(self._clear(event, receiver, held, function))
            return events
        if held.kind not in (INSTANCE, ENGINE, SCALER, OTHER) and receiver in self.duck_types:
            held = Holds(INSTANCE, held.canonical, class_name=self.duck_types[receiver])
        made = (
            self._made_attribute(method, function)
            if receiver == "self" and self.method(self._class_name(function), method) is None
            else None
        )
        if made is not None:
            # ``self.train_step_fn(x, y)``: the function a factory made, not a method
            event.kind, event.receiver, event.method = EventKind.CALL, None, None
            event.callee, event.factory, event.factory_args, event.factory_kwargs = made
            return self._passing_canonical_names(event, function)
        called = (
            self._attribute_call(method, function)
            if receiver == "self" and self.method(self._class_name(function), method) is None
            else None
        )
        if called is not None:
            # ``self.step_runner(batch)``: the ``__call__`` of the instance the attribute holds
            callee, class_name = called
            event.kind, event.callee = EventKind.CALL, callee
            event.receiver, event.method = f"self.{method}", callee.name
            event.instance_class = class_name
            return [event]
        if held.kind == INSTANCE or receiver in ("self", "cls"):
            class_name = held.class_name if held.kind == INSTANCE else self._class_name(function)
            callee = self.method(class_name, method)
            overridden = held.kind != INSTANCE and any(
                method in info.methods for info in self.model.classes.values()
            )
            if callee is not None or overridden:  # a subclass in this file may define it
                event.kind, event.callee = EventKind.CALL, callee
                if held.kind == INSTANCE:
                    event.instance_class = class_name
                    event.stored = self._stored_arguments(receiver, class_name, function)
                return [event]
        callee = (
            self._external(f"{receiver}.{method}")
            if held.kind is None and not self._shadowed(receiver, function)
            else None
        )
        if callee is not None:  # ``steps.train_step(...)``: a function of another module
            event.kind, event.callee, event.receiver = EventKind.CALL, callee, None
            return [event]
        if method == "zero_grad":
            inert = self._inert_zero_grad(receiver, function) if held.kind == OPTIMIZER else None
            if inert is not None:  # the wrapper's ``zero_grad()`` clears nothing
                self.model.inert_clears.setdefault(held.canonical, []).append((event, inert))
                return []
            return [self._clear(event, receiver, held, function)]
        if method == "step":
            if held.kind == OPTIMIZER and self._handed_a_loss(event, function):
                return []  # a differentiable optimizer's ``step(loss)``: no ``.grad`` used
            if held.kind == OPTIMIZER and self._gradient_free_step(receiver, function):
                return []  # a proximal step of the run's own class: no ``.grad`` used
            if held.kind == OPTIMIZER:
                self._optimizer(receiver, function)
                step = self._as(event, EventKind.STEP, (held.canonical,))
                if event.closure is not None:
                    self._closure(step, event.closure, function, event.defined)
                    step.closure_repeats = self._repeats_closure(receiver, function)
                return [step]
            if held.kind == ENGINE:
                step = self._as(event, EventKind.STEP, (ALL,))
                step.engine = True
                return [step]
            if held.kind == SCALER and event.args and event.args[0] is not None:
                target = self._optimizer(event.args[0], function) or event.args[0]
                return [self._as(event, EventKind.STEP, (target,))]
            return []
        if (
            method == "optimizer_step"
            and event.args
            and event.args[0] is not None
            and self._is_xla(receiver)
        ):  # ``xm.optimizer_step(optimizer)``: a strategy's method of that name is unknown
            target = self._optimizer(event.args[0], function)
            return [self._as(event, EventKind.STEP, (target,))] if target else []
        module_function = held.kind is None and not self._shadowed(receiver, function)
        return self._opaque(
            event, method, function, f"{receiver}.{method}" if module_function else None
        )

    def _inert_zero_grad(self, key: str | None, function: FunctionModel) -> FunctionModel | None:
        """The method ``key.zero_grad()`` runs when ``key`` holds an instance of a class
        of this file (or, in project mode, of another linted module) whose ``zero_grad``
        clears nothing (``inert_methods``); None when unknown or when it may clear."""
        return self._judged_method(key, function, inert_zero_grad)

    def _gradient_free_step(self, key: str | None, function: FunctionModel) -> bool:
        """Whether ``key.step()`` runs the ``step`` of a class of the run that uses no
        gradient (``inert_methods``: a proximal optimizer)."""
        return self._judged_method(key, function, gradient_free_step) is not None

    def _judged_method(
        self, key: str | None, function: FunctionModel, judge: _MethodJudge
    ) -> FunctionModel | None:
        class_name = self._built_class(key, function) if key is not None else None
        if class_name is None:
            return None
        if (class_name, judge) not in self._judged:
            info = self._readable_class(class_name)
            judged = None
            if info is not None:
                mro = self._mro(info)
                unread = any(
                    base != "object"
                    and self.model.class_info(base) is None
                    and not self.model.imports.get(base.split(".", 1)[0], "").startswith(
                        "torch.optim"
                    )
                    for cls in mro
                    for base in cls.bases
                )
                judged = judge(mro, unread, self.model.module.code_for_node)
            self._judged[class_name, judge] = judged
        return self._judged[class_name, judge]

    def _bindings(
        self, key: str, function: FunctionModel
    ) -> list[tuple[cst.BaseExpression, FunctionModel]] | None:
        """Every value ``key`` (a plain name, or ``self.x``) is bound to where ``function``
        reads it, with the scope binding it; None when it is a parameter or anything
        else."""
        if key.startswith("self.") and key.count(".") == 1:
            cls = self._class_of(function)
            if cls is None:
                return None
            return [
                (value, info.methods.get("__init__", function))
                for info in self._mro(cls)
                for value in info.attributes.get(key[5:], ())
            ]
        if "." in key or "[" in key:
            return None
        scope: FunctionModel | None = function
        while scope is not None and key not in scope.assignments:
            if key in scope.params:
                return None
            scope = scope.parent
        if scope is None or key in scope.params or key in scope.tuple_assignments:
            return None
        return [(value, scope) for value in scope.assignments[key]]

    def _repeats_closure(self, key: str, function: FunctionModel) -> bool:
        """Whether every binding of optimizer ``key`` builds PyTorch's ``LBFGS`` (not with
        ``max_iter=1`` written out): its ``step(closure)`` evaluates the closure again
        after each update of the parameters (``max_iter`` times, 20 by default), so a
        closure that does not clear adds each evaluation's gradients onto those the
        update used."""
        bindings = self._bindings(key, function)
        if not bindings:
            return False
        for value, _ in bindings:
            if type(value) is not cst.Call:
                return False
            name = key_of(value.func) or ""
            if name.rpartition(".")[2] != "LBFGS" or not from_torch(name, self.model.imports):
                return False
            for arg in value.args:
                if (
                    arg.keyword is not None
                    and arg.keyword.value == "max_iter"
                    and type(arg.value) is cst.Integer
                    and arg.value.value == "1"
                ):
                    return False
        return True

    def _built_class(self, key: str, function: FunctionModel) -> str | None:
        """The class every binding of ``key`` (a plain name, or ``self.x``) builds an
        instance of by calling it (``optimizer = LARS(SGD(...))``); None when some
        binding is anything else, or ``key`` is a parameter."""
        bindings = self._bindings(key, function)
        if bindings is None:
            return None
        built = set()
        for value, scope in bindings:
            if type(value) is not cst.Call:
                return None
            name = callee_name(value.func) or ""
            class_name = local_class(name, scope) or key_of(value.func) or name
            if self._readable_class(class_name) is None:
                return None
            built.add(class_name)
        return built.pop() if len(built) == 1 else None

    def _readable_class(self, name: str) -> ClassInfo | None:
        """Class ``name`` of the file or (project mode) of another linted module, also one
        whose own code cannot touch gradients (a proximal optimizer's)."""
        found = self.model.class_info(name)
        if found is None and self.model.external is not None:
            found = self.model.external.base_class(name)
        return found

    def _is_xla(self, receiver: str | None) -> bool:
        """Whether ``receiver`` names torch_xla's ``xla_model`` module (``xm``)."""
        if receiver is None:
            return False
        return self.model.imports.get(receiver.split(".", 1)[0], "").startswith("torch_xla")

    def _user_backward(self, event: Event, function: FunctionModel) -> FunctionModel | None:
        """The file's own ``backward`` method that ``x.backward(...)`` calls, when ``x``
        holds an instance of a class of the file that defines one without a backward of
        its own (a from-scratch NumPy layer storing ``self.grad = grad``), or one that also
        steps (edge-connect's ``model.backward(gen_loss, dis_loss)`` runs both backwards
        and both optimizers' steps): a call of that method, not autograd's backward. A
        method that only runs one (a trainer's wrapper around ``loss.backward()``) stays a
        backward at the call, where it is reported."""
        node = event.node
        if type(node) is not cst.Call or type(node.func) is not cst.Attribute:
            return None
        if node.func.attr.value != "backward":
            return None
        receiver = key_of(node.func.value)
        if receiver is None or receiver in ("self", "cls"):
            return None
        held = self.holds(receiver, function)
        if held.kind != INSTANCE or held.class_name is None:
            return None
        method = self.method(held.class_name, "backward")
        if method is None:
            return None
        steps = any(
            e.kind == EventKind.STEP or (e.kind == EventKind.METHOD and e.method == "step")
            for e in events_of(method.body)
        )
        return method if steps or not method.has_backward else None

    def _handed_a_loss(self, event: Event, function: FunctionModel) -> bool:
        """Whether ``x.step(...)`` is handed, first (or, without positional arguments,
        by a keyword other than ``closure``), a value computed like a loss (an
        arithmetic expression, ``.sum()``, ``.mean()``..., or a local name assigned only
        such values): a torch optimizer's ``step`` takes a closure, never a loss; a
        differentiable optimizer's (facebookresearch/higher's ``diffopt.step(loss)``,
        AuxiLearn's ``meta_optimizer.step(val_loss=...)``) takes the loss and computes
        its gradients with ``autograd.grad``, never reading or writing ``.grad``."""
        if type(event.node) is not cst.Call:
            return False
        positional = [arg.value for arg in event.node.args if arg.keyword is None and not arg.star]
        handed = positional[:1] or [
            arg.value
            for arg in event.node.args
            if arg.keyword is not None and arg.keyword.value != "closure"
        ]
        return any(self._loss_value(value, function) for value in handed)

    @staticmethod
    def _loss_value(value: cst.BaseExpression, function: FunctionModel, sums: bool = True) -> bool:
        """A value computed like a loss, or a local name assigned only such values, or
        (with ``sums``) a sum of them started from a number (``meta_val_loss = 0.0``,
        then ``meta_val_loss += val_loss``)."""
        if type(value) is not cst.Name:
            return _loss_like(value)
        values = _assigned(value.value, function)
        if values and all(_loss_like(assigned) for assigned in values):
            return True
        added = function.augmented.get(value.value, ()) if sums else ()
        return (
            bool(values and added)
            and all(type(assigned) in (cst.Integer, cst.Float) for assigned in values)
            and all(Resolver._loss_value(term, function, sums=False) for term in added)
        )

    def _class_name(self, function: FunctionModel) -> str | None:
        cls = self._class_of(function)
        return cls.name if cls is not None else None

    def _clear(
        self, event: Event, receiver: str | None, held: Holds, function: FunctionModel
    ) -> Event:
        if receiver is None or receiver == ALL:
            return self._as(event, EventKind.CLEAR, (ALL,))
        if held.kind == OPTIMIZER:
            self._optimizer(receiver, function)
            if self.model.hands_over and ("set_to_none", "False") in event.kwargs:
                # zeroes the gradient tensors in place, those handed over to it included
                return self._as(event, EventKind.CLEAR, (held.canonical, MANUAL))
            return self._as(event, EventKind.CLEAR, (held.canonical,))
        if held.kind == ENGINE:
            return self._as(event, EventKind.CLEAR, (ALL,))
        clear = self._as(event, EventKind.CLEAR, ())
        # a container's clear clears what it holds (``nn.ModuleDict({"D": netD})``)
        clear.modules = (receiver, *sorted(self.reach.contained(receiver, function)))
        return clear

    def _call(self, event: Event, function: FunctionModel) -> list[Event]:
        name = event.callee_name or ""
        callee = event.defined or self.function_named(name, function)
        if callee is None and _binding_scope(name.split(".", 1)[0], function) is None:
            callee = self._external(name)  # imported, not hidden by a local name
        if callee is not None:
            event.callee = callee
            return self._passing_canonical_names(event, function)
        plain = bool(name) and "." not in name
        bound = self._partial(name, function) if plain else None
        if bound is not None:  # ``backwards = partial(loss_backwards, fp16)``; ``backwards(l)``
            event.callee, args, kwargs = bound
            event.args, event.kwargs = args + event.args, kwargs + event.kwargs
            return self._passing_canonical_names(event, function)
        passed = self._passed_function(name, function) if plain else None
        if isinstance(passed, tuple):  # ``mini_batch(loader, train_step_fn)``: a made one
            event.callee, event.factory, event.factory_args, event.factory_kwargs = passed
            return self._passing_canonical_names(event, function)
        if passed is not None:  # ``def fit(..., fit_function=gradient_step)``; ``fit_function(b)``
            event.callee = passed
            return self._passing_canonical_names(event, function)
        made = self._made(name, function) if plain else None
        if made is not None:  # ``train_step = make_train_step(model, opt)``; ``train_step(b)``
            event.callee, event.factory, event.factory_args, event.factory_kwargs = made
            return self._passing_canonical_names(event, function)
        method = self._instance_call(name, function)
        if method is not None:  # ``scaler(loss, optimizer)``: a method on ``scaler``
            event.callee, event.receiver, event.method = method, name, method.name
            return self._passing_canonical_names(event, function)
        return self._opaque(event, name, function, name)

    def _passed_function(self, param: str, function: FunctionModel) -> FunctionModel | Made | None:
        """What calling parameter ``param`` of ``function`` (a function, not a method, that
        does not rebind it) runs: a function of this file that a call of ``function`` in
        this file passes for it (or a function a factory made there: PyTorchStepByStep's
        ``mini_batch(device, loader, train_step_fn)``), or its default where a call
        leaves it out (or no call is seen). Calls passing different functions are a
        choice of configuration, each judged (``_pick_index``); a call passing something
        else is another configuration, left unknown. None: no function is known to be
        passed."""
        if function.class_name is not None or param not in function.params:
            return None
        if param in function.assignments or param in function.tuple_assignments:
            return None
        passed: list[FunctionModel | Made] = []
        left_out = False
        sites = self._calls_by_name.get(function.name, [])
        for event, scope in sites:
            if self.function_named(function.name, scope) is not function:
                continue
            argument = _argument_for(function, param, event)
            if argument is _LEFT_OUT:
                left_out = True
            elif argument is not None and "." not in argument:
                named = self.function_named(argument, scope) or self._made_here(argument, scope)
                if named is not None and named not in passed:
                    passed.append(named)
        default = _default_name(function, param)
        if default is not None and (left_out or not sites) and function.parent is not None:
            named = self.function_named(default, function.parent)
            if named is not None and named not in passed:
                passed.append(named)
        if not passed:
            return None
        return passed[self._pick_index((function.qualname, param), len(passed))]

    @cached_property
    def _calls_by_name(self) -> dict[str, list[tuple[Event, FunctionModel]]]:
        """The plain-name calls of the file, by the name called, with their functions."""
        found: dict[str, list[tuple[Event, FunctionModel]]] = {}
        for function in self.model.functions:
            for event in events_of(function.body):
                name = event.callee_name
                if event.kind == EventKind.CALL and name and "." not in name:
                    found.setdefault(name, []).append((event, function))
        return found

    def _passing_canonical_names(self, event: Event, function: FunctionModel) -> list[Event]:
        """``event`` with each argument that holds an optimizer under another name
        (``optimizer = state.optimizer``; ``one_step(model, optimizer)``) passed as that
        optimizer's canonical name, the one the caller's steps and clears use: the
        callee's clear or step of its parameter is one of what the caller clears."""
        canonical = self._canonical_argument
        event.args = tuple(canonical(arg, function) for arg in event.args)
        event.kwargs = tuple((name, canonical(arg, function)) for name, arg in event.kwargs)
        if event.factory is not None:
            event.factory_args = tuple(canonical(arg, function) for arg in event.factory_args)
            event.factory_kwargs = tuple(
                (name, canonical(arg, function)) for name, arg in event.factory_kwargs
            )
        return [event]

    def _canonical_argument(self, arg: str | None, function: FunctionModel) -> str | None:
        if arg is None:
            return None
        held = self.holds(arg, function)
        return held.canonical if held.kind == OPTIMIZER and held.canonical != ALL else arg

    def _instance_call(self, name: str, function: FunctionModel) -> FunctionModel | None:
        """What calling ``name`` runs when it holds an instance of a class this file (or,
        in project mode, another linted module) defines: its ``__call__``, else its
        ``forward`` (a module's ``__call__`` runs it)."""
        if not name:
            return None
        held = self.holds(name, function)
        if held.kind != INSTANCE:
            return None
        return self.method(held.class_name, "__call__") or self.method(held.class_name, "forward")

    def _stored_arguments(
        self, receiver: str | None, class_name: str | None, function: FunctionModel
    ) -> tuple[tuple[str, str], ...]:
        """For ``helper.m()`` on an instance ``function`` builds once
        (``helper = Helper(optimizer)``): each attribute the class's constructor stores a
        parameter in as it is (``self.optimizer = optimizer``, its only binding in the
        class) with the name that construction passed for it. Inside the call that
        attribute is that object (an AWP helper's ``self.model`` and
        ``self.optimizer`` are the loop's own)."""
        cls = self.model.class_info(class_name or "")
        if receiver is None or cls is None or not receiver.isidentifier():
            return ()
        values = function.assignments.get(receiver, ())
        constructor = cls.methods.get("__init__")
        if len(values) != 1 or constructor is None or receiver in function.params:
            return ()
        call = unmoved(values[0])
        if type(call) is not cst.Call or key_of(call.func) not in (class_name, cls.name):
            return ()
        passed = _arguments_by_parameter(constructor, call)
        found = []
        for attribute, bindings in cls.attributes.items():
            stored = stored_parameters(cls, attribute)
            if len(bindings) == 1 and len(stored) == 1 and stored[0] in passed:
                found.append((attribute, passed[stored[0]]))
        return tuple(found)

    def _attribute_call(
        self, attribute: str, function: FunctionModel
    ) -> tuple[FunctionModel, str] | None:
        """What ``self.attribute(...)`` runs when the attribute holds an instance of a class
        of this file (or, in project mode, of another linted module) that defines
        ``__call__`` (torchkeras's ``StepRunner``), with that class. A module's
        ``forward`` is not followed here: attributes holding submodules are called on
        every forward pass, and their ``forward`` touches no gradients."""
        held = self.holds(f"self.{attribute}", function)
        if held.kind != INSTANCE:
            return None
        callee = self.method(held.class_name, "__call__")
        return (callee, held.class_name or "") if callee is not None else None

    @staticmethod
    def _shadowed(receiver: str | None, function: FunctionModel) -> bool:
        """Whether ``receiver``'s head is a local name of ``function`` (a parameter or
        assigned there), not the module it imports under that name."""
        if receiver is None:
            return False
        head = receiver.partition(".")[0]
        return (
            head in function.params
            or head in function.assignments
            or head in function.tuple_assignments
        )

    def _external(self, name: str, inert: bool = False) -> FunctionModel | None:
        """Project mode: ``name`` (as written here) resolved to a function of another
        linted module; None when it is not imported or not linted. ``inert``: also one
        that cannot touch gradients in what the analysis follows, read after all (it is
        handed an optimizer)."""
        external = self.model.external
        if external is None or name.split(".", 1)[0] not in self.model.imports:
            return None
        return external.inert_function(name) if inert else external.function(name)

    def _opaque(
        self, event: Event, name: str, function: FunctionModel, written: str | None = None
    ) -> list[Event]:
        """An unknown call: harmless unless it may clear (by name) or is handed optimizers.
        ``written``: the callee as written, when it may name another module's function
        (``utils.adjust_learning_rate``)."""
        if matches(CLEARISH_CALL, name):
            return [self._as(event, EventKind.HAVOC, (ALL,))]
        if (
            name in HARMLESS_CALLS
            or matches(CLIPPING_CALL, name)
            or name in OPTIMIZER_CLASSES
            or matches(SCHEDULER_FACTORY, name)
            or matches(OPTIMIZER_FACTORY, name)
        ):
            return []
        handed = [k for k in (*event.args, *(v for _, v in event.kwargs)) if k is not None]
        optimizers = tuple(o for k in handed if (o := self._optimizer(k, function)) is not None)
        if optimizers:
            read = self._external(written, inert=True) if written else None
            if read is not None:  # another module's function, read: analysed in place
                event.kind, event.callee, event.receiver = EventKind.CALL, read, None
                return [event]
            return [self._as(event, EventKind.HAVOC, optimizers)]
        receiver = self.holds(event.receiver, function) if event.receiver else None
        if type(event.node) is cst.Call and (
            may_write_grads(event.node, name)
            or (receiver is not None and receiver.kind == OPTIMIZER)
        ):
            havoc = self._as(event, EventKind.HAVOC, ())
            havoc.callee_name = GRAD_WRITE  # fresh gradients may come from it
            return [havoc]
        return []

    @staticmethod
    def _as(event: Event, kind: EventKind, optimizers: tuple[str, ...]) -> Event:
        return Event(
            kind=kind,
            node=event.node,
            function=event.function,
            statement=event.statement,
            anchor=event.anchor,
            block=event.block,
            receiver=event.receiver,
            receiver_node=event.receiver_node,
            method=event.method,
            args=event.args,
            optimizers=optimizers,
            managed=event.managed,
            each=event.each,
            collection=event.collection,
        )


@dataclass(frozen=True, slots=True)
class _Callee:
    """A call whose result ``Resolver.classify`` decides: the node and what it calls
    (``name``: the last part, ``dotted``: the whole, ``origin``: the import it comes from)."""

    node: cst.Call
    name: str
    dotted: str
    origin: str


# What a call returns, by its shape: the first row whose test holds and whose handler
# answers (None: this row does not decide) gives what the name holds. Adding a shape
# means adding a row.
_CALL_KINDS = (
    (Resolver._is_engine, Resolver._engine),
    (Resolver._is_function_call, Resolver._passed_through),
    (Resolver._is_scheduler, Resolver._other),
    (Resolver._is_optimizer_class, Resolver._built_optimizer),
    (Resolver._is_lightning_optimizers, Resolver._untied_optimizer),
    (Resolver._is_move, Resolver._moved),
    (Resolver._is_deep_copy, Resolver._copied),
    (Resolver._is_grad_scaler, Resolver._scaler),
    (Resolver._is_single_prepare, Resolver._prepared),
    (Resolver._is_plain_call, Resolver._instance_of_local_class),
    (Resolver._is_plain_call, Resolver._built_by_function),
    (Resolver._is_class_of_another_module, Resolver._instance_of_another_module),
    # a module of another linted module whose code touches no gradient: not an
    # optimizer, whatever the name it is bound to says (``meta_optimizer = MetaNet()``)
    (Resolver._module_class, Resolver._other),
)


def _join_module_clears(statements: list[Statement]) -> None:
    """Clears one after the other (``encoder.zero_grad(); decoder.zero_grad()``) clear
    together: each module clear is given the union of the run's modules, and each clear
    the run's optimizers (``companions``), so an optimizer over all of them is judged
    cleared, not partly cleared by each."""
    run: list[Event] = []
    for statement in [*statements, None]:
        if isinstance(statement, Event) and statement.kind == EventKind.KILL:
            continue
        if (
            isinstance(statement, Event)
            and statement.kind == EventKind.CLEAR
            and bool(statement.modules) != bool(statement.optimizers)
        ):
            run.append(statement)
            continue
        if len(run) > 1:
            modules = tuple(dict.fromkeys(module for clear in run for module in clear.modules))
            optimizers = tuple(dict.fromkeys(key for clear in run for key in clear.optimizers))
            for clear in run:
                if clear.modules:
                    clear.modules = modules
                clear.companions = optimizers
        run = []


def _sync_after_accumulate(statements: list[Statement]) -> None:
    """A prepared optimizer's clear or step after the ``accumulate()`` block it steps in
    (same statement list) still sees that micro-batch's sync state: it is skipped on the
    micro-batches that do not sync, like the ones inside the block."""
    managed: set[str] = set()
    for index, statement in enumerate(statements):
        if type(statement) is If and statement.atom is SYNC:
            for event in statement.body:
                managed.update(event.optimizers)  # type: ignore[union-attr]
        elif (
            managed
            and type(statement) is Event
            and statement.kind in (EventKind.STEP, EventKind.CLEAR)
            and statement.optimizers
            and set(statement.optimizers) <= managed
        ):
            statements[index] = If(atom=SYNC, negated=False, body=[statement], orelse=[])


def _param_default(function: FunctionModel, param: str) -> cst.BaseExpression | None:
    """The default ``param`` is declared with, if any."""
    node = function.node
    if type(node) is not cst.FunctionDef:
        return None
    every = (*node.params.posonly_params, *node.params.params, *node.params.kwonly_params)
    for declared in every:
        if declared.name.value == param:
            return declared.default
    return None


def _has_default(function: FunctionModel, param: str) -> bool:
    return _param_default(function, param) is not None


def _optimizer_uses(used: frozenset[str]) -> bool:
    """Whether the methods called on an object are an optimizer's (``_used_as_optimizer``):
    ``zero_grad()`` and ``step()``, no call of it, no backward, no ``step`` with data."""
    return {"zero_grad", "step"} <= used and not used & {"backward", "()", "step(...)"}


def _reads_optimizer_attributes(text: str, key: str) -> bool:
    """Whether ``text`` reads nothing on ``key`` but what an optimizer has: a module with a
    ``step()`` of its own (``vae.step()`` annealing a KL weight) reads other attributes."""
    read = re.findall(rf"(?<![\w.]){re.escape(key)}\s*\.\s*(\w+)", text)
    return set(read) <= OPTIMIZER_ATTRIBUTES


def _receiver_uses(function: FunctionModel) -> dict[str, frozenset[str]]:
    """For each name ``function`` calls methods on: those methods (resolved events keep
    their receiver and method), ``"backward"`` when it runs ``name.backward(...)``,
    ``"scale(...).backward"`` when it runs ``name.scale(loss).backward()`` and ``"()"``
    when it calls ``name(...)`` itself."""
    found: dict[str, set[str]] = {}
    for event in events_of(function.body):
        if event.receiver is not None and event.method is not None:
            method = event.method
            if method == "step" and (event.args or event.kwargs):
                method = "step(...)"  # ``policy.step(obs)``: a model's own step, not an update
            found.setdefault(event.receiver, set()).add(method)
        elif event.kind == EventKind.CALL and event.callee_name and event.receiver is None:
            found.setdefault(event.callee_name, set()).add("()")
        elif event.kind == EventKind.BACKWARD and isinstance(event.node, cst.Call):
            func = event.node.func
            if isinstance(func, cst.Attribute) and event.node.args:
                owner = key_of(func.value)
                if owner is not None:
                    found.setdefault(owner, set()).add("backward")
            elif isinstance(func, cst.Attribute) and (scaler := _scaled_by(func.value)):
                found.setdefault(scaler, set()).add("scale(...).backward")
    return {name: frozenset(methods) for name, methods in found.items()}


def _scaled_by(value: cst.BaseExpression) -> str | None:
    """``scaler`` for ``scaler.scale(loss)``, else None."""
    if (
        type(value) is cst.Call
        and type(value.func) is cst.Attribute
        and value.func.attr.value == "scale"
        and value.args
    ):
        return key_of(value.func.value)
    return None


def _synced(event: Event) -> Statement:
    """A prepared optimizer's step or clear inside ``accelerator.accumulate()`` runs only
    on the micro-batch that syncs gradients (see ``SYNC``)."""
    if event.managed and event.kind in (EventKind.STEP, EventKind.CLEAR) and event.optimizers:
        return If(atom=SYNC, negated=False, body=[event], orelse=[])
    return event


def _arguments_by_parameter(function: FunctionModel, call: cst.Call) -> dict[str, str]:
    """The names ``call`` passes for the parameters of ``function`` (a method: ``self``
    skipped), positional then by keyword; a starred argument ends the positional ones."""
    params = list(function.params[1:])
    passed: dict[str, str] = {}
    for index, arg in enumerate(call.args):
        if arg.star:
            params = []
            continue
        if arg.keyword is not None:
            name = arg.keyword.value
        elif index < len(params):
            name = params[index]
        else:
            continue
        key = key_of(arg.value)
        if key is not None and name in function.params:
            passed[name] = key
    return passed


def _binds(scope: FunctionModel, name: str) -> bool:
    """Whether ``scope`` binds ``name`` itself (an assignment, a parameter, a loop)."""
    return name in scope.params or _assigns(scope, name)


def _assigns(scope: FunctionModel, name: str) -> bool:
    """Whether ``scope`` assigns ``name`` (plainly, as a tuple element, or as a loop
    target)."""
    return (
        name in scope.assignments or name in scope.tuple_assignments or name in scope.loop_targets
    )


def _binds_again(function: FunctionModel, param: str) -> bool:
    """Whether ``function`` binds its parameter ``param`` to something else."""
    return _assigns(function, param) or param in function.augmented


def _keyword(node: cst.CSTNode, name: str) -> cst.BaseExpression | None:
    if type(node) is not cst.Call:
        return None
    for arg in node.args:
        if arg.keyword is not None and arg.keyword.value == name:
            return arg.value
    return None


def returned_tuple(function: FunctionModel, length: int) -> list[cst.BaseExpression] | None:
    """The elements of the tuple of ``length`` elements ``function`` returns (``return
    model, opt``); None when it has no such return, or several that do not name the same
    things element by element (then only names compare: an expression built there, such
    as ``Adam(net.parameters())``, counts only in a function's one return of that length)."""
    returns = [
        value
        for value in return_values(getattr(function.node, "body", None))
        if type(value) is cst.Tuple and len(value.elements) == length
    ]
    if not returns or any(
        type(element) is cst.StarredElement for value in returns for element in value.elements
    ):
        return None
    elements = [element.value for element in returns[0].elements]
    if len(returns) > 1:
        names = [key_of(element) for element in elements]
        if None in names or any(
            [key_of(element.value) for element in value.elements] != names for value in returns
        ):
            return None
    return elements


def _loss_like(value: cst.BaseExpression) -> bool:
    """An arithmetic expression or a tensor method's result (``y.pow(2).sum()``)."""
    if type(value) in (cst.BinaryOperation, cst.UnaryOperation):
        return True
    return (
        type(value) is cst.Call
        and type(value.func) is cst.Attribute
        and value.func.attr.value in TENSOR_METHODS
    )


def _assigned(name: str, function: FunctionModel) -> list[cst.BaseExpression]:
    """The values assigned to a plain local ``name`` in the nearest scope that binds it
    (none when it is a parameter there)."""
    scope: FunctionModel | None = function
    while scope is not None:
        if name in scope.params:
            return []
        values = scope.assignments.get(name)
        if values:
            return list(values)
        scope = scope.parent
    return []


_LEFT_OUT = "<left out>"
"""``_argument_for``'s answer for a parameter a call does not pass (its default runs)."""


def _argument_for(function: FunctionModel, param: str, call: Event) -> str | None:
    """The name ``call`` passes ``function``'s ``param`` (None: not a plain name, or
    not known with ``*args`` / ``**kwargs``), ``_LEFT_OUT`` when it passes nothing for
    it."""
    node = call.node
    if type(node) is not cst.Call or any(arg.star for arg in node.args):
        return None
    for name, argument in call.kwargs:
        if name == param:
            return argument
    definition = function.node
    if type(definition) is not cst.FunctionDef:
        return None
    positional = [
        p.name.value for p in (*definition.params.posonly_params, *definition.params.params)
    ]
    if param in positional and positional.index(param) < len(call.args):
        return call.args[positional.index(param)]
    return _LEFT_OUT


def _default_name(function: FunctionModel, param: str) -> str | None:
    """The plain name ``param``'s default is (``fit_function=gradient_step``), if any."""
    default = _param_default(function, param)
    return default.value if type(default) is cst.Name else None


def _binding_scope(name: str, function: FunctionModel) -> FunctionModel | None:
    """The innermost scope around ``function`` (itself first, the module body last)
    that binds plain ``name``: by a ``def`` there, or, in a function, as a parameter or a
    local value (``_binds_value``). None: no scope of this file binds it so."""
    scope: FunctionModel | None = function
    while scope is not None:
        if name in scope.nested or (scope.parent is not None and _binds_value(scope, name)):
            return scope
        scope = scope.parent
    return None


def _binds_value(function: FunctionModel, name: str) -> bool:
    """Whether ``function`` (not the module body) binds ``name`` other than by a ``def``: a
    parameter, an assignment or a loop target, not declared ``global`` / ``nonlocal``."""
    return name not in function.shared_names and _binds(function, name)


def _all_exclusive(arms: list[tuple]) -> bool:
    """Whether at most one of the assignments placed in these ``if`` arms runs
    (``_exclusive`` for every pair)."""
    return all(_exclusive(arm, other) for i, arm in enumerate(arms) for other in arms[i + 1 :])


def _exclusive(first: tuple, second: tuple) -> bool:
    """Whether two assignments placed in ``if`` arms ``first`` and ``second``
    (``ValuePlace``'s arms: (the ``if``, the arm taken, in a loop)) are in different arms
    of one ``if`` outside any loop: at most one of them runs."""
    taken = {node: arm for node, arm, looped in first if not looped}
    return any(not looped and node in taken and taken[node] != arm for node, arm, looped in second)


def resolve_module(
    model: ModuleModel, options: AnalysisOptions, chosen: dict[Choice, int] | None = None
) -> dict[Choice, int]:
    """Resolve every function's raw events in place, a branch-chosen instance as
    ``chosen`` says (``Resolver._chosen_instance``); returns the choices met, each with
    its number of classes."""
    resolver = Resolver(model, options, chosen)
    for function in model.functions:
        resolver.duck_types = resolver.duck_typed(function)
        resolver.resolve_block(function.body, function)
        if function.has_loop and function.has_backward:
            _end_paths_that_leave_the_loss_unbound(function.body, function, in_loop=False)
        _simplify(function.body)
        _mark_loops_that_run(function.body, function)
    model.summed_reads = [
        found
        for function in model.functions
        if function.has_backward and function.origin is None
        for found in summed_reads(function)
    ]
    # what a backward reaches matters only against an optimizer's known modules, or a
    # read's in the same loop
    tied = any(tie is not None for tie in model.ties.values())
    summed = {id(found.backward) for found in model.summed_reads}
    if tied or summed:
        for event, function in resolver.backwards:
            if not tied and id(event) not in summed:
                continue
            inputs = _keyword(event.node, "inputs")
            if inputs is None:
                event.reach = resolver.reach.reach(event.loss, function)  # type: ignore[arg-type]
            else:  # ``backward(inputs=...)`` writes those parameters' gradients only
                event.reach = resolver.reach.reach_of_inputs(inputs, function)
    return resolver.choices


def _effects(statements: list[Statement]) -> bool:
    """Whether ``statements`` do anything the flow check tracks besides assignments."""
    for statement in statements:
        if isinstance(statement, Event):
            if statement.kind != EventKind.KILL:
                return True
        elif isinstance(statement, Jump) or any(map(_effects, child_blocks(statement))):
            return True
    return False


def _kills(statements: list[Statement]) -> frozenset[str]:
    return frozenset(
        name
        for event in events_of(statements)
        if event.kind == EventKind.KILL
        for name in event.names
    )


def _end_paths_that_leave_the_loss_unbound(
    statements: list[Statement], function: FunctionModel, in_loop: bool
) -> None:
    """End the paths of an ``if`` right before ``loss.backward()`` in a loop that bind no
    ``loss`` (``if a: if b: loss = f()`` with no ``else``), where the ``if`` holds every
    binding of that local: such a path never runs the backward. The first iteration
    raises ``NameError``; a later one backpropagates through the previous iteration's
    graph, which that iteration's backward freed (not so with ``retain_graph``: then the
    path is kept). Each such path gets a ``raise`` at its end."""
    for index, statement in enumerate(statements):
        for part in child_blocks(statement):
            _end_paths_that_leave_the_loss_unbound(
                part, function, in_loop or type(statement) is Loop
            )
        if not (
            in_loop
            and type(statement) is Event
            and statement.kind == EventKind.BACKWARD
            and type(statement.loss) is cst.Name
            and not _keeps_graph(statement.node)
        ):
            continue
        name = statement.loss.value
        if name in function.params or name in function.shared_names:
            continue
        branch = _binding_branch(statements[:index])
        if (
            branch is not None
            and branch.node is not None
            and 0 < _bindings(branch.node, name) == _bindings(function.node, name)
        ):
            _end_unbound(branch.body, _statements(branch.node.body), name, statement)
            _end_unbound(branch.orelse, _else_statements(branch.node), name, statement)


def _keeps_graph(node: cst.CSTNode) -> bool:
    """``loss.backward(retain_graph=...)`` with any value, or any ``**kwargs``."""
    return type(node) is cst.Call and any(
        arg.star == "**" or (arg.keyword is not None and arg.keyword.value == "retain_graph")
        for arg in node.args
    )


def _binding_branch(before: list[Statement]) -> If | None:
    """The ``if`` right before, with only events between (they bind no local)."""
    for statement in reversed(before):
        if type(statement) is not Event:
            return statement if type(statement) is If else None
    return None


def _end_unbound(
    block: list[Statement], written: Sequence[cst.CSTNode], name: str, backward: Event
) -> None:
    """Make every path through ``block`` (the model of the statements ``written``) that
    goes on past it without binding ``name`` end in a ``raise``."""
    if _surely_binds(written, name):
        return
    if not any(_bindings(node, name) for node in written):
        block.append(Jump("return", backward.node, raises=True))
        return
    for statement in block:
        if type(statement) is If and statement.node is not None:
            _end_unbound(statement.body, _statements(statement.node.body), name, backward)
            _end_unbound(statement.orelse, _else_statements(statement.node), name, backward)


def _statements(suite: cst.BaseSuite) -> Sequence[cst.CSTNode]:
    return suite.body  # type: ignore[return-value]


def _else_statements(node: cst.If) -> Sequence[cst.CSTNode]:
    orelse = node.orelse
    if type(orelse) is cst.If:
        return (orelse,)
    return _statements(orelse.body) if type(orelse) is cst.Else else ()


def _surely_binds(written: Sequence[cst.CSTNode], name: str) -> bool:
    """Whether every path through the statements ``written`` that goes on past them binds
    ``name`` (or leaves: ``return``, ``raise``, ``break``, ``continue``)."""
    for node in written:
        if type(node) is cst.If:
            if _surely_binds(_statements(node.body), name) and _surely_binds(
                _else_statements(node), name
            ):
                return True
        elif type(node) is cst.SimpleStatementLine:
            for small in node.body:
                if type(small) in (cst.Return, cst.Raise, cst.Break, cst.Continue):
                    return True
                if type(small) in (cst.Assign, cst.AnnAssign) and _bindings(small, name):
                    return True
    return False


_BINDING_SCOPES = (cst.FunctionDef, cst.ClassDef, cst.Lambda)
# statements and expressions that bind their ``target``
_TARGETED = (cst.AnnAssign, cst.AugAssign, cst.NamedExpr, cst.For)


def _bindings(node: cst.CSTNode, name: str) -> int:
    """How many times ``node`` binds the local ``name`` (assignment, ``for`` and
    ``with`` targets, ``:=``, ``except ... as``), not counting nested scopes'."""
    found = 0
    pending: list[cst.CSTNode] = [node.body] if type(node) is cst.FunctionDef else [node]
    while pending:
        item = pending.pop()
        kind = type(item)
        if kind in _BINDING_SCOPES:
            continue
        targets: list[cst.CSTNode] = []
        if kind is cst.Assign:
            targets = [target.target for target in item.targets]  # type: ignore[attr-defined]
        elif kind in _TARGETED:
            targets = [item.target]  # type: ignore[attr-defined]
        elif kind is cst.AsName:
            targets = [item.name]  # type: ignore[attr-defined]
        found += sum(target_names(target).count(name) for target in targets)
        if kind is not cst.Name:
            pending.extend(subnodes(item))
    return found


def _mark_loops_that_run(statements: list[Statement], function: FunctionModel) -> None:
    """Mark the loops a later backward proves ran (``Loop.runs``): ``loss.backward()``
    where ``loss`` starts from a number and only ``+=`` makes it a tensor, after a loop
    of the same block that adds to it."""
    for index, statement in enumerate(statements):
        if (
            type(statement) is Event
            and statement.kind == EventKind.BACKWARD
            and type(statement.loss) is cst.Name
            and _started_from_a_number(statement.loss.value, function)
        ):
            name = statement.loss.value
            for earlier in reversed(statements[:index]):
                if type(earlier) is Loop and _adds_to(earlier.node, name):
                    earlier.runs = True
                    break
        for part in child_blocks(statement):
            _mark_loops_that_run(part, function)


def _adds_to(loop: cst.CSTNode, name: str) -> bool:
    """Whether every iteration of ``loop`` runs ``name += ...`` (a statement of its own
    body, not under an ``if``)."""
    body = getattr(loop, "body", None)
    for line in getattr(body, "body", ()):
        if type(line) is cst.SimpleStatementLine:
            for small in line.body:
                if (
                    type(small) is cst.AugAssign
                    and type(small.target) is cst.Name
                    and small.target.value == name
                ):
                    return True
    return False


def _started_from_a_number(name: str, function: FunctionModel) -> bool:
    """Every binding of ``name`` in ``function`` is a number (``loss = 0``, ``h, loss =
    zeros(...), 0``), and it is added to (``loss += ...``)."""
    if not function.augmented.get(name):
        return False
    values = list(function.assignments.get(name, ()))
    if name in function.tuple_assignments:
        index, value = function.tuple_assignments[name]
        if type(value) is not cst.Tuple or index >= len(value.elements):
            return False
        values.append(value.elements[index].value)
    return bool(values) and all(type(value) in (cst.Integer, cst.Float) for value in values)


def _simplify(statements: list[Statement]) -> None:
    """Replace branches and loops that only assign by one assignment event: what resolution
    dropped (unknown calls) leaves them empty, and the flow check should not split on them."""
    simplified: list[Statement] = []
    for statement in statements:
        if isinstance(statement, (If, Loop)):
            _simplify(statement.body)
            _simplify(statement.orelse)
            if not _effects(statement.body) and not _effects(statement.orelse):
                names = _kills(statement.body) | _kills(statement.orelse)
                if isinstance(statement, Loop):
                    names |= statement.assigned
                if names:
                    node = statement.node if isinstance(statement, Loop) else None
                    simplified.append(Event(kind=EventKind.KILL, node=node, names=names))  # type: ignore[arg-type]
                continue
        else:
            for part in child_blocks(statement):
                _simplify(part)
        simplified.append(statement)
    statements[:] = simplified


def _names(target: cst.BaseExpression) -> list[cst.Name]:
    if type(target) is cst.Name:
        return [target]
    if type(target) in (cst.Tuple, cst.List):
        return [name for element in target.elements for name in _names(element.value)]
    return []


def _returned_function(factory: FunctionModel) -> FunctionModel | None:
    """The function ``factory`` defines and returns on every ``return`` (``def
    make_step(...): def step(batch): ...; return step``), or None."""
    node = factory.node
    if type(node) is not cst.FunctionDef:
        return None
    returned: set[str] = set()
    stack: list[cst.CSTNode] = [node.body]
    while stack:
        item = stack.pop()
        if type(item) in (cst.FunctionDef, cst.ClassDef, cst.Lambda):
            continue  # another function's returns
        if type(item) is cst.Return:
            value = item.value
            returned.add(value.value if type(value) is cst.Name else "")
            continue
        stack.extend(item.children)
    if len(returned) != 1:
        return None
    (name,) = returned
    return factory.nested.get(name)
