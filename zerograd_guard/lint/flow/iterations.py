"""Which functions a framework runs once per batch (``IterationFunction`` specs from the
framework plugins), found in one module's model."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from zerograd_guard.lint.extract.names import key_of, return_values
from zerograd_guard.lint.model.program import FunctionModel, ModuleModel
from zerograd_guard.lint.options import IterationFunction


def origin_of(key: str, model: ModuleModel) -> str | None:
    """The dotted origin of ``key`` as written in the module (through its imports)."""
    head, _, rest = key.partition(".")
    origin = model.imports.get(head)
    if origin is None:
        return None
    return f"{origin}.{rest}" if rest else origin


def names(origin: str | None, package: str, name: str) -> bool:
    """Whether the dotted ``origin`` is ``package``'s ``name`` (``ignite.engine.Engine``)."""
    return (
        origin is not None
        and origin.split(".", 1)[0] == package
        and origin.rsplit(".", 1)[-1] == name
    )


def _is(origin: str | None, spec: IterationFunction) -> bool:
    return names(origin, spec.package, spec.name)


def derives(class_name: str, model: ModuleModel, is_base: Callable[[str], bool]) -> bool:
    """Whether the file's class ``class_name`` derives, through the file's classes, from
    a base (not a class of the file) that ``is_base``."""
    pending, seen = [class_name], set()
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        seen.add(name)
        info = model.classes.get(name)
        if info is None:
            if is_base(name):
                return True
            continue
        pending.extend(info.bases)
    return False


def _derives(class_name: str, spec: IterationFunction, model: ModuleModel) -> bool:
    return derives(class_name, model, lambda name: _is(origin_of(name, model), spec))


def iteration_functions(
    model: ModuleModel, specs: Iterable[IterationFunction], source: str
) -> dict[FunctionModel, bool]:
    """Functions of ``model`` a framework runs once per batch -> whether the framework
    steps and clears between two calls."""
    found: dict[FunctionModel, bool] = {}
    for spec in specs:
        if spec.method is None:
            for function in _passed_to(model, spec, source):
                found[function] = found.get(function, False) or spec.steps_and_clears
            continue
        for function in model.functions:
            if (
                function.name == spec.method
                and function.class_name is not None
                and _derives(function.class_name, spec, model)
            ):
                found[function] = found.get(function, False) or spec.steps_and_clears
    return found


def _passed_to(model: ModuleModel, spec: IterationFunction, source: str) -> list[FunctionModel]:
    """Functions handed by name as the first argument of the framework's callable
    (``Engine(update)``, ``ignite.engine.Engine(update)``), however the module imports it,
    and functions whose first parameter is annotated with that callable: the framework
    hands itself to them (``def _update(engine: Engine, batch)``, a process function a
    factory returns and the caller passes on through variables, pfnet's alaska2
    solution)."""
    if spec.name not in source:
        return []
    annotated = [
        function
        for function in model.functions
        if function.class_name is None
        and function.params
        and (annotation := function.param_annotations.get(function.params[0])) is not None
        and (key := key_of(annotation)) is not None
        and _is(origin_of(key, model), spec)
    ]
    callees = []
    for local, origin in model.imports.items():
        if _is(origin, spec):
            callees.append(re.escape(local))
        elif origin.split(".", 1)[0] == spec.package:
            callees.append(rf"{re.escape(local)}(?:\.\w+)*\.{re.escape(spec.name)}")
    names: set[str] = set()
    factories: set[str] = set()
    for callee in callees:
        for name, call in re.findall(rf"(?<![\w.]){callee}\(\s*([A-Za-z_]\w*)\s*([,)(])", source):
            (factories if call == "(" else names).add(name)
    passed = [function for function in model.functions if function.name in names]
    # ``Engine(make_update(model, optimizer))``: what the factory returns
    passed += [
        nested
        for function in model.functions
        if function.name in factories and function.class_name is None
        for nested in _returned_functions(function)
    ]
    return passed + [function for function in annotated if function not in passed]


def _returned_functions(function: FunctionModel) -> list[FunctionModel]:
    """The functions nested in ``function`` that it returns by name (``return _update``)."""
    returned = {
        key_of(value)
        for value in return_values(getattr(function.node, "body", None))
        if value is not None
    }
    return [nested for name, nested in function.nested.items() if name in returned]
