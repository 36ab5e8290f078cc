"""Functions, classes and the module that hold the event model."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    import libcst as cst

    from zerograd_guard.lint.model.events import Event, Statement, SummedRead


ValuePlace = tuple[int, int, tuple[tuple[int, int, bool], ...]]
"""Where a value is assigned or read: source order, branch depth, and the ``if`` arms
around it (id of the ``if``, which arm, whether the ``if`` is in a loop)."""

ModuleGroups = tuple[frozenset[str], ...]
"""The modules an optimizer steps: one group per module its constructor names, holding
that module and the other names its parameters go by (``model`` and ``DDP(model)``)."""


class ExternalLookup(Protocol):
    """Names of other linted modules, as written in this one (project mode).
    ``importer``: the path of the module the names are written in."""

    importer: str

    def function(self, local: str) -> FunctionModel | None: ...

    def class_info(self, local: str) -> ClassInfo | None: ...

    def may_define(self, local: str, method: str) -> bool: ...

    def parameter_classes(self, function: str, param: str) -> tuple[str, ...]: ...

    def parameter_module(self, function: str, param: str) -> str | None: ...

    def inert_function(self, local: str) -> FunctionModel | None: ...

    def base_class(self, local: str) -> ClassInfo | None: ...

    def derives_from_module(self, local: str) -> bool: ...

    def base_stores(self, local: str, attribute: str) -> bool: ...

    def drivers(self, local: str) -> tuple[tuple[FunctionModel, str], ...]: ...

    def changed_parts(self, callee: str, slot: int | str) -> frozenset[str] | None: ...


STATIC_RECEIVER = "<static>"
"""The receiver slot a ``@staticmethod``'s parameters start with: ``self.helper(a, b)``
and ``Cls.helper(a, b)`` bind ``a`` to its first real parameter, as a method's calls
through a receiver skip ``self``."""


@dataclass(eq=False)
class FunctionModel:
    """One function (or the module body, ``name == "<module>"``).

    ``assignments`` maps each local name to the expressions assigned to it (used to decide
    what a name holds), ``augmented`` to those added with ``+=`` and the like;
    ``cut_values`` are the ids of assigned expressions computed under ``torch.no_grad()``
    (outside the autograd graph); ``loop_targets`` the names ``for`` loops bind.
    """

    name: str
    node: cst.CSTNode
    body: list[Statement] = field(default_factory=list)
    # a method's first is its receiver (``self``, ``cls``; ``STATIC_RECEIVER`` for a
    # ``@staticmethod``), which calls through a receiver skip
    params: tuple[str, ...] = ()
    param_annotations: dict[str, cst.BaseExpression] = field(default_factory=dict)
    param_defaults: dict[str, str] = field(default_factory=dict)  # ``flag=True`` -> "True"
    # parameters whose default is an optimizer class -> its dotted name
    # (``opt_func=torch.optim.SGD`` -> "torch.optim.SGD"): a call of one builds an optimizer
    optimizer_classes: dict[str, str] = field(default_factory=dict)
    class_name: str | None = None
    parent: FunctionModel | None = None
    nested: dict[str, FunctionModel] = field(default_factory=dict)
    local_classes: dict[str, str] = field(default_factory=dict)  # name -> key in classes
    assignments: dict[str, list[cst.BaseExpression]] = field(default_factory=dict)
    tuple_assignments: dict[str, tuple[int, cst.BaseExpression]] = field(default_factory=dict)
    augmented: dict[str, list[cst.BaseExpression]] = field(default_factory=dict)
    cut_values: set[int] = field(default_factory=set)
    loop_targets: set[str] = field(default_factory=set)
    # names a ``global`` / ``nonlocal`` statement declares: they outlive one call
    shared_names: set[str] = field(default_factory=set)
    # id of an assigned value (or a differentiated loss) -> (source order, branch depth,
    # the ``if`` arms around it: ``extract.walker``'s ``arms``)
    value_order: dict[int, ValuePlace] = field(default_factory=dict)
    annotations: dict[str, cst.BaseExpression] = field(default_factory=dict)
    returns_value: bool = False
    has_loop: bool = False
    has_backward: bool = False
    # a ``yield`` in its own body: a call makes a generator and runs none of the body
    is_generator: bool = False
    calls_manual_backward: bool = False
    # names it binds only to Lightning's ``self.optimizers()`` (the module's optimizers,
    # the same objects at every call) -> which of them: the tuple index, None for all
    lightning_optimizers: dict[str, int | None] = field(default_factory=dict)
    # the functions it registers with ``p.register_post_accumulate_grad_hook(f)``, by
    # name: autograd runs them after each backward pass accumulates into ``p.grad``
    accumulate_hooks: list[str] = field(default_factory=list)
    condition_counts: dict[object, int] = field(default_factory=dict)
    # project mode: the other linted module this function was loaded from (None: this file)
    origin: object | None = field(default=None, repr=False)

    @property
    def top_level(self) -> bool:
        """Whether it is a function defined at the top level of its module."""
        return self.class_name is None and self.parent is not None and self.parent.parent is None

    @property
    def called_as(self) -> str | None:
        """What ``project.call_sites`` knows this function by, for what its callers pass:
        a top-level function's name, ``Cls.__init__`` for the constructor of a top-level
        class (called as ``Cls(...)``); None for any other."""
        if self.top_level:
            return self.name
        constructor = (
            self.name == "__init__"
            and self.class_name is not None
            and "." not in self.class_name
            and self.parent is not None
            and self.parent.parent is None
        )
        return f"{self.class_name}.__init__" if constructor else None

    @property
    def qualname(self) -> str:
        if self.parent is not None and self.parent.name != "<module>":
            return f"{self.parent.qualname}.<locals>.{self.name}"
        return f"{self.class_name}.{self.name}" if self.class_name else self.name


@dataclass(eq=False)
class ClassInfo:
    name: str
    bases: tuple[str, ...]
    methods: dict[str, FunctionModel] = field(default_factory=dict)
    attributes: dict[str, list[cst.BaseExpression]] = field(default_factory=dict)
    manual_optimization: bool = False
    node: cst.ClassDef | None = field(default=None, repr=False)  # None: merged (project)


@dataclass(eq=False)
class ModuleModel:
    """Everything extracted from one source text."""

    module: cst.Module
    body: FunctionModel
    functions: list[FunctionModel] = field(default_factory=list)
    classes: dict[str, ClassInfo] = field(default_factory=dict)
    imports: dict[str, str] = field(default_factory=dict)  # local name -> dotted origin
    star_imports: list[str] = field(default_factory=list)  # ``from m import *``: m, in order
    # optimizer name -> modules its parameters came from (None: unknown), after resolution
    ties: dict[str, frozenset[str] | None] = field(default_factory=dict)
    # the same per module the optimizer names (see ``ModuleGroups``), where known
    tie_groups: dict[str, ModuleGroups] = field(default_factory=dict)
    # modules whose parameters the file freezes somewhere (``requires_grad_(False)``, a
    # ``set_requires_grad(net, False)`` helper); ``"*"``: ones the file does not name
    frozen: set[str] = field(default_factory=set)
    # modules whose parameters the hand-written updates (``<manual>``) walk
    # (``for p in model.parameters(): p -= lr * p.grad``); None: some update's are unknown
    manual_owners: set[str | None] = field(default_factory=set)
    # some ``shared._grad = local.grad`` hands gradients over (``HANDED_OVER``)
    hands_over: bool = False
    # optimizer -> where a loop builds it again over the same modules (no clear)
    rebuilt_optimizers: dict[str, list[Event]] = field(default_factory=dict)
    # optimizer -> its ``zero_grad()`` calls that run a method clearing nothing, with it
    inert_clears: dict[str, list[tuple[Event, FunctionModel]]] = field(default_factory=dict)
    # backwards whose gradients a read in the same loop sums across iterations, when no
    # clear runs between (``extract.summed_reads``; judged by ``flow.summed_reads``)
    summed_reads: list[SummedRead] = field(default_factory=list)
    external: ExternalLookup | None = None  # project mode: other modules' names

    def class_info(self, name: str) -> ClassInfo | None:
        """Class ``name`` as this module sees it: its own, else (project mode) one
        imported from another linted module."""
        found = self.classes.get(name)
        if found is None and self.external is not None:
            found = self.external.class_info(name)
        return found

    def release(self) -> None:
        """Break the model's reference cycles (events point at their function, nested
        functions at their parent) once it is no longer needed, so the model and the
        libcst tree it holds are freed at once by reference counting, not left for the
        cyclic garbage collector (whose full passes then walk every tree kept alive)."""
        for function in self.functions:
            function.body = []
            function.nested = {}
            function.parent = None
        self.functions = []
        self.classes = {}
        self.external = None
