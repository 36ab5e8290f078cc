"""The flow check: which functions are judged, and how (see ``engine``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from zerograd_guard.lint.flow.engine import BudgetExceeded, FlowEngine, Observations
from zerograd_guard.lint.flow.hooks import check_hooked
from zerograd_guard.lint.flow.iterations import iteration_functions
from zerograd_guard.lint.flow.summed_reads import observe_summed_reads
from zerograd_guard.lint.frameworks import foreign_framework
from zerograd_guard.lint.model.events import Event, EventKind, events_of
from zerograd_guard.lint.model.program import ClassInfo, FunctionModel, ModuleModel
from zerograd_guard.lint.options import HookedIteration, IterationFunction


class _Run(NamedTuple):
    """One judgement of ``function``: as one iteration of its framework's loop
    (``as_iteration``), with ``self.m()`` dispatched to ``self_class``, and placed at
    ``site`` when it is another module's code no call of this file runs."""

    function: FunctionModel
    as_iteration: bool = False
    self_class: str | None = None
    site: Event | None = None
    # a parameter of ``function`` that holds an instance of a class of this file: its
    # ``param.m()`` calls dispatch to that class (``_annotated_drivers``)
    instance: tuple[str, str] | None = None


def _runs_per_batch(function: FunctionModel, model: ModuleModel) -> bool:
    """A Lightning manual-optimization ``training_step``: Lightning calls it once per batch
    (manual optimization switched off in the class or in a base class, of this file or,
    in project mode, of another linted module)."""
    if function.name != "training_step" or function.class_name is None:
        return False
    return function.calls_manual_backward or _manual_optimization(function.class_name, model)


def _manual_optimization(class_name: str, model: ModuleModel) -> bool:
    pending, seen = [class_name], set()
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        seen.add(name)
        cls = model.class_info(name)
        if cls is None:
            continue
        if cls.manual_optimization:
            return True
        pending.extend(cls.bases)  # another module's class is merged with its bases
    return False


def check_flow(
    model: ModuleModel,
    frameworks: Iterable[IterationFunction] = (),
    source: str = "",
    hooked: Iterable[HookedIteration] = (),
) -> Observations:
    """Judge the module body and every function from an unknown entry state (what one call
    does), plus framework step functions as one iteration of their framework's loop
    (Lightning's, and those the framework plugins describe in ``frameworks``; ``source``
    is the module's text), and the classes whose hooks a framework calls inside the
    batches ``hooked`` describes. Loop-less helpers are judged per iteration only through the
    loops in this file that call them: their other callers may clear. A file that trains
    with another framework (see ``lint.frameworks``) is not judged."""
    engine = FlowEngine(model)
    if foreign_framework(model.imports) is not None:
        return engine.observations
    driven = iteration_functions(model, frameworks, source) if frameworks else {}
    runs = [
        _Run(function, _runs_per_batch(function, model) or function in driven)
        for function in model.functions
    ]
    runs += [
        _Run(inherited, per_batch, self_class=cls.name)
        for cls in model.classes.values()
        for inherited, per_batch in _inherited_loops(cls.name, model)
    ]
    if model.external is not None:
        runs += [
            _Run(inherited, per_batch, self_class=cls.name, site=site)
            for cls in model.classes.values()
            for inherited, site, per_batch in _foreign_inherited_loops(cls, model, engine)
        ]
        runs += [
            run for cls in model.classes.values() for run in _annotated_drivers(cls, model, engine)
        ]
    for run in runs:
        if run.site is not None:
            engine.via.append(run.site)
        try:
            engine.run(
                run.function,
                as_iteration=run.as_iteration,
                self_class=run.self_class,
                boundary_clear=driven.get(run.function, False),
                instance=run.instance,
            )
        except BudgetExceeded:
            engine.stack.clear()
            engine.via.clear()
        if run.site is not None and engine.via:
            engine.via.pop()
    check_hooked(engine, model, hooked)
    observe_summed_reads(engine, model)
    return engine.observations


def _inherited_loops(class_name: str, model: ModuleModel) -> list[tuple[FunctionModel, bool]]:
    """Methods with loops that ``class_name`` inherits from in-file bases: their
    ``self.m()`` calls reach the subclass's overrides (a trainer's ``run_step``); and an
    inherited Lightning manual-optimization ``training_step`` (one iteration of
    Lightning's loop: ``True`` beside it)."""
    cls = model.classes[class_name]
    found: dict[str, tuple[FunctionModel, bool]] = {}
    pending = list(cls.bases)
    seen: set[str] = set()
    while pending:
        base = model.classes.get(pending.pop(0))
        if base is None or base.name in seen:
            continue
        seen.add(base.name)
        for name, method in base.methods.items():
            if name in cls.methods:
                continue
            if method.has_loop:
                found.setdefault(name, (method, False))
            elif name == "training_step" and _manual_optimization(class_name, model):
                found.setdefault(name, (method, True))
        pending.extend(base.bases)
    return list(found.values())


def _foreign_inherited_loops(
    cls: ClassInfo, model: ModuleModel, engine: FlowEngine
) -> list[tuple[FunctionModel, Event, bool]]:
    """Project mode: methods with loops that ``cls`` inherits from a base class of another
    linted module and that call ``self.m()`` for an ``m`` the class overrides with a
    backward (FuxiCTR's ``BaseModel.train_epoch`` over a zoo model's ``train_step``, Dassl's
    ``run_epoch`` over ``forward_backward``): they run the override on every batch even
    when no file of the run calls them (a script builds the model by name). So does a
    Lightning manual-optimization ``training_step`` (Lightning's loop runs it per batch:
    SingingVocoders' ``GanBaseTask.training_step`` over a model's ``_training_step``).
    Each comes with the event it is placed at in this file (the class statement), and
    whether it is one iteration of its framework's loop (the ``training_step``)."""
    external = model.external
    if cls.node is None or external is None:
        return []
    overrides = {
        name
        for name, method in cls.methods.items()
        if engine.reaches(method, (EventKind.BACKWARD,))
    }
    if not overrides:
        return []
    found: dict[str, tuple[FunctionModel, bool]] = {}
    # the file's own bases are ``_inherited_loops``'; the bases of another module are
    # reached through them too (nnU-Net's ``PretrainedTrainer_Primus`` over the file's
    # ``PretrainedTrainer`` over ``nnUNetTrainer``), below the methods they define
    defined = set(cls.methods)
    pending, seen = list(cls.bases), set()
    while pending:
        base = pending.pop(0)
        if base in seen:
            continue
        seen.add(base)
        own = model.classes.get(base)
        if own is not None:
            defined |= set(own.methods)
            pending.extend(own.bases)
            continue
        info = external.base_class(base)
        for name, method in info.methods.items() if info is not None else ():
            lightning_step = name == "training_step" and (
                info.manual_optimization or _manual_optimization(cls.name, model)  # type: ignore[union-attr]
            )
            if name in defined or not (method.has_loop or lightning_step):
                continue
            if method.origin is not None and any(
                event.kind == EventKind.CALL
                and event.receiver == "self"
                and event.method in overrides
                for event in events_of(method.body)
            ):
                found.setdefault(name, (method, lightning_step))
    site = Event(kind=EventKind.CALL, node=cls.node, function=model.body)
    return [(method, site, per_batch) for method, per_batch in found.values()]


def _annotated_drivers(cls: ClassInfo, model: ModuleModel, engine: FlowEngine) -> list[_Run]:
    """Project mode: the loops of other linted modules over a parameter annotated with a
    base class of ``cls`` (from another module) that call methods on it (mammoth's
    ``train_single_epoch(model: ContinualModel, ...)`` calling ``model.meta_observe()``,
    which runs ``self.observe()``): a script may pass any subclass (mammoth builds the
    model by its name), so each runs with an instance of ``cls`` there, when ``cls``
    overrides a method with a backward. Placed at the class statement."""
    external = model.external
    if cls.node is None or external is None:
        return []
    if not any(engine.reaches(method, (EventKind.BACKWARD,)) for method in cls.methods.values()):
        return []
    site = Event(kind=EventKind.CALL, node=cls.node, function=model.body)
    return [
        _Run(driver, site=site, instance=(param, cls.name))
        for base in cls.bases
        if base not in model.classes
        for driver, param in external.drivers(base)
    ]


__all__ = ["FlowEngine", "Observations", "check_flow"]
