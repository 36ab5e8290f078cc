"""Classes whose methods a framework calls around its own backward, step and clear
(``HookedIteration`` specs from the framework plugins: fastai's callbacks), judged inside
the framework's batch.

The batch is not in the file: it is made here of synthesized events (the framework's
backward, step and clear, ``Observations.framework`` says which) between runs of the
class's hook methods, and repeated to a fixpoint like a loop. A raise of one of the
spec's ``cancels`` in a hook's own body resumes the batch at its hook. What the
synthesized events would be blamed for cannot be fixed in the file, so only observations
a user's line can carry are kept (``_kept``): a user's clear that leaves the framework's
step nothing fresh (ZG102, reported at the clear), a user's step or backward judged as
usual.
"""

from __future__ import annotations

from collections.abc import Iterable

from zerograd_guard.lint.flow.engine import BudgetExceeded, FlowEngine, Observations, _Frame
from zerograd_guard.lint.flow.iterations import derives, names, origin_of
from zerograd_guard.lint.flow.state import State, initial, materialize
from zerograd_guard.lint.model.events import Event, EventKind, Jump, Loop, child_blocks, events_of
from zerograd_guard.lint.model.program import ClassInfo, FunctionModel, ModuleModel
from zerograd_guard.lint.options import BACKWARD, CLEAR, STEP, HookedIteration

_KINDS = {BACKWARD: EventKind.BACKWARD, STEP: EventKind.STEP, CLEAR: EventKind.CLEAR}
_EFFECTS = (EventKind.BACKWARD, EventKind.STEP, EventKind.CLEAR, EventKind.HAVOC)
_CALLS = {BACKWARD: "`backward()`", STEP: "`step()`", CLEAR: "`zero_grad()`"}


def _is_base(name: str, spec: HookedIteration, model: ModuleModel) -> bool:
    """Whether base ``name`` (not a class of the file) is the framework's class: imported
    from the package, or bound by the file's last ``import *``, of a module known to
    export it (another star import may bind anything: unknown)."""
    origin = origin_of(name, model)
    if origin is not None:
        return names(origin, spec.package, spec.base)
    return (
        name == spec.base
        and bool(model.star_imports)
        and model.star_imports[-1] in spec.star_modules
    )


def hooked_classes(model: ModuleModel, spec: HookedIteration) -> list[ClassInfo]:
    """The file's classes deriving from the spec's framework class."""
    return [
        cls
        for cls in model.classes.values()
        if derives(cls.name, model, lambda name: _is_base(name, spec, model))
    ]


def describe(spec: HookedIteration) -> str:
    """The framework's own events around the hooks, for messages: ``runs `backward()`
    before `after_backward`, `step()` after `before_step` ...``."""
    parts = []
    for index, item in enumerate(spec.order):
        if item not in _KINDS:
            continue
        before = next((h for h in reversed(spec.order[:index]) if h not in _KINDS), None)
        after = next((h for h in spec.order[index + 1 :] if h not in _KINDS), None)
        if item == BACKWARD and after is not None:
            parts.append(f"{_CALLS[item]} before `{after}`")
        elif before is not None:
            parts.append(f"{_CALLS[item]} after `{before}`")
    return f"{spec.label} runs " + ", ".join(parts)


class _Batch:
    """One class inside the framework's batch."""

    def __init__(
        self, engine: FlowEngine, model: ModuleModel, spec: HookedIteration, cls: ClassInfo
    ) -> None:
        self.engine, self.model, self.spec, self.cls = engine, model, spec, cls
        self.hooks: dict[str, FunctionModel] = {}
        for item in spec.order:
            method = engine.dispatch(cls.name, item) if item not in _KINDS else None
            if method is not None:
                self.hooks[item] = method
        replaced = dict(spec.replaces)
        self.skipped = {item for hook in self.hooks for item in replaced.get(hook, ())}
        self.env = {**_aliases(spec.optimizer, cls, model), **_aliases(spec.model, cls, model)}
        # a synthesized event needs a node: the first hook's (no finding is reported at it)
        node = next(iter(self.hooks.values())).node if self.hooks else model.module
        self.events = {
            item: Event(_KINDS[item], node, optimizers=(spec.optimizer[0],))
            for item in spec.order
            if item in _KINDS and item not in self.skipped
        }
        self.loop = Loop(node=node, body=list(self.events.values()), orelse=[], infinite=True)
        self.resume = {
            exception: spec.order.index(hook)
            for exception, hook in spec.cancels
            if hook in spec.order
        }

    def judged(self) -> bool:
        """Whether a hook may touch gradients (else the batch is the framework's alone),
        and none calls a function that raises a cancel: the engine takes that raise for
        a return of the function, and the batch would go on to a step it skips."""
        hooks = self.hooks.values()
        return any(self.engine.reaches(hook, _EFFECTS) for hook in hooks) and not any(
            _raises_in_callees(hook, frozenset(self.resume)) for hook in hooks
        )

    def run(self) -> None:
        engine = self.engine
        engine.work = 0
        optimizer, model = self.spec.optimizer[0], self.spec.model[0]
        # the framework's optimizer steps the framework's model: a clear of another
        # module (a teacher's) does not clear it
        saved = engine.ties.get(optimizer)
        engine.ties[optimizer] = frozenset({model})
        frame = _Frame(self.model.body, {}, None, 0)
        seen: set[State] = set()
        work = {materialize(initial(), {optimizer})}
        try:
            while work:
                seen |= work
                ended = self.batch(work, frame)
                back = {_fresh_batch(engine._back_edge(state, self.loop)) for state in ended}
                work = back - seen
        finally:
            if saved is None:
                engine.ties.pop(optimizer, None)
            else:
                engine.ties[optimizer] = saved

    def batch(self, states: set[State], frame: _Frame) -> set[State]:
        engine = self.engine
        current = set(states)
        resumed: dict[int, set[State]] = {}
        for index, item in enumerate(self.spec.order):
            current |= resumed.pop(index, set())
            if item in self.events:
                current = engine.event(self.events[item], current, frame)
            elif item in self.hooks and item not in self.skipped:
                hook = self.hooks[item]
                inner = _Frame(hook, dict(self.env), None, id(hook), self.cls.name)
                keys = engine._mapped_keys(hook, inner, [])
                engine.stack.append(hook)
                engine.caught = frozenset(self.resume)
                try:
                    outcome = engine.block(
                        hook.body, {materialize(s, keys) for s in current}, inner
                    )
                finally:
                    engine.caught = frozenset()
                    engine.stack.pop()
                current = outcome.normal | outcome.returns
                for exception, raised in outcome.raised.items():
                    # resumed later in the batch; raised past its hook, it ends the batch
                    target = self.resume[exception]
                    if target > index:
                        resumed.setdefault(target, set()).update(raised)
        return current


def _raises_in_callees(hook: FunctionModel, names: frozenset[str]) -> bool:
    """Whether a function ``hook`` calls (however indirectly) raises one of ``names``."""
    pending = [event.callee for event in events_of(hook.body) if event.callee is not None]
    seen: set[int] = {id(hook)}
    while pending:
        function = pending.pop()
        if id(function) in seen:
            continue
        seen.add(id(function))
        statements = list(function.body)
        while statements:
            statement = statements.pop()
            if type(statement) is Jump and statement.exception in names:
                return True
            for part in child_blocks(statement):
                statements.extend(part)
        pending.extend(event.callee for event in events_of(function.body) if event.callee)
    return False


def _aliases(names: tuple[str, ...], cls: ClassInfo, model: ModuleModel) -> dict[str, str]:
    """The names hook code gives one of the framework's objects -> the first of them;
    one the class (or an in-file base) assigns (``self.model = teacher``) is its own: a
    key no framework name is related to (``state.related`` matches last parts)."""
    assigned: set[str] = set()
    pending, seen = [cls.name], set()
    while pending:
        info = model.classes.get(pending.pop())
        if info is None or info.name in seen:
            continue
        seen.add(info.name)
        assigned.update(f"self.{attribute}" for attribute in info.attributes)
        pending.extend(info.bases)
    return {name: f"{name}<{cls.name}>" if name in assigned else names[0] for name in names[1:]}


def _fresh_batch(state: State) -> State:
    """Each batch decides its conditions afresh (a counter attribute moved on)."""
    return State(state.default, state.entries, frozenset())


def _kept(found: Observations, synthetic: set[Event]) -> Observations:
    """What a user's line can carry: observations anchored at a synthesized event are
    dropped (a leak blamed on the framework's backward), and so are synthesized events
    named as the other end of one; a step's statuses and discards stay (ZG102 reports a
    discard before the framework's step at the user's clear)."""
    kept = Observations()
    for (backward, key), steps in found.leaks.items():
        user_steps = steps - synthetic
        if backward not in synthetic and user_steps:
            kept.leaks[(backward, key)] = user_steps
    for (step, key), clears in found.discards.items():
        user_clears = clears - synthetic
        if user_clears:
            kept.discards[(step, key)] = user_clears
            kept.step_statuses[(step, key)] = found.step_statuses[(step, key)]
    for (step, key), statuses in found.step_statuses.items():
        if step not in synthetic and (step, key) not in found.discards:
            kept.step_statuses[(step, key)] = statuses
    for clear, window in found.broken_windows.items():
        if clear not in synthetic:
            kept.broken_windows[clear] = window
    kept.gated_clears = found.gated_clears - synthetic
    for (backward, key), pairs in found.cross_leaks.items():
        user_pairs = {pair for pair in pairs if not synthetic.intersection(pair)}
        if backward not in synthetic and user_pairs:
            kept.cross_leaks[(backward, key)] = user_pairs
    for key, clears in found.partial_clears.items():
        user = {clear: rest for clear, rest in clears.items() if clear not in synthetic}
        if user:
            kept.partial_clears[key] = user
    for (backward, key), reads in found.stale_reads.items():
        user_reads = {pair for pair in reads if pair[1] not in synthetic}
        if backward not in synthetic and user_reads:
            kept.stale_reads[(backward, key)] = user_reads
    kept.sites = dict(found.sites)
    kept.leak_sites = {pair: site for pair, site in found.leak_sites.items() if pair in kept.leaks}
    kept.applied_sites = {
        leak: site for leak, site in found.applied_sites.items() if leak[:2] in kept.leaks
    }
    return kept


def _merge(into: Observations, found: Observations) -> None:
    for name in ("leaks", "step_statuses", "discards", "cross_leaks", "stale_reads"):
        target = getattr(into, name)
        for key, values in getattr(found, name).items():
            target.setdefault(key, set()).update(values)
    for clear, window in found.broken_windows.items():
        into.broken_windows.setdefault(clear, window)
    into.gated_clears |= found.gated_clears
    for key, clears in found.partial_clears.items():
        into.partial_clears.setdefault(key, {}).update(clears)
    for event, site in found.sites.items():
        into.sites.setdefault(event, site)
    for pair, site in found.leak_sites.items():
        into.leak_sites.setdefault(pair, site)
    for leak, site in found.applied_sites.items():
        into.applied_sites.setdefault(leak, site)
    into.framework.update(found.framework)


def check_hooked(engine: FlowEngine, model: ModuleModel, specs: Iterable[HookedIteration]) -> None:
    """Judge every class of ``model`` a spec's framework calls hooks of, inside its batch;
    what is observed is added to ``engine.observations``."""
    for spec in specs:
        for cls in hooked_classes(model, spec):
            batch = _Batch(engine, model, spec, cls)
            if not batch.judged():
                continue
            everything, engine.observations = engine.observations, Observations()
            try:
                batch.run()
            except BudgetExceeded:
                engine.stack.clear()
                engine.via.clear()
            found, engine.observations = engine.observations, everything
            kept = _kept(found, set(batch.events.values()))
            description = describe(spec)
            kept.framework = {event: description for event in batch.events.values()}
            _merge(everything, kept)
