"""Loops that sum what they read of ``.grad`` without clearing between iterations.

``extract.summed_reads`` finds the shape (``ModuleModel.summed_reads``: a backward, then
a read added to a total kept across iterations, both on every iteration). It is a missed
clear when, besides:

* nothing in the loop may clear: no clear, no call that may clear (``FlowEngine.reaches``
  follows the file's functions to any depth), no unknown call handed an optimizer;
* nothing in the loop steps, and nothing after it in the function, nor in a function of
  the file that calls it: a step would make the loop micro-batches accumulated on
  purpose, whose running gradients are read for logging;
* the backward's loss is known to be computed from the module read (or one related to
  it: ``model`` and ``model.fc``);
* the loop hands that module to no function but the file's own (whose clears the check
  follows): an unknown one may clear it.

Positive knowledge only: a read of unknown parameters, an input tensor's gradient, a
loss of unknown reach, a loop that may run other code that clears stay silent.
"""

from __future__ import annotations

from zerograd_guard.lint.extract.names import handed_on, last_segment, root_of
from zerograd_guard.lint.flow.engine import FlowEngine
from zerograd_guard.lint.flow.state import related
from zerograd_guard.lint.model.events import EventKind, SummedRead, events_of
from zerograd_guard.lint.model.program import FunctionModel, ModuleModel

_CLEARING = (EventKind.CLEAR, EventKind.HAVOC, EventKind.STEP)
_STEPPING = (EventKind.STEP,)


def observe_summed_reads(engine: FlowEngine, model: ModuleModel) -> None:
    """Record each loop's first backward whose gradients a later read sums again
    (``Observations.summed_reads``)."""
    judged: set[int] = set()
    for found in model.summed_reads:
        if id(found.loop) in judged or not _reaches_read(found):
            continue
        judged.add(id(found.loop))
        function = found.backward.function
        if (
            _may_clear(engine, found)
            or _hands_module_away(found, model)
            or _steps_around(engine, model, function)  # type: ignore[arg-type]
        ):
            continue
        engine.observations.summed_reads.setdefault(found.backward, (found.read, found.loop))


def _reaches_read(found: SummedRead) -> bool:
    reach = found.backward.reach
    if reach is None:
        return False
    return any(related(module, read) for module in reach.modules for read in found.read.modules)


def _may_clear(engine: FlowEngine, found: SummedRead) -> bool:
    for event in events_of(found.loop.body):
        if event.kind in _CLEARING:
            return True
        if event.kind is EventKind.CALL and (
            event.callee is None or engine.reaches(event.callee, _CLEARING)
        ):
            return True
    return False


def _hands_module_away(found: SummedRead, model: ModuleModel) -> bool:
    """Whether the loop passes the module read (or what holds it) to a call of a
    function the file does not define."""
    own = {function.name for function in model.functions}
    for module in found.read.modules:
        for key, callee, _ in handed_on(found.loop).get(root_of(module), ()):
            if callee is not None and related(key, module) and last_segment(callee) not in own:
                return True
    return False


def _steps_around(engine: FlowEngine, model: ModuleModel, function: FunctionModel) -> bool:
    """Whether ``function``, or a function of the file calling it, may step."""
    if engine.reaches(function, _STEPPING):
        return True
    return any(
        engine.reaches(caller, _STEPPING)
        for caller in model.functions
        if caller is not function
        and any(
            event.kind is EventKind.CALL and event.callee is function
            for event in events_of(caller.body)
        )
    )
