"""Functions, classes and the module that hold the event model."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    import libcst as cst

    from zerograd_guard.lint.model.events import Statement


class ExternalLookup(Protocol):
    """Names of other linted modules, as written in this one (project mode).
    ``importer``: the path of the module the names are written in."""

    importer: str

    def function(self, local: str) -> FunctionModel | None: ...

    def class_info(self, local: str) -> ClassInfo | None: ...


@dataclass(eq=False)
class FunctionModel:
    """One function (or the module body, ``name == "<module>"``).

    ``assignments`` maps each local name to the expressions assigned to it (used to decide
    what a name holds); ``self_assignments`` the same for ``self.x = ...``.
    """

    name: str
    node: cst.CSTNode
    body: list[Statement] = field(default_factory=list)
    params: tuple[str, ...] = ()
    param_annotations: dict[str, cst.BaseExpression] = field(default_factory=dict)
    class_name: str | None = None
    parent: FunctionModel | None = None
    nested: dict[str, FunctionModel] = field(default_factory=dict)
    assignments: dict[str, list[cst.BaseExpression]] = field(default_factory=dict)
    tuple_assignments: dict[str, tuple[int, cst.BaseExpression]] = field(default_factory=dict)
    annotations: dict[str, cst.BaseExpression] = field(default_factory=dict)
    returns_value: bool = False
    has_loop: bool = False
    has_backward: bool = False
    calls_manual_backward: bool = False
    condition_counts: dict[object, int] = field(default_factory=dict)
    # project mode: the other linted module this function was loaded from (None: this file)
    origin: object | None = field(default=None, repr=False)

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


@dataclass(eq=False)
class ModuleModel:
    """Everything extracted from one source text."""

    module: cst.Module
    body: FunctionModel
    functions: list[FunctionModel] = field(default_factory=list)
    classes: dict[str, ClassInfo] = field(default_factory=dict)
    imports: dict[str, str] = field(default_factory=dict)  # local name -> dotted origin
    # optimizer name -> modules its parameters came from (None: unknown), after resolution
    ties: dict[str, frozenset[str] | None] = field(default_factory=dict)
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
