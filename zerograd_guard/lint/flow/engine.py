"""Path-sensitive flow check over the event model.

Each function body is interpreted over *sets* of abstract states (see ``state``): an
``if`` sends every state down the branches its assumptions allow, a loop is iterated to a
fixpoint including the back edge to the next iteration, ``break`` / ``continue`` /
``return`` carry their states to where they jump, ``try`` / ``finally`` route states
through handlers and the final block. Calls of functions defined in the same file are
analysed in place (with parameters bound to the caller's names), so a loop calling
``train_step(batch)`` is judged with what ``train_step`` does.

What the check observes is recorded, not reported: the rules turn it into findings.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from zerograd_guard.lint.extract.names import CONFIGURED_STEP, GRAD_WRITE
from zerograd_guard.lint.flow.pairing import NO_GUARDS, Guards, proven, skip_clear, stale
from zerograd_guard.lint.flow.state import (
    CLEARED,
    UNKNOWN,
    State,
    Status,
    initial,
    map_statuses,
    materialize,
    related,
    with_entries,
)
from zerograd_guard.lint.model.events import (
    ALL,
    Atom,
    Event,
    EventKind,
    If,
    Jump,
    Loop,
    Statement,
    Try,
    events_of,
)
from zerograd_guard.lint.model.program import FunctionModel, ModuleModel

MAX_STATES = 128
# Events applied per judged function before giving up on it: what was observed so far was
# observed on real paths and stays; the rest of that function is not judged.
WORK_BUDGET = 200_000


class BudgetExceeded(Exception):
    """The function's paths are too many to follow (pathological code)."""


_EFFECTS = (EventKind.BACKWARD, EventKind.STEP, EventKind.CLEAR, EventKind.HAVOC)
MAX_CALL_DEPTH = 6


@dataclass
class Observations:
    """What the flow check saw, keyed by model events.

    * ``leaks``: (backward, optimizer) -> the steps whose applied gradients the backward
      added onto, when a later step of that optimizer applied both (ZG101);
    * ``step_statuses``: (step, optimizer) -> every status seen at that step (ZG102 needs
      all of them);
    * ``discards``: (step, optimizer) -> the clears that discarded fresh gradients before it;
    * ``broken_windows``: clear -> (optimizer, loop) when the clear discarded gradients
      accumulated over earlier iterations of ``loop`` without a step (ZG103).
    """

    leaks: dict[tuple[Event, str], set[Event]] = field(default_factory=dict)
    step_statuses: dict[tuple[Event, str], set[str]] = field(default_factory=dict)
    discards: dict[tuple[Event, str], set[Event]] = field(default_factory=dict)
    broken_windows: dict[Event, tuple[str, Loop]] = field(default_factory=dict)
    # project mode: each event of another module -> the call in this file it ran under
    sites: dict[Event, Event] = field(default_factory=dict)


@dataclass
class _Outcome:
    normal: set[State] = field(default_factory=set)
    breaks: set[State] = field(default_factory=set)
    continues: set[State] = field(default_factory=set)
    returns: set[State] = field(default_factory=set)

    def absorb_jumps(self, other: _Outcome) -> None:
        self.breaks |= other.breaks
        self.continues |= other.continues
        self.returns |= other.returns


@dataclass
class _Frame:
    function: FunctionModel
    env: dict[str, str]
    self_prefix: str | None
    tag: int
    self_class: str | None = None  # the class ``self`` is an instance of (dispatch)

    def map(self, name: str) -> str:
        if name in self.env:
            return self.env[name]
        if self.self_prefix is not None and (name == "self" or name.startswith("self.")):
            return self.self_prefix + name[4:]
        return name


def _window_start(atom: Atom) -> Atom:
    _, counter, divisor = atom.key  # type: ignore[misc]
    return Atom(
        key=("start", counter, divisor),
        names=atom.names,
        accumulation=True,
        counter=counter,
    )


class FlowEngine:
    def __init__(self, model: ModuleModel) -> None:
        self.model = model
        self.observations = Observations()
        self.stack: list[FunctionModel] = []
        self._contains: dict[tuple[int, EventKind], bool] = {}
        self._reaches: dict[tuple[int, tuple[EventKind, ...]], bool] = {}
        self._keys: dict[int, set[str]] = {}
        self.ties: dict[str, frozenset[str]] = {}  # ties of optimizers under mapped names
        self._calls: dict[tuple[object, State], set[State]] = {}
        self.work = 0
        # the loops being iterated, innermost last, with the depth of ``guards`` at entry
        self.loops: list[tuple[Loop, _Frame, int]] = []
        self.guards: list[Atom | None] = []  # conditions of the branches being analysed
        self.via: list[Event] = []  # calls from this file into other modules, innermost last

    # -- entry points -------------------------------------------------------------------

    def run(
        self,
        function: FunctionModel,
        *,
        as_iteration: bool = False,
        self_class: str | None = None,
        boundary_clear: bool = False,
    ) -> None:
        """Analyse ``function`` from an unknown entry state; with ``as_iteration`` its body is
        one iteration of a loop its framework runs (Lightning's ``training_step``), and with
        ``boundary_clear`` the framework steps and clears between iterations (every
        gradient is cleared when the body starts); ``self_class``: the subclass whose
        methods ``self.m()`` dispatches to."""
        if not self.reaches(function, (EventKind.BACKWARD,)):
            return  # no backward, no finding: nothing to judge
        self.work = 0
        frame = self._frame(function, {}, None)
        frame.self_class = self_class or function.class_name
        states = {materialize(initial(), self._mapped_keys(function, frame))}
        self.stack.append(function)
        if not as_iteration:
            self.block(function.body, states, frame)
        else:
            params = frozenset(function.params)  # a new batch and batch_idx every call
            loop = Loop(
                node=function.node,
                body=function.body,
                orelse=[],
                targets=params,
                assigned=params,
                infinite=True,
            )
            seen: set[State] = set()
            work = states
            while work:
                seen |= work
                if boundary_clear:
                    work = {map_statuses(state, _cleared) for state in work}
                outcome = self.block(function.body, work, frame)
                back = outcome.normal | outcome.returns | outcome.continues
                work = {self._back_edge(s, loop) for s in back} - seen
        self.stack.pop()

    def _frame(self, function: FunctionModel, env: dict[str, str], prefix: str | None) -> _Frame:
        # one tag per function: frames of one function never nest (recursion is cut), and a
        # stable tag lets the results of a call be reused (see ``call``)
        return _Frame(function, env, prefix, id(function))

    # -- statements ---------------------------------------------------------------------

    def block(self, statements: list[Statement], states: set[State], frame: _Frame) -> _Outcome:
        outcome = _Outcome()
        current = states
        for statement in statements:
            if not current:
                break
            kind = type(statement)
            if kind is Event:
                current = self.event(statement, current, frame)  # type: ignore[arg-type]
            elif kind is If:
                current = self.branch(statement, current, frame, outcome)  # type: ignore[arg-type]
            elif kind is Loop:
                inner = self.loop(statement, current, frame)  # type: ignore[arg-type]
                outcome.returns |= inner.returns
                current = inner.normal
            elif kind is Try:
                inner = self.try_(statement, current, frame)  # type: ignore[arg-type]
                outcome.absorb_jumps(inner)
                current = inner.normal
            elif kind is Jump:
                target = {
                    "break": outcome.breaks,
                    "continue": outcome.continues,
                    "return": outcome.returns,
                }[statement.kind]
                target |= current
                current = set()
            if len(current) > MAX_STATES:
                current = _widen(current)
        outcome.normal = current
        return outcome

    def branch(
        self, statement: If, states: set[State], frame: _Frame, outcome: _Outcome
    ) -> set[State]:
        atom = statement.atom
        tracked = atom is not None and (
            atom.accumulation or frame.function.condition_counts.get(atom.key, 0) > 1
        )
        body_in: set[State] = set()
        else_in: set[State] = set()
        body_value = not statement.negated
        for state in states:
            assumptions = state[2]
            if tracked:
                if (frame.tag, atom, body_value) in assumptions:
                    body_in.add(state)
                    continue
                if (frame.tag, atom, not body_value) in assumptions:
                    else_in.add(state)
                    continue
                body_in.add((state[0], state[1], assumptions | {(frame.tag, atom, body_value)}))
                else_in.add((state[0], state[1], assumptions | {(frame.tag, atom, not body_value)}))
            else:
                body_in.add(state)
                else_in.add(state)
        clears_body = self.contains(statement.body, EventKind.CLEAR)
        if clears_body != self.contains(statement.orelse, EventKind.CLEAR):
            skipped = atom
            if clears_body:
                else_in = {skip_clear(state, skipped) for state in else_in}
            else:
                body_in = {skip_clear(state, skipped) for state in body_in}
        self.guards.append(atom)
        try:
            body = self.block(statement.body, body_in, frame)
            orelse = self.block(statement.orelse, else_in, frame)
        finally:
            self.guards.pop()
        outcome.absorb_jumps(body)
        outcome.absorb_jumps(orelse)
        return body.normal | orelse.normal

    def loop(self, loop: Loop, states: set[State], frame: _Frame) -> _Outcome:
        outcome = _Outcome()
        if loop.once:
            inner = self.block(loop.body, states, frame)
            outcome.returns = inner.returns
            after = inner.normal | inner.continues
            tail = self.block(loop.orelse, after, frame)
            outcome.absorb_jumps(tail)
            outcome.normal = tail.normal | inner.breaks
            return outcome
        seen: set[State] = set()
        exits: set[State] = set()
        breaks: set[State] = set()
        work = set(states)
        self.loops.append((loop, frame, len(self.guards)))
        try:
            while work:
                seen |= work
                if not loop.infinite:
                    exits |= work
                inner = self.block(loop.body, work, frame)
                outcome.returns |= inner.returns
                breaks |= inner.breaks
                back = inner.normal | inner.continues
                work = {self._back_edge(state, loop) for state in back} - seen
                if len(seen) > MAX_STATES * 4:
                    work = _widen(work) - seen
        finally:
            self.loops.pop()
        tail = self.block(loop.orelse, exits, frame)
        outcome.absorb_jumps(tail)
        outcome.normal = tail.normal | breaks
        return outcome

    def _back_edge(self, state: State, loop: Loop) -> State:
        assumptions = state[2]
        # fresh gradients reach the back edge only on paths that skipped the step; blame
        # accumulation when such a path went through an accumulation-like condition
        skipped_window = any(atom.accumulation for _, atom, _ in assumptions) or not self.has_step(
            loop.body
        )
        default, entries = state[0], state[1]
        if skipped_window:
            default = _carry(default, loop)
            entries = tuple((key, _carry(value, loop)) for key, value in entries)
        kept = set()
        for tag, atom, value in assumptions:
            if atom.names & loop.assigned or (atom.counter and atom.counter in loop.targets):
                if atom.key[0] == "end" and atom.counter in loop.targets:
                    start = _window_start(atom)
                    kept.add((tag, start, value))
                    if value and (tag, start, True) in assumptions:
                        # this iteration both started and ended a window: k == 1, so the
                        # next one ends its window too
                        kept.add((tag, atom, True))
                continue
            kept.add((tag, atom, value))
        return (default, entries, frozenset(kept))

    def try_(self, statement: Try, states: set[State], frame: _Frame) -> _Outcome:
        outcome = _Outcome()
        current = set(states)
        reached = set(states)
        for item in statement.body:
            inner = self.block([item], current, frame)
            outcome.absorb_jumps(inner)
            current = inner.normal
            reached |= current
        normal = self.block(statement.orelse, current, frame)
        outcome.absorb_jumps(normal)
        result = set(normal.normal)
        for handler in statement.handlers:
            inner = self.block(handler, reached, frame)
            outcome.absorb_jumps(inner)
            result |= inner.normal
        if statement.finalbody:
            final = self.block(statement.finalbody, result, frame)
            for name in ("breaks", "continues", "returns"):
                passed = self.block(statement.finalbody, getattr(outcome, name), frame)
                setattr(outcome, name, passed.normal)
                outcome.absorb_jumps(passed)
            outcome.absorb_jumps(final)
            result = final.normal
        outcome.normal = result
        return outcome

    # -- events -------------------------------------------------------------------------

    def event(self, event: Event, states: set[State], frame: _Frame) -> set[State]:
        self.work += len(states)
        if self.work > WORK_BUDGET:
            raise BudgetExceeded
        if self.via and event.function is not None and event.function.origin is not None:
            self.observations.sites.setdefault(event, self.via[-1])
        kind = event.kind
        if kind == EventKind.BACKWARD:
            return {self._backward(state, event) for state in states}
        if kind == EventKind.STEP:
            if event.closure_model is not None:
                states = self.call(event.closure_model, event, states, frame, closure=True)
            if event.engine:
                return {self._clear(state, event, (ALL,), (), frame) for state in states}
            keys = tuple(frame.map(key) for key in event.optimizers)
            if event.callee_name == CONFIGURED_STEP:
                return {self._unknown_step(state, event) for state in states}
            return {self._step(state, event, keys) for state in states}
        if kind == EventKind.CLEAR:
            keys = tuple(frame.map(key) for key in event.optimizers)
            modules = tuple(frame.map(module) for module in event.modules)
            return {self._clear(state, event, keys, modules, frame) for state in states}
        if kind == EventKind.HAVOC:
            if event.callee_name == GRAD_WRITE:
                return {_maybe_fresh(state) for state in states}
            keys = tuple(frame.map(key) for key in event.optimizers)
            return {self._havoc(state, keys) for state in states}
        if kind == EventKind.KILL:
            return {self._kill(state, event, frame) for state in states}
        if kind == EventKind.CALL:
            callee = event.callee
            if event.receiver == "self" and frame.self_class and event.method:
                callee = self.dispatch(frame.self_class, event.method) or callee
            if callee is not None and self.reaches(callee, _EFFECTS):
                return self.call(callee, event, states, frame)
        return states

    def dispatch(self, class_name: str, method: str) -> FunctionModel | None:
        """``method`` as seen from an instance of ``class_name`` (in-file classes only)."""
        pending = [class_name]
        seen: set[str] = set()
        while pending:
            name = pending.pop(0)
            info = self.model.class_info(name)
            if info is None or name in seen:
                continue
            seen.add(name)
            if method in info.methods:
                return info.methods[method]
            pending.extend(info.bases)
        return None

    def _backward(self, state: State, event: Event) -> State:
        def add(value: Status) -> Status:
            kind = value[0]
            if kind == "S":
                return ("SF", event, value[1], False, value[2], value[3])
            if kind == "SF":  # keep the first backward since the last step of any optimizer
                return ("SF", event if value[3] else value[1], value[2], False, *value[4:])
            if kind == "FC":
                return value if event in value[2] else ("FC", value[1], value[2] | {event})
            if kind == "D" and value[2] is not None:
                return ("FW", event, value[1], value[2], value[3])
            if kind == "FW":
                return ("FW", event, *value[2:])
            if kind == "F":
                return value if event in value[1] else ("F", value[1] | {event})
            return ("F", frozenset({event}))

        return map_statuses(state, add)

    def _step(self, state: State, event: Event, keys: tuple[str, ...]) -> State:
        entries = dict(state[1])
        default = state[0]
        targets = [*list(entries), ALL] if ALL in keys else list(keys)
        for key, value in entries.items():
            if value[0] == "SF" and key not in targets:
                entries[key] = (*value[:3], True, *value[4:])
        if default[0] == "SF" and ALL not in targets:
            default = (*default[:3], True, *default[4:])
        guards = self.step_guards()
        for key in targets:
            value = default if key == ALL else entries.get(key, default)
            self._observe_step(event, key, value, guards)
            # a step on cleared gradients applies nothing: they stay cleared, not stale; one
            # on unknown gradients (the caller's, an unknown call's) proves nothing stale
            if value[0] in ("C", "D"):
                after = CLEARED
            elif value[0] in ("E", "U"):
                after = value
            else:
                after = stale(event, guards)
            if key == ALL:
                default = after
            else:
                entries[key] = after
        return with_entries(state, entries, default)

    def _unknown_step(self, state: State, event: Event) -> State:
        """A configured step call handed no optimizer the check knows: it steps the
        optimizers nothing in this code names, when no optimizer is named at all; else
        which of them it steps is unknown."""
        if state[1]:
            return self._havoc(state, (ALL,))
        return self._step(state, event, (ALL,))

    def step_guards(self) -> Guards:
        """The conditions a step runs under within the iteration of its innermost loop."""
        base = self.loops[-1][2] if self.loops else 0
        return frozenset(self.guards[base:]) if len(self.guards) > base else NO_GUARDS

    def _observe_step(self, event: Event, key: str, value: Status, guards: Guards) -> None:
        observations = self.observations
        observations.step_statuses.setdefault((event, key), set()).add(value[0])
        kind = value[0]
        if kind == "SF" and proven(value, guards, tuple(loop for loop, _, _ in self.loops)):
            observations.leaks.setdefault((value[1], key), set()).add(value[2])
        elif kind == "D":
            observations.discards.setdefault((event, key), set()).update(value[4])
        elif kind == "FW" and value[1] in value[3]:
            # the same backward whose accumulated gradients the clear threw away feeds
            # this step: the clear runs on every micro-batch of the window
            clear, loop = value[2], value[4]
            if not clear.managed and self.runs_every_iteration(loop.body, clear):
                observations.broken_windows.setdefault(clear, (key, loop))

    def _clear(
        self,
        state: State,
        event: Event,
        keys: tuple[str, ...],
        modules: tuple[str, ...],
        frame: _Frame,
    ) -> State:
        entries = dict(state[1])
        default = state[0]
        everything = ALL in keys

        def cleared(value: Status) -> Status:
            kind = value[0]
            if kind == "FC":  # gradients accumulated over earlier iterations
                return ("D", event, value[2], value[1], frozenset({event}))
            if kind in ("F", "SF", "FW"):  # fresh gradients no step has seen
                return ("D", event, None, None, frozenset({event}))
            if kind == "D":  # every clear since the discard (a fix must move them all)
                return value if event in value[4] else (*value[:4], value[4] | {event})
            return CLEARED

        for key, value in entries.items():
            if everything or key in keys or self._module_clears(key, modules):
                if value[0] == "F":
                    self._note_skipped_window(state, event, key)
                entries[key] = cleared(value)
        for key in keys:
            if key not in entries and key != ALL:
                entries[key] = cleared(default)
        if everything or modules:
            default = cleared(default)
        return with_entries(state, entries, default)

    def _note_skipped_window(self, state: State, clear: Event, key: str) -> None:
        """A clear that runs on every iteration of its loop, reached with fresh gradients
        on a path where the loop's accumulation-gated step (``if (i + 1) % k == 0:
        optimizer.step()``) was skipped, throws away the micro-batches of the window (a
        clear dedented out of the step's ``if``): ZG103. Fresh gradients skipped by other
        conditions (``if torch.isfinite(loss):``) may be discarded on purpose."""
        if not self.loops or clear.managed:
            return
        loop, frame, _ = self.loops[-1]
        if not self.runs_every_iteration(loop.body, clear):
            return
        for statement in loop.body:
            if (
                isinstance(statement, If)
                and statement.atom is not None
                and statement.atom.accumulation
                and (frame.tag, statement.atom, statement.negated) in state[2]
                and self.has_step(statement.body)
            ):
                self.observations.broken_windows.setdefault(clear, (key, loop))
                return

    def _module_clears(self, key: str, modules: tuple[str, ...]) -> bool:
        if not modules:
            return False
        tie = self.ties.get(key, self.model.ties.get(key))
        for module in modules:
            if module == key or tie is None or any(related(module, t) for t in tie):
                return True
        return False

    def _havoc(self, state: State, keys: tuple[str, ...]) -> State:
        if ALL in keys:
            return map_statuses(state, _unknown)
        entries = dict(state[1])
        for key in keys:
            entries[key] = UNKNOWN
        return with_entries(state, entries)

    def _kill(self, state: State, event: Event, frame: _Frame) -> State:
        if not state[2]:
            return state  # no assumption to forget
        kept = set()
        for tag, atom, value in state[2]:
            if tag == frame.tag and atom.names & event.names:
                if event.increment and atom.key[0] == "end" and atom.counter in event.names:
                    kept.add((tag, _window_start(atom), value))
                continue
            kept.add((tag, atom, value))
        return (state[0], state[1], frozenset(kept))

    # -- calls --------------------------------------------------------------------------

    def call(
        self,
        callee: FunctionModel,
        event: Event,
        states: set[State],
        frame: _Frame,
        *,
        closure: bool = False,
    ) -> set[State]:
        if callee in self.stack or len(self.stack) > MAX_CALL_DEPTH:
            return {self._havoc(state, (ALL,)) for state in states}
        if closure:
            inner = _Frame(callee, frame.env, frame.self_prefix, frame.tag, frame.self_class)
        else:
            inner = self._bind(callee, event, frame)
        shares_names = closure or _encloses(frame.function, callee)
        if shares_names:  # a closure's conditions on free names correlate with its definer's
            inner.tag = frame.tag
        keys = self._mapped_keys(callee, inner)
        # a call analysed from the same state with the same bindings ends the same way
        # (observations are recorded already): reuse it, or nested loops calling helpers
        # with loops multiply their fixpoint iterations
        binding = (
            id(callee),
            tuple(sorted(inner.env.items())),
            inner.self_prefix,
            inner.self_class,
            inner.tag,
            len(self.stack),
            self.step_guards(),
        )
        result: set[State] = set()
        pending: set[State] = set()
        for state in states:
            cached = self._calls.get((binding, state))
            if cached is None:
                pending.add(state)
            else:
                result |= cached
        enters = callee.origin is not None and frame.function.origin is None
        if enters and pending:
            self.via.append(event)
        for state in pending:
            self.stack.append(callee)
            outcome = self.block(callee.body, {materialize(state, keys)}, inner)
            self.stack.pop()
            ended = outcome.normal | outcome.returns
            if not shares_names:
                ended = {
                    (s[0], s[1], frozenset(a for a in s[2] if a[0] != inner.tag)) for s in ended
                }
            self._calls[(binding, state)] = ended
            result |= ended
        if enters and pending:
            self.via.pop()
        return result

    def _bind(self, callee: FunctionModel, event: Event, frame: _Frame) -> _Frame:
        params = list(callee.params)
        via_receiver = event.kind == EventKind.CALL and event.receiver is not None
        prefix = frame.self_prefix
        self_class = frame.self_class
        if via_receiver:
            if params:
                params = params[1:]
            if event.receiver not in ("self", "cls") and event.receiver is not None:
                prefix = frame.map(event.receiver)
                self_class = callee.class_name
        elif callee.class_name is not None:
            prefix, self_class = None, callee.class_name
        env: dict[str, str] = {}
        for param in params:
            env[param] = f"{callee.qualname}:{param}"
        for param, arg in zip(params, event.args, strict=False):
            if arg is not None:
                env[param] = frame.map(arg)
        for name, arg in event.kwargs:
            if name in env and arg is not None:
                env[name] = frame.map(arg)
        inner = self._frame(callee, env, prefix)
        inner.self_class = self_class
        return inner

    def _mapped_keys(self, function: FunctionModel, frame: _Frame) -> set[str]:
        keys = self._keys.get(id(function))
        if keys is None:
            keys = set()
            for statement in events_of(function.body):
                if statement.kind in (EventKind.STEP, EventKind.CLEAR, EventKind.HAVOC):
                    keys.update(k for k in statement.optimizers if k != ALL)
            self._keys[id(function)] = keys
        mapped = set()
        for key in keys:
            target = frame.map(key)
            mapped.add(target)
            tie = self.model.ties.get(key)
            if tie is not None and target not in self.ties:
                self.ties[target] = frozenset(frame.map(module) for module in tie)
        return mapped

    def runs_every_iteration(
        self, statements: list[Statement], wanted: Event, depth: int = 0
    ) -> bool:
        """Whether ``wanted`` runs unconditionally in ``statements`` (not under an ``if``,
        an exception handler or an inner loop; calls followed)."""
        for statement in statements:
            if statement is wanted:
                return True
            if isinstance(statement, Event) and statement.kind == EventKind.CALL:
                callee = statement.callee
                if (
                    callee is not None
                    and depth < 4
                    and self.runs_every_iteration(callee.body, wanted, depth + 1)
                ):
                    return True
            elif isinstance(statement, Try):
                for part in (statement.body, statement.finalbody):
                    if self.runs_every_iteration(part, wanted, depth):
                        return True
        return False

    def reaches(
        self, function: FunctionModel, kinds: tuple[EventKind, ...], depth: int = 0
    ) -> bool:
        """Whether calling ``function`` may run an event of ``kinds`` (callees followed;
        a call dispatched on ``self`` at run time counts as may)."""
        key = (id(function), kinds)
        cached = self._reaches.get(key)
        if cached is not None:
            return cached
        self._reaches[key] = False  # recursion: assume not while computing
        found = False
        for event in events_of(function.body):
            if event.kind in kinds:
                found = True
            elif event.kind == EventKind.CALL:
                callee = event.callee
                found = (callee is None and event.receiver == "self") or (
                    callee is not None and depth < 8 and self.reaches(callee, kinds, depth + 1)
                )
                if not found and event.receiver == "self" and event.method:
                    found = (
                        any(
                            event.method in info.methods
                            and self.reaches(info.methods[event.method], kinds, depth + 1)
                            for info in self.model.classes.values()
                        )
                        if depth < 8
                        else True
                    )
            elif event.closure_model is not None and depth < 8:
                found = self.reaches(event.closure_model, kinds, depth + 1)
            if found:
                break
        self._reaches[key] = found
        return found

    def has_step(self, statements: list[Statement]) -> bool:
        return self.contains(statements, EventKind.STEP)

    def contains(self, statements: list[Statement], kind: EventKind, depth: int = 0) -> bool:
        """Whether ``statements`` hold an event of ``kind`` (calls followed)."""
        key = (id(statements), kind)
        cached = self._contains.get(key)
        if cached is not None:
            return cached
        self._contains[key] = False
        found = False
        for event in events_of(statements):
            if event.kind == kind:
                found = True
            elif event.kind == EventKind.CALL and event.callee is not None and depth < 4:
                found = self.contains(event.callee.body, kind, depth + 1)
            if found:
                break
        self._contains[key] = found
        return found


def _coarse(value: Status) -> Status:
    kind = value[0]
    if kind == "F" or kind == "FW":
        return ("F", frozenset())
    if kind == "FC":
        return ("FC", value[1], frozenset())
    if kind == "D":
        return ("D", value[1], None, None, frozenset({value[1]}))
    return value


def _widen(states: set[State]) -> set[State]:
    """Too many paths: forget assumptions and which backward calls fed fresh gradients
    (that only costs ZG103 findings, never adds one), so paths merge."""
    return {
        (_coarse(default), tuple((key, _coarse(value)) for key, value in entries), frozenset())
        for default, entries, _ in states
    }


def _encloses(outer: FunctionModel, inner: FunctionModel) -> bool:
    scope = inner.parent
    while scope is not None:
        if scope is outer:
            return True
        scope = scope.parent
    return False


def _maybe_fresh(state: State) -> State:
    """After an unknown call that may write gradients, discarded gradients may have been
    replaced by fresh ones: whether the step sees fresh gradients is unknown."""

    def refresh(value: Status) -> Status:
        return UNKNOWN if value[0] == "D" else value

    return map_statuses(state, refresh)


def _unknown(_: Status) -> Status:
    return UNKNOWN


def _cleared(_: Status) -> Status:
    return CLEARED


def _carry(value: Status, loop: Loop) -> Status:
    """Fresh gradients crossing the back edge of ``loop`` without a step."""
    if value[0] == "F":
        return ("FC", loop, value[1])
    return value  # "FW" keeps what the last clear discarded
