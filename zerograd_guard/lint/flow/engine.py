"""Path-sensitive flow check over the event model.

Each function body is interpreted over *sets* of abstract states (see ``state``): an
``if`` sends every state down the branches its assumptions allow, a loop is iterated to a
fixpoint including the back edge to the next iteration, ``break`` / ``continue`` /
``return`` carry their states to where they jump, ``try`` / ``finally`` route states
through handlers and the final block. Calls of functions defined in the same file are
analysed in place (with parameters bound to the caller's names), so a loop calling
``train_step(batch)`` is judged with what ``train_step`` does.

What the check observes is recorded, not reported: the rules turn it into findings.

Glossary
--------
* **status** — what one optimizer's gradients hold on one path (``state.StatusKind``);
  a **state** maps optimizer keys to statuses plus the path's assumptions.
* **atom** — a branch condition the check can correlate (``model.events.Atom``); an
  **assumption** is ``(frame tag, atom, value)``: this path took ``atom`` as ``value``.
* **havoc** — an unknown call handed an optimizer (or one that may clear by its name):
  the optimizer's status becomes unknown, which never produces a finding.
* **kill** — an assignment to names a condition reads: assumptions on them are forgotten
  (a name bound to ``True`` / ``False`` is then assumed to have that value).
* **hand-over** — ``shared._grad = local.grad``: the local gradients are applied by the
  shared model's optimizer (a manual step of them, ``HANDED_OVER``).
* **window** — an accumulation window: the iterations between two steps of an
  ``if (i + 1) % k == 0: step()`` (or a micro-batch loop); fresh gradients are
  **carried** over the loop's back edge into the next iteration of the window.
* **widen** — too many paths: forget assumptions and which backwards fed fresh
  gradients, so paths merge (it can only lose ZG103 findings, never add one).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from zerograd_guard.lint.extract.names import (
    ACCUMULATION_NAME,
    CONFIGURED_STEP,
    GRAD_SCALE,
    GRAD_WRITE,
    INPUT_GRAD,
    REBOUND_MODULE,
    RESTORED_PARAMETERS,
    WRITTEN_GRAD,
    key_of,
    last_segment,
    matches,
)
from zerograd_guard.lint.flow.pairing import NO_GUARDS, Guards, proven, skip_clear, stale
from zerograd_guard.lint.flow.state import (
    CLEARED,
    UNKNOWN,
    Carried,
    Cleared,
    Discarded,
    Entries,
    Entry,
    Foreign,
    ForeignFresh,
    Fresh,
    Refilled,
    Stale,
    StaleFresh,
    State,
    Status,
    StatusKind,
    Unknown,
    contains,
    initial,
    map_statuses,
    materialize,
    related,
    submodule,
    with_entries,
)
from zerograd_guard.lint.model.events import (
    ALL,
    LAST_ITERATION,
    MANUAL,
    SYNC,
    Atom,
    Event,
    EventKind,
    If,
    Jump,
    Loop,
    Reach,
    Statement,
    Try,
    child_blocks,
    events_of,
    renamed_atom,
    renamed_name,
    renamed_source,
)
from zerograd_guard.lint.model.program import FunctionModel, ModuleModel

MAX_STATES = 128
# a condition that is a dotted name, tests whether one is None, True or False (``if scaler
# is None:``, ``if params.fp16 is False:``) or compares one with a constant (``if
# self.method == "balance":``, a mode set once)
_FLAG_PART = (
    r"[A-Za-z_][\w.]*|\([A-Za-z_][\w.]* (?:Is(?:Not)? (?:None|True|False)"
    r"|Equal (?:\"[^\"]*\"|'[^']*'|-?\d+|True|False|None))\)"
)
_FLAG_PART_PATTERN = re.compile(_FLAG_PART)
# a dotted name compared with a string or an integer: (name, constant)
_EQUALITY = re.compile(r"\(([A-Za-z_][\w.]*) Equal (\"[^\"]*\"|'[^']*'|-?\d+)\)")
# a test of a computed value (a NaN or infinite loss or gradient norm)
_VALUE_TEST = re.compile(r"\b(?:isnan|isinf|isfinite)\(")
# a module named as a discriminator or a critic: ``D``, ``netD``, ``net_D_A``, ``model_D``,
# ``disc``, ``discA``, ``discriminator_b``, ``critic2`` (not ``discount``)
_ADVERSARY = re.compile(
    r"(?i)(?:net_?|model_?)?(?:d(?:_?[ab12])?|(?:disc(?:riminator)?|critic)(?:_?[a-z0-9]{1,2})?)$"
)
# Events applied per judged function before giving up on it: what was observed so far was
# observed on real paths and stays; the rest of that function is not judged.
WORK_BUDGET = 200_000


class BudgetExceeded(Exception):
    """The function's paths are too many to follow (pathological code)."""


_EFFECTS = (EventKind.BACKWARD, EventKind.STEP, EventKind.CLEAR, EventKind.HAVOC)
# Whether a backward writes an optimizer's parameters (see ``FlowEngine.touch``).
REACHED, MAYBE, MISSED = "reached", "maybe", "missed"
# How much of an optimizer's parameters a module clear covers.
FULL, PARTIAL, SUBMODULE, NONE = "full", "partial", "submodule", "none"
# A tie a callee's frame replaced: (optimizer key, its tie before, its groups before).
_SavedTie = tuple[str, frozenset[str] | None, tuple[frozenset[str], ...] | None]
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
      accumulated over earlier iterations of ``loop`` without a step (ZG103);
    * ``gated_clears``: those of ``broken_windows`` that run under the step's own
      accumulation condition, before the backward (not on every iteration);
    * ``cross_leaks``: (backward, optimizer) -> (step, consumer) pairs: the backward of
      another model's loss wrote into the optimizer's parameters, ``consumer`` (the other
      optimizer's step) applied it, and ``step`` applied it again with the optimizer's
      own gradients (ZG104);
    * ``partial_clears``: optimizer -> module clears that cover only some of the modules
      it steps, with the modules left uncleared (named in ZG101's message);
    * ``early_backwards``: (backward, optimizer) -> steps in a loop after that backward,
      which ran before the loop with no clear since: the first step applies it with the
      first iteration's gradients (ZG101);
    * ``stale_reads``: (backward, optimizer) -> (read, step) pairs: ``.grad`` read after
      the backward added onto gradients ``step`` had applied, with no clear between
      (ZG101 when no step reports that backward);
    * ``summed_reads``: backward -> (read, loop): in each iteration of ``loop`` the read
      adds ``.grad`` to a total kept across iterations, with no clear since the previous
      iteration's backward: the total counts that backward's gradients again
      (``flow.summed_reads``; ZG101 when nothing else reports that backward).
    """

    leaks: dict[tuple[Event, str], set[Event]] = field(default_factory=dict)
    step_statuses: dict[tuple[Event, str], set[StatusKind]] = field(default_factory=dict)
    discards: dict[tuple[Event, str], set[Event]] = field(default_factory=dict)
    broken_windows: dict[Event, tuple[str, Loop]] = field(default_factory=dict)
    gated_clears: set[Event] = field(default_factory=set)
    cross_leaks: dict[tuple[Event, str], set[tuple[Event, Event]]] = field(default_factory=dict)
    partial_clears: dict[str, dict[Event, frozenset[str]]] = field(default_factory=dict)
    early_backwards: dict[tuple[Event, str], set[Event]] = field(default_factory=dict)
    stale_reads: dict[tuple[Event, str], set[tuple[Event, Event]]] = field(default_factory=dict)
    summed_reads: dict[Event, tuple[Event, Loop]] = field(default_factory=dict)
    # project mode: each event of another module -> the call in this file it ran under
    # (the first one seen)
    sites: dict[Event, Event] = field(default_factory=dict)
    # ... and for a leak whose backward and step ran in one call of another module's
    # function, that call: a helper called twice (the critic's call cleared, the actor's
    # not) leaks under one of them only
    leak_sites: dict[tuple[Event, str], Event] = field(default_factory=dict)
    # ... and (backward, optimizer, step) -> the call the step ran under when it applied
    # the backward's gradients again: a step that other calls reach first (an overridden
    # base method judged on its own) is placed at the call of the leak
    applied_sites: dict[tuple[Event, str, Event], Event] = field(default_factory=dict)
    # events a framework runs around hooks (``flow.hooks``), not in the file -> what the
    # framework does around them, for messages
    framework: dict[Event, str] = field(default_factory=dict)


@dataclass
class _Outcome:
    normal: set[State] = field(default_factory=set)
    breaks: set[State] = field(default_factory=set)
    continues: set[State] = field(default_factory=set)
    returns: set[State] = field(default_factory=set)
    # other raises: they leave the function like a return, but no caller goes on after
    # the call (a helper that raises on a bad argument before its clear)
    raises: set[State] = field(default_factory=set)
    # raises of the exceptions the caller of the judged hook catches (``FlowEngine.caught``)
    raised: dict[str, set[State]] = field(default_factory=dict)

    def absorb_jumps(self, other: _Outcome) -> None:
        self.breaks |= other.breaks
        self.continues |= other.continues
        self.absorb_exits(other)

    def absorb_exits(self, other: _Outcome) -> None:
        """What leaves the function: returns and raises (not loop jumps)."""
        self.returns |= other.returns
        self.raises |= other.raises
        for name, states in other.raised.items():
            self.raised.setdefault(name, set()).update(states)


@dataclass
class _Frame:
    function: FunctionModel
    env: dict[str, str]
    self_prefix: str | None
    tag: int
    self_class: str | None = None  # the class ``self`` is an instance of (dispatch)
    # a parameter bound to a plain name of a frame up the calls -> that frame's tag: a
    # test of the parameter is a test of that name (``_translated``)
    outer: dict[str, int] = field(default_factory=dict)

    def map(self, name: str) -> str:
        if name in self.env:
            return self.env[name]
        if name.startswith("self."):
            # an attribute of an attribute bound to the caller's object (``self.model``
            # to ``model``): ``self.model.encoder`` is ``model.encoder``
            head, dot, rest = name[5:].partition(".")
            bound = self.env.get("self." + head) if dot else None
            if bound is not None:
                return f"{bound}.{rest}"
        if self.self_prefix is not None and (name == "self" or name.startswith("self.")):
            return self.self_prefix + name[4:]
        return name


def _bind_arguments(
    env: dict[str, str],
    params: Sequence[str],
    args: tuple[str | None, ...],
    kwargs: tuple[tuple[str, str | None], ...],
    frame: _Frame,
) -> None:
    """Bind ``params`` in ``env`` to the caller's names of the arguments passed (a call's,
    or a ``functools.partial``'s), positional first; an unknown argument binds nothing."""
    for param, arg in zip(params, args, strict=False):
        if arg is not None:
            env[param] = frame.map(arg)
    for name, arg in kwargs:
        if name in params and arg is not None:
            env[name] = frame.map(arg)


class _Implications(NamedTuple):
    """What a condition's key says makes it false (``FlowEngine._implications``)."""

    equality: tuple[str, str] | None  # (name, constant) it compares
    conjuncts: frozenset[str]  # keys of the conditions it joins with ``and``


@functools.lru_cache(maxsize=4096)  # the same few conditions, tested on every path
def _is_flag(key: str) -> bool:
    """Whether the condition ``key`` is a flag part (``_FLAG_PART``), or flag parts joined
    by ``and`` / ``or`` at any depth (``DEEPSPEED_WRAP and args.deepspeed``; ``use_amp and
    device.type == "cuda" and scaler is not None``, two-towers-overlords' choice of the
    epoch function)."""
    if _FLAG_PART_PATTERN.fullmatch(key) is not None:
        return True
    operands = _operands(key, (" And ", " Or "))
    return bool(operands) and all(map(_is_flag, operands))


def _conjuncts(key: str) -> frozenset[str]:
    """The keys ``(A And B)`` joins (``A``, ``B``), split at its outermost ``And``s."""
    return frozenset(_operands(key, (" And ",)))


def _operands(key: str, operators: tuple[str, ...]) -> list[str]:
    """The operands of the bracketed ``(A Op B)``, split at its outermost ``operators``
    (with their spaces: ``" And "``); none when it is not bracketed or joins fewer than
    two."""
    if not (key.startswith("(") and key.endswith(")")) or not any(o in key for o in operators):
        return []
    inner = key[1:-1]
    parts: list[str] = []
    depth = start = 0
    index = 0
    while index < len(inner):
        char = inner[index]
        if char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
        elif char in "\"'":  # a string constant: skip to its end
            end = inner.find(char, index + 1)
            index = len(inner) if end < 0 else end
        elif depth == 0 and (operator := _operator_at(inner, index, operators)):
            parts.append(inner[start:index])
            start = index + len(operator)
            index = start - 1
        index += 1
    parts.append(inner[start:])
    return parts if len(parts) > 1 else []


def _operator_at(text: str, index: int, operators: tuple[str, ...]) -> str | None:
    for operator in operators:
        if text.startswith(operator, index):
            return operator
    return None


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
        self.instance: tuple[str, str] | None = None  # see ``run``
        self._before_events: dict[int, frozenset[Event]] = {}  # ``_called_before_loops``
        self._contains: dict[tuple[int, EventKind], bool] = {}
        self._reaches: dict[tuple[int, tuple[EventKind, ...]], bool] = {}
        self._function_locals: dict[int, frozenset[str]] = {}  # ``_locals``, per function
        self._lasting: frozenset[str] | None = None  # ``_lightning_optimizer_names``
        self._keys: dict[int, set[str]] = {}
        self.ties: dict[str, frozenset[str]] = {}  # ties of optimizers under mapped names
        self.groups: dict[str, tuple[frozenset[str], ...]] = {}  # the same, per module
        self.reach: dict[Event, Reach] = {}  # what each backward reaches, in the caller's names
        self._touches: dict[int, dict[tuple[str, frozenset[str] | None], str]] = {}
        self._mapped: dict[tuple[object, ...], Reach] = {}  # reaches in a caller's names
        self._misses_none: dict[int, bool] = {}  # reaches that miss no tied optimizer
        self._made_foreign = False  # whether any Foreign status was made (fast path otherwise)
        self._loop_events: dict[int, frozenset[Event]] = {}
        # per function: backward -> the clears right before it (``_note_joint_clear``)
        self._preceding: dict[int, dict[int, tuple[tuple[Event, frozenset[str]], ...]]] = {}
        # backward -> (optimizer keys, modules) those clears cleared, in the caller's names
        self.joint: dict[Event, tuple[frozenset[str], tuple[str, ...]]] = {}
        self._calls: dict[tuple[object, State], set[State]] = {}
        # calls of generator functions whose bodies have gradient effects (``event``)
        self._generators: set[int] = set()
        # the conditions each clear ran under within its loop's iteration (``step_guards``)
        self._clear_guards: dict[Event, Guards] = {}
        self.work = 0
        # the loops being iterated, innermost last, with the depth of ``guards`` at entry
        self.loops: list[tuple[Loop, _Frame, int]] = []
        self.guards: list[Atom | None] = []  # conditions of the branches being analysed
        # for each of ``guards``: the optimizers its ``if`` steps in both branches
        self._stepped_either_way: list[frozenset[str]] = []
        self._either_way: dict[int, frozenset[str]] = {}  # by ``If`` (``_steps_either_way``)
        self.via: list[Event] = []  # calls from this file into other modules, innermost last
        # exceptions a framework catches around the hook being judged (``flow.hooks``): a
        # raise of one in the hook's own body goes to ``_Outcome.raised``, not to returns
        self.caught: frozenset[str] = frozenset()
        # flags and window conditions whose ``if`` gates gradient events: their
        # assumptions survive widening
        self._gating_flags: set[Atom] = set()
        # accumulation-like conditions of an ``if`` that gates gradients or skips to the
        # next iteration: a path that took one may be inside a window. Not those of a
        # checkpoint (``if num_updates % save_interval == 0:``) or a stopping test (``if
        # num_updates >= max_update: break``)
        self._window_conditions: set[Atom] = set()
        # whether the frame being analysed is the judged function's, or reached from it
        # through calls each in tail position with no loop around (``_tail_calls``):
        # nothing after its end observes gradients (never so for one iteration of a
        # framework's loop, or a hook)
        self._dead_after = False
        self._tails: dict[int, frozenset[int]] = {}
        # per function: the names it binds or its events use (``_names_in``)
        self._names: dict[int, frozenset[str]] = {}
        # per callee, call stack and bindings: its keys dropped at return (``_gone_at_return``)
        self._gone: dict[tuple[object, ...], frozenset[str]] = {}
        # the modules hand-written updates in other modules' code walk (``_manual_modules``)
        self._foreign_manual: set[str | None] = set()
        # per function: the hooks autograd runs after its backward passes (``_accumulate_hooks``)
        self._hooks: dict[int, list[FunctionModel]] = {}
        # per function: the optimizers its steps name (``_stepped_by_name``)
        self._by_name: dict[int, frozenset[str]] = {}
        # (loop, assumptions) -> ``_crossing`` (loops live as long as the engine)
        self._crossings: dict[tuple[int, frozenset[Any]], tuple[bool, frozenset[Any]]] = {}
        # (optimizer key, loop targets) -> whether the key names the loop's element
        self._elements: dict[tuple[str, frozenset[str]], bool] = {}
        # per callee: the names it (or what it may call) uses, None when it may observe
        # optimizers it does not name (``_named_by``)
        self._named: dict[int, frozenset[str] | None] = {}
        # condition key -> what makes it false, or None (``_implications``)
        self._implied: dict[str, _Implications | None] = {}
        # per function: the conditions on names it binds to True / False (``_set_flags``)
        self._flags: dict[int, frozenset[Atom]] = {}

    # -- entry points -------------------------------------------------------------------

    def run(
        self,
        function: FunctionModel,
        *,
        as_iteration: bool = False,
        self_class: str | None = None,
        boundary_clear: bool = False,
        instance: tuple[str, str] | None = None,
    ) -> None:
        """Analyse ``function`` from an unknown entry state; with ``as_iteration`` its body is
        one iteration of a loop its framework runs (Lightning's ``training_step``), and with
        ``boundary_clear`` the framework steps and clears between iterations (every
        gradient is cleared when the body starts); ``self_class``: the subclass whose
        methods ``self.m()`` dispatches to; ``instance``: (a parameter, the class of this
        file whose methods its ``param.m()`` calls dispatch to)."""
        self.instance = instance
        if instance is None and not self.reaches(function, (EventKind.BACKWARD,)):
            return  # no backward, no finding: nothing to judge
        self.work = 0
        frame = self._frame(function, {}, None)
        frame.self_class = self_class or function.class_name
        states = {materialize(initial(), self._mapped_keys(function, frame, []))}
        self.stack.append(function)
        if not as_iteration:
            self._dead_after = True
            try:
                self.block(function.body, states, frame)
            finally:
                self._dead_after = False
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
                outcome.absorb_exits(inner)
                current = inner.normal
            elif kind is Try:
                inner = self.try_(statement, current, frame)  # type: ignore[arg-type]
                outcome.absorb_jumps(inner)
                current = inner.normal
            elif kind is Jump and statement.exception in self.caught:  # type: ignore[union-attr]
                outcome.raised.setdefault(statement.exception, set()).update(current)  # type: ignore[union-attr,arg-type]
                current = set()
            elif kind is Jump:
                target = {
                    "break": outcome.breaks,
                    "continue": outcome.continues,
                    "return": outcome.raises if statement.raises else outcome.returns,  # type: ignore[union-attr]
                }[statement.kind]
                target |= current
                current = set()
            if len(current) > MAX_STATES:
                current = _widen(current, self._gating_flags)
        outcome.normal = current
        return outcome

    def branch(
        self, statement: If, states: set[State], frame: _Frame, outcome: _Outcome
    ) -> set[State]:
        atom = statement.atom
        # a flag (``fp16``, ``args.amp``: a name, no call; or ``step_fn is None``) whose
        # ``if`` gates gradients
        gating_flag = (
            atom is not None
            and type(atom.key) is str
            and _is_flag(atom.key)
            and self._gates_gradients(statement)
        )
        constant = _bound_constant(atom, frame)
        tag, translated = _translated(atom, frame, self._module_global)
        tracked = atom is not None and (
            atom.accumulation
            or frame.function.condition_counts.get(atom.key, 0) > 1
            or (gating_flag and self._in_a_loop_of(frame))
            # a helper's test of a name its caller passed (``backward_step(..., args)``
            # testing ``args.deepspeed``) is a test of that name: it keeps its value from
            # one iteration to the next, like the same test in the loop's own body
            or (gating_flag and tag != frame.tag and bool(self.loops))
            or atom in self._set_flags(frame.function)
        )
        if tracked and (gating_flag or (atom.accumulation and self._gates_gradients(statement))):
            # kept by widening (``_widen``), as the path assumes it: in the caller's names
            self._gating_flags.add(atom)
            if translated is not None:
                self._gating_flags.add(translated)
        atom = translated
        body_in: set[State] = set()
        else_in: set[State] = set()
        body_value = not statement.negated
        if (
            atom is not None
            and atom.accumulation
            and (_skips_iteration(statement) or self._gates_gradients(statement))
        ):
            self._window_conditions.add(atom)
        if constant is not None:  # ``if flag:`` on a parameter the call bound to True/False
            if constant == body_value:
                body_in = set(states)
            else:
                else_in = set(states)
            states = set()
        if not tracked:  # every path takes both branches as it is
            body_in.update(states)
            else_in.update(states)
            states = set()
        taken, not_taken = (tag, atom, body_value), (tag, atom, not body_value)
        implied = self._implications(atom) if states else None
        # paths share their assumptions: each set is split once
        split: dict[frozenset[Any], tuple[frozenset[Any] | None, frozenset[Any] | None]] = {}
        for state in states:
            assumptions = state.assumptions
            sides = split.get(assumptions)
            if sides is None:
                if taken in assumptions:
                    sides = (assumptions, None)
                elif not_taken in assumptions:
                    sides = (None, assumptions)
                elif implied is not None and self._implied_false(assumptions, tag, implied):
                    # the name equals another constant on this path, or one of the
                    # conditions the test joins with ``and`` is false: the test is false
                    false = (tag, atom, False)
                    sides = (
                        (None, assumptions | {false})
                        if body_value
                        else (assumptions | {false}, None)
                    )
                else:
                    sides = (assumptions | {taken}, assumptions | {not_taken})
                split[assumptions] = sides
            into_body, into_else = sides
            if into_body is not None:
                body_in.add(
                    state
                    if into_body is assumptions
                    else State(state.default, state.entries, into_body)
                )
            if into_else is not None:
                else_in.add(
                    state
                    if into_else is assumptions
                    else State(state.default, state.entries, into_else)
                )
        clears_body = self.contains(statement.body, EventKind.CLEAR)
        if clears_body != self.contains(statement.orelse, EventKind.CLEAR) and not (
            _drops_a_batch(statement, clears_body)
        ):
            skipped = atom
            around = frozenset(self.guards[self.loops[-1][2] :] if self.loops else self.guards)
            if clears_body:
                else_in = {skip_clear(state, skipped, around) for state in else_in}
            else:
                body_in = {skip_clear(state, skipped, around) for state in body_in}
        if statement.last_iteration is not None and self.loops:
            marker = (frame.tag, LAST_ITERATION, True)
            if statement.last_iteration:
                body_in = {State(s.default, s.entries, s.assumptions | {marker}) for s in body_in}
            else:
                else_in = {State(s.default, s.entries, s.assumptions | {marker}) for s in else_in}
        self.guards.append(atom)
        self._stepped_either_way.append(self._steps_either_way(statement))
        try:
            body = self.block(statement.body, body_in, frame)
            orelse = self.block(statement.orelse, else_in, frame)
        finally:
            self.guards.pop()
            self._stepped_either_way.pop()
        outcome.absorb_jumps(body)
        outcome.absorb_jumps(orelse)
        return body.normal | orelse.normal

    def _implications(self, atom: object) -> _Implications | None:
        """What makes the condition ``atom`` false on a path, read from its key: the
        (name, constant) of a comparison of a name with a string or an integer
        (``opt.task == "semantic"``), and the keys of the conditions it joins with
        ``and`` (``learn_eta and i % every == 0``); None when neither."""
        key = getattr(atom, "key", None)
        if type(key) is not str:
            return None
        if key not in self._implied:
            match = _EQUALITY.fullmatch(key)
            equality = match.groups() if match else None
            conjuncts = _conjuncts(key)
            self._implied[key] = (
                _Implications(equality, conjuncts)  # type: ignore[arg-type]
                if equality is not None or conjuncts
                else None
            )
        return self._implied[key]

    def _implied_false(self, assumptions: frozenset[Any], tag: int, implied: _Implications) -> bool:
        """Whether the path assumes, in the same frame, that the name of the condition's
        comparison equals another constant (the tests of one chosen value are
        exclusive), or that one of its conjuncts is false."""
        for assumption in assumptions:
            if assumption[0] != tag:
                continue
            key = getattr(assumption[1], "key", None)
            if assumption[2] is False and key in implied.conjuncts:
                return True
            if assumption[2] is True and implied.equality is not None:
                other = self._implications(assumption[1])
                if other is not None and other.equality is not None:
                    name, constant = implied.equality
                    if other.equality[0] == name and other.equality[1] != constant:
                        return True
        return False

    def loop(self, loop: Loop, states: set[State], frame: _Frame) -> _Outcome:
        outcome = _Outcome()
        if loop.once:
            inner = self.block(loop.body, states, frame)
            outcome.absorb_exits(inner)
            after = inner.normal | inner.continues
            tail = self.block(loop.orelse, after, frame)
            outcome.absorb_jumps(tail)
            outcome.normal = tail.normal | inner.breaks
            return outcome
        seen: set[State] = set()
        exits: set[State] = set()
        breaks: set[State] = set()
        # a ``for`` over such a generator resumes its body before every iteration
        resumes = id(getattr(loop.node, "iter", None)) in self._generators
        work = {self._havoc(state, (ALL,)) for state in states} if resumes else set(states)
        # states whose element optimizers were forgotten at the back edge: no path leaves
        # the loop with them (see ``_forget_elements``)
        forgotten: set[State] = set()
        if not (loop.infinite or loop.runs):  # no iteration: its elements do not exist
            exits |= {self._forget_elements(state, loop) for state in work}
        self.loops.append((loop, frame, len(self.guards)))
        first = True
        entered = frozenset(work)
        try:
            while work:
                seen |= work
                if not (first or loop.infinite):
                    exits |= work - forgotten if forgotten else work
                first = False
                inner = self.block(loop.body, work, frame)
                outcome.absorb_exits(inner)
                breaks |= inner.breaks
                back = inner.normal | inner.continues
                last = {s for s in back if _on_last_iteration(s)} if not loop.infinite else set()
                if last:  # the last iteration's paths leave the loop
                    exits |= {self._back_edge(state, loop) for state in last}
                    back -= last
                work = {self._back_edge(state, loop) for state in back}
                if loop.targets:
                    crossed = work
                    work = {self._forget_elements(state, loop) for state in crossed}
                    changed = work - crossed
                    if changed:
                        forgotten |= changed
                        if not loop.infinite:
                            exits |= crossed - work  # leaving holds the last element's
                if resumes:
                    work = {self._havoc(state, (ALL,)) for state in work}
                if not loop.infinite and not work.isdisjoint(entered):
                    # a path back at a state the loop was entered with leaves after this
                    # iteration too (the others leave when first seen, above): an entry
                    # state exits only through the zero-iteration path, which a loop that
                    # ran (``Loop.runs``) has not
                    exits |= (work & entered) - forgotten
                work -= seen
                if len(seen) > MAX_STATES * 4:
                    work = _widen(work, self._gating_flags) - seen
        finally:
            self.loops.pop()
        tail = self.block(loop.orelse, exits, frame)
        outcome.absorb_jumps(tail)
        outcome.normal = tail.normal | breaks
        return outcome

    def _forget_elements(self, state: State, loop: Loop) -> State:
        """``state`` with the optimizers named by the loop's element made unknown: the
        loop variable (``for model, opt in zip(models, opts)``: ``opt``, ``opt.x``) or an
        index by it (``opts[i]``) is another optimizer on the next iteration, so what the
        previous one did to its gradients says nothing of the next one's (FBPINN's
        ``optimizers[im].step()`` per subdomain after clearing them all). The first
        iteration starts from the state the loop was entered with, so an optimizer of
        the list that nothing clears is still seen on the next pass of an outer loop;
        and a path that leaves after the last iteration keeps what that one did."""
        targets = loop.targets
        if not targets or not state.entries:
            return state
        return _forget(state, lambda key: self._names_element(key, targets))

    def _names_element(self, key: str, targets: frozenset[str]) -> bool:
        found = self._elements.get((key, targets))
        if found is None:
            found = self._elements[(key, targets)] = _names_element(key, targets)
        return found

    def _in_a_loop_of(self, frame: _Frame) -> bool:
        """Whether the innermost loop being iterated is ``frame``'s. A gating flag tested
        there once still correlates with itself on the next iteration (a loop that steps
        without a clear only ``if fp16:`` never takes the other branch afterwards), so
        ``branch`` tracks it; ``_back_edge`` forgets it when the loop assigns it. Flags
        around other code (logging) would only multiply the paths."""
        return bool(self.loops) and self.loops[-1][1] is frame

    def _gates_gradients(self, statement: If) -> bool:
        """Whether a branch of ``statement`` backwards, steps or clears (calls followed)."""
        return any(
            self.contains(branch, kind)
            for branch in (statement.body, statement.orelse)
            for kind in (EventKind.BACKWARD, EventKind.STEP, EventKind.CLEAR)
        )

    def _back_edge(self, state: State, loop: Loop) -> State:
        assumptions = state.assumptions
        crossing = self._crossings.get((id(loop), assumptions))
        if crossing is None:
            crossing = self._crossings[(id(loop), assumptions)] = self._crossing(assumptions, loop)
        skipped_window, kept = crossing
        default, entries = state.default, state.entries
        if skipped_window:
            default = _carry(default, loop)
            entries = tuple((key, _carry(value, loop)) for key, value in entries)
        return State(default, entries, kept)

    def _crossing(self, assumptions: frozenset[Any], loop: Loop) -> tuple[bool, frozenset[Any]]:
        """What crossing the back edge of ``loop`` does on a path with ``assumptions``:
        whether fresh gradients are carried into the next iteration, and the assumptions
        that still hold there (paths share them: computed once per set and loop). A loop
        without a step carries them as a window's micro-batches unless it may ``break``:
        then it retries one window (an out-of-memory retry halving its chunks) and a
        path that comes back failed its attempt."""
        # fresh gradients reach the back edge only on paths that skipped the step; blame
        # accumulation when such a path went through an accumulation-like condition
        skipped_window = any(
            atom is SYNC or atom in self._window_conditions for _, atom, _ in assumptions
        ) or not (self.has_step(loop.body) or _breaks_out(loop.body))
        kept = set()
        for tag, atom, value in assumptions:
            if atom is SYNC or atom is LAST_ITERATION:
                continue  # decided again on the next iteration
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
        return skipped_window, frozenset(kept)

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
        # a raise abandons the iteration: a window condition that ran before it did not
        # skip the step, so its assumption does not reach the handler (the next clear
        # then discards the abandoned batch on purpose, no broken window)
        abandoned = {_without_windows(state) for state in reached} if statement.handlers else set()
        for handler in statement.handlers:
            inner = self.block(handler, abandoned, frame)
            outcome.absorb_jumps(inner)
            result |= inner.normal
        if statement.finalbody:
            final = self.block(statement.finalbody, result, frame)
            for name in ("breaks", "continues", "returns", "raises"):
                passed = self.block(statement.finalbody, getattr(outcome, name), frame)
                setattr(outcome, name, passed.normal)
                outcome.absorb_jumps(passed)
            for name, raised in outcome.raised.items():
                passed = self.block(statement.finalbody, raised, frame)
                outcome.raised[name] = passed.normal
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
            reach = self._mapped_reach(event, frame)
            self._note_joint_clear(event, frame)
            states = {self._backward(state, event, reach) for state in states}
            for hook in self._accumulate_hooks(event):
                # run by autograd once the pass accumulated: a step (and clear) per
                # parameter, fused into the backward (PyTorch's optimizer-in-backward)
                states = self.call(hook, event, states, frame, closure=True)
            return states
        if kind == EventKind.STEP:
            closure = event.closure_model
            if closure is not None:
                states = self.call(closure, event, states, frame, closure=True)
            if event.engine:
                return {self._clear(state, event, (ALL,), (), frame) for state in states}
            keys = tuple(frame.map(key) for key in event.optimizers)
            if event.callee_name == CONFIGURED_STEP:
                return {self._unknown_step(state, event) for state in states}
            if MANUAL in event.optimizers and _foreign(event):
                self._note_foreign_manual(event, frame)
            spared = self._stepped_by_name(event, frame) if event.each else frozenset()
            states = {self._step(state, event, keys, spared) for state in states}
            if closure is not None and event.closure_repeats:
                # LBFGS evaluates the closure again after each update: once more shows it
                states = self.call(closure, event, states, frame, closure=True)
                states = {self._step(state, event, keys, spared) for state in states}
            return states
        if kind == EventKind.CLEAR:
            keys = tuple(frame.map(key) for key in event.optimizers)
            modules = tuple(frame.map(module) for module in event.modules)
            run = tuple(frame.map(key) for key in event.companions) or keys
            implied = (run, self._optimizer_modules(run))
            spared = self._stepped_by_name(event, frame) if event.each else frozenset()
            return {
                self._clear(state, event, keys, modules, frame, implied, spared) for state in states
            }
        if kind == EventKind.HAVOC:
            if event.callee_name == GRAD_WRITE:
                return {_maybe_fresh(state) for state in states}
            if event.callee_name in (GRAD_SCALE, RESTORED_PARAMETERS):
                if event.modules:  # one module's gradients scaled: only its optimizers'
                    scaled = tuple(frame.map(module) for module in event.modules)
                    return {
                        self._changed_for(state, scaled, _carried_on_purpose) for state in states
                    }
                return {map_statuses(state, _carried_on_purpose) for state in states}
            if event.callee_name == REBOUND_MODULE:
                rebound = {frame.map(name) for name in event.names}
                return self._rebound(states, rebound)
            if event.callee_name == WRITTEN_GRAD:
                written = tuple(frame.map(module) for module in event.modules)
                return {self._changed_for(state, written, _unknown) for state in states}
            keys = tuple(frame.map(key) for key in event.optimizers)
            return {self._havoc(state, keys) for state in states}
        if kind == EventKind.KILL:
            if (event.constant is not None or event.is_none is not None) and (
                set_flags := self._set_flag(event, frame)
            ):
                return {self._assume(state, event, frame, set_flags) for state in states}
            if not any(state.assumptions for state in states):
                # nothing to forget; a copy, not a rebuilt set: no state is hashed again
                return set(states)
            # paths share their assumptions: each set is reduced once per event
            forgotten: dict[frozenset[Any], frozenset[Any]] = {}
            return {self._kill(state, event, frame, forgotten) for state in states}
        if kind == EventKind.READ:
            self._observe_read(event, states, frame)
            return states
        if kind == EventKind.CALL:
            callee = event.callee
            instance_class = None
            if event.receiver == "self" and frame.self_class and event.method:
                callee = self.dispatch(frame.self_class, event.method) or callee
            elif self.instance is not None and event.method and event.receiver is not None:
                instance_class = self._instance_class(event.receiver, frame)
                if instance_class is not None:
                    callee = self.dispatch(instance_class, event.method) or callee
            if callee is not None and (
                self.reaches(callee, _EFFECTS)
                or any(
                    self.reaches(override, _EFFECTS)
                    for override in self._overrides_run(callee, event.instance_class)
                )
            ):
                if callee.is_generator:
                    # the call runs none of the body: it runs a piece at a time while the
                    # generator is iterated, at points the check cannot place, so what it
                    # does is unknown from here on (and at each iteration of a ``for``
                    # over the call: ``loop``)
                    self._generators.add(id(event.node))
                    return {self._havoc(state, (ALL,)) for state in states}
                return self.call(callee, event, states, frame, instance_class=instance_class)
        return states

    def _instance_class(self, receiver: str, frame: _Frame) -> str | None:
        """The class of this file ``receiver`` is an instance of when it is the judged
        driver's parameter (``run``'s ``instance``), or names it through the parameters
        of the calls since."""
        param, class_name = self.instance  # type: ignore[misc]
        if receiver in frame.env:  # a callee's parameter: what the caller handed it
            named = frame.env[receiver]
        elif self.stack and frame.function is self.stack[0]:  # the driver's own name
            named = receiver
        else:
            return None
        return class_name if named == param else None

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

    def _mapped_reach(self, event: Event, frame: _Frame) -> Reach | None:
        reach = event.reach
        if reach is None:
            return None
        if frame.env or frame.self_prefix is not None:
            binding = (event, frame.self_prefix, tuple(frame.env.items()))
            mapped = self._mapped.get(binding)
            if mapped is None:
                modules = frozenset(frame.map(module) for module in reach.modules)
                mapped = self._mapped[binding] = Reach(modules, reach.complete)
            reach = mapped
        self.reach[event] = reach
        return reach

    def tie(self, key: str) -> frozenset[str] | None:
        """The modules whose parameters optimizer ``key`` steps (None: unknown)."""
        return self.ties.get(key, self.model.ties.get(key))

    def touch(self, key: str, reach: Reach | None) -> str:
        """``REACHED``: the backward's loss was computed from a module optimizer ``key``
        steps; ``MISSED``: from other modules only (every leaf followed); else ``MAYBE``."""
        if reach is None:
            return MAYBE
        row = self._touches.get(id(reach))  # reaches live as long as the engine
        if row is None:
            row = self._touches[id(reach)] = {}
        tie = self.tie(key)
        found = row.get((key, tie))  # a tie follows the frame (``_mapped_keys``)
        if found is None:
            if tie is None:
                found = MAYBE
            elif any(related(module, t) for module in reach.modules for t in tie):
                found = REACHED
            else:
                found = MISSED if reach.complete and reach.modules else MAYBE
            row[(key, tie)] = found
        return found

    def _misses(self, reach: Reach, entries: Entries) -> bool:
        """Whether ``reach`` provably misses an optimizer listed in ``entries``; answered
        once per reach when it misses no optimizer the file ties to modules."""
        if self._misses_none.get(id(reach)):
            return False
        if any(self.touch(key, reach) == MISSED for key in (*self.ties, *self.model.ties)):
            return any(self.touch(key, reach) == MISSED for key, _ in entries)
        self._misses_none[id(reach)] = True
        return False

    def frozen(self, key: str) -> bool:
        """Whether the file freezes (or may freeze) parameters optimizer ``key`` steps."""
        frozen = self.model.frozen
        if not frozen:
            return False
        tie = self.tie(key)
        if "*" in frozen or tie is None:
            return True
        return any(related(module, t) for module in frozen for t in tie)

    def _foreign(self, key: str, backwards: frozenset[Event], stepping: tuple[str, ...]) -> bool:
        """Whether every backward in ``backwards`` wrote optimizer ``key``'s parameters
        through a loss the optimizers ``stepping`` (now stepping) were fed by."""
        if self.frozen(key):
            return False
        for backward in backwards:
            reach = self.reach.get(backward)
            if self.touch(key, reach) != REACHED:
                return False
            if not any(self.touch(other, reach) == REACHED for other in stepping):
                return False
            if self._cleared_together(backward, key, stepping):
                return False
        return True

    def _note_joint_clear(self, event: Event, frame: _Frame) -> None:
        """Record, in the caller's names, what the clears right before backward ``event``
        cleared (see ``_cleared_together``)."""
        function = event.function
        if function is None:
            return
        table = self._preceding.get(id(function))
        if table is None:
            table = self._preceding[id(function)] = {}
            _preceding_clears(function.body, table)
        keys: set[str] = set()
        modules: list[str] = []
        for clear, stepped in table.get(id(event), ()):
            cleared = frozenset(frame.map(key) for key in clear.optimizers)
            cleared_modules = tuple(frame.map(module) for module in clear.modules)
            if any(self._covers(frame.map(key), cleared, cleared_modules) for key in stepped):
                continue  # the clear that ends an update, not one that prepares this loss
            keys |= cleared
            modules.extend(cleared_modules)
        if keys or modules:
            self.joint[event] = (frozenset(keys), tuple(modules))
        else:
            self.joint.pop(event, None)

    def _cleared_together(self, backward: Event, key: str, stepping: tuple[str, ...]) -> bool:
        """Whether optimizer ``key`` and one of ``stepping`` were both cleared right before
        ``backward`` (no other gradient event between): its loss was meant for both
        models (BicycleGAN's encoder and generator), so the other model's step applying
        it once more with an extra loss of its own applies nothing twice. A GAN's
        discriminator cleared only after its own step is not cleared there, and one
        cleared there is not meant to learn from the generator's loss: an adversary
        (``_adversary``, by the names of the modules its optimizer steps: a
        discriminator, a critic) never is, whatever the clears say."""
        joint = self.joint.get(backward)
        if joint is None or self._adversary(key):
            return False
        keys, modules = joint
        return self._covers(key, keys, modules) and any(
            self._covers(other, keys, modules) for other in stepping
        )

    def _adversary(self, key: str) -> bool:
        """Whether a module optimizer ``key`` steps is named as a GAN's discriminator or an
        actor-critic's critic (the optimizer's own name says less: ``opt_d`` may step a
        decoder)."""
        return any(_ADVERSARY.match(last_segment(module)) for module in self.tie(key) or ())

    def _covers(self, optimizer: str, keys: frozenset[str], modules: tuple[str, ...]) -> bool:
        """Whether clearing optimizers ``keys`` and modules ``modules`` clears all of
        ``optimizer``'s parameters."""
        if optimizer in keys or ALL in keys:
            return True
        return bool(modules) and self._module_clears(optimizer, modules) == FULL

    def _backward(self, state: State, event: Event, reach: Reach | None) -> State:
        def add(value: Status) -> Status:
            kind = type(value)
            if kind is Stale:
                return StaleFresh(
                    event, value.step, False, value.skipped, value.guards, value.enclosing
                )
            if kind is StaleFresh:  # keep the first backward since the last step of any optimizer
                first = event if value.reset else value.backward
                return StaleFresh(
                    first, value.step, False, value.skipped, value.guards, value.enclosing
                )
            if kind is Carried:
                if event in value.backwards:
                    return value
                return Carried(value.loop, value.backwards | {event})
            if kind is Discarded and value.carried is not None:
                return Refilled(event, value.clear, value.carried, value.loop)  # type: ignore[arg-type]
            if kind is Refilled:
                return Refilled(event, value.clear, value.carried, value.loop)
            if kind is Fresh:
                return value if event in value.backwards else Fresh(value.backwards | {event})
            return Fresh(frozenset({event}))

        if reach is None or not (self._made_foreign or self._misses(reach, state.entries)):
            return map_statuses(state, add)  # every optimizer's gradients may get these

        def change(key: str, value: Status) -> Status:
            touch = self.touch(key, reach)
            if touch == MISSED:
                return value  # the loss was computed from other parameters
            kind = type(value)
            if kind is Foreign:
                if touch == REACHED:
                    return ForeignFresh(value.backwards, value.consumer)
                return UNKNOWN
            if kind is ForeignFresh:
                return value
            return add(value)

        return State(
            add(state.default),
            tuple((key, change(key, value)) for key, value in state.entries),
            state.assumptions,
        )

    def _step(
        self,
        state: State,
        event: Event,
        keys: tuple[str, ...],
        spared: frozenset[str] = frozenset(),
    ) -> State:
        """``spared``: optimizers a step of ``ALL`` leaves alone (``_stepped_by_name``),
        with what they hold or what holds them (a wrapper's ``self.optim.optimizer``)."""
        entries = dict(state.entries)
        default = state.default
        targets = (
            [*(k for k in entries if not any(_same_object(k, n) for n in spared)), ALL]
            if ALL in keys
            else list(keys)
        )
        for key, value in entries.items():
            if key in targets:
                continue
            if type(value) is StaleFresh:
                entries[key] = _reset(value)
            elif (
                type(value) is Fresh
                and value.backwards
                and self._foreign(key, value.backwards, keys)
            ):
                entries[key] = Foreign(value.backwards, event)
                self._made_foreign = True
        if type(default) is StaleFresh and ALL not in targets:
            default = _reset(default)
        guards = self.step_guards()
        leak_guards = self._leak_guards(event, guards) if guards else guards
        for key in targets:
            value = default if key == ALL else entries.get(key, default)
            self._observe_step(event, key, value, guards, state.assumptions, leak_guards)
            # a step on cleared gradients applies nothing: they stay cleared, not stale; one
            # on unknown gradients (the caller's, an unknown call's) proves nothing stale
            if type(value) in (Cleared, Discarded):
                after = CLEARED
            elif type(value) in (Entry, Unknown):
                after = value
            else:
                after = stale(event, leak_guards)
            if key == ALL:
                default = after
            else:
                entries[key] = after
        return with_entries(state, entries, default)

    def _accumulate_hooks(self, event: Event) -> list[FunctionModel]:
        """The functions the backward's function (or one enclosing it) registers with
        ``register_post_accumulate_grad_hook``: autograd runs them for each parameter the
        pass accumulates into. Found by Python's scopes from the registering function;
        hooks registered elsewhere are not tied to this backward."""
        function = event.function
        if function is None:
            return []
        found = self._hooks.get(id(function))
        if found is None:
            found = []
            scope: FunctionModel | None = function
            while scope is not None:
                for name in scope.accumulate_hooks:
                    hook = _defined(name, scope)
                    if hook is not None and hook not in found:
                        found.append(hook)
                scope = scope.parent
            self._hooks[id(function)] = found
        return found

    def _locals_of(self, function: FunctionModel) -> frozenset[str]:
        """``_locals(function)``, computed once per function."""
        names = self._function_locals.get(id(function))
        if names is None:
            names = self._function_locals[id(function)] = _locals(function)
        return names

    def _module_global(self, name: str, function: FunctionModel) -> bool:
        """Whether ``name`` in ``function`` is a name of its module: neither ``function``
        nor a function around it binds it (the module's own body does not count)."""
        scope: FunctionModel | None = function
        while scope is not None and scope.parent is not None:
            if name in self._locals_of(scope):
                return False
            scope = scope.parent
        return True

    def _stepped_by_name(self, event: Event, frame: _Frame) -> frozenset[str]:
        """The optimizers the function of ``event`` (a step or clear of each optimizer of
        a collection, ``for opt in self.discr_optims(): opt.step()``) steps by name
        elsewhere: they are not in the collection (code that stepped one twice per
        iteration would be wrong anyway), so the loop leaves them alone (audiolm-pytorch's
        generator optimizer, stepped on its own before the discriminators' loop). Not a
        name taken from the collection (``optimizers[i]`` of ``optimizers``) nor a loop
        variable (an element of some collection: ``for model, opt in zip(models,
        optimizers)``)."""
        function = event.function
        if function is None:
            return frozenset()
        named = self._by_name.get(id(function))
        if named is None:
            named = self._by_name[id(function)] = frozenset(
                key
                for other in events_of(function.body)
                if not other.each
                for key in _stepped_names(other)
                if key not in (ALL, MANUAL) and _root(key) not in function.loop_targets
            )
        return frozenset(
            frame.map(key)
            for key in named
            if not any(_same_object(key.split("[", 1)[0], name) for name in event.collection)
        )

    def _unknown_step(self, state: State, event: Event) -> State:
        """A configured step call handed no optimizer the check knows: it steps the
        optimizers nothing in this code names, when no optimizer is named at all; else
        which of them it steps is unknown."""
        if state.entries:
            return self._havoc(state, (ALL,))
        return self._step(state, event, (ALL,))

    def _loop_locals(self) -> dict[object, frozenset[str]]:
        """For the functions of the loops being iterated (by assumption tag), their
        locals (``_locals``; a closure's frame, which shares its definer's tag, has none
        here): a test of them the loops neither assign nor hand to a call repeats."""
        found = {}
        for _, frame, _ in self.loops:
            if frame.tag == id(frame.function):
                found[frame.tag] = self._locals_of(frame.function)
        return found

    def step_guards(self) -> Guards:
        """The conditions a step runs under within the iteration of its innermost loop."""
        base = self.loops[-1][2] if self.loops else 0
        return frozenset(self.guards[base:]) if len(self.guards) > base else NO_GUARDS

    def _leak_guards(self, step: Event, guards: Guards) -> Guards:
        """``guards`` (``step_guards``) less the conditions of the ``if`` statements that step the
        optimizers of ``step`` in both branches (``scaler.step(opt)`` or ``opt.step()``):
        the step runs whichever way they go, so a leak through a skipped clear
        (``pairing.proven``) does not rest on how they relate to its condition."""
        base = self.loops[-1][2] if self.loops else 0
        if not any(self._stepped_either_way[base:]):
            return guards  # the usual case: no such ``if`` around the step
        named = frozenset(step.optimizers)
        kept = frozenset(
            atom
            for atom, either_way in zip(
                self.guards[base:], self._stepped_either_way[base:], strict=True
            )
            if not (named and named <= either_way)
        )
        return kept or NO_GUARDS

    def _steps_either_way(self, statement: If) -> frozenset[str]:
        """The optimizers (as written) ``statement`` steps in both branches, whatever
        else happens there (``_always_stepped``)."""
        known = self._either_way.get(id(statement))
        if known is None:
            body = _always_stepped(statement.body)
            known = body & _always_stepped(statement.orelse) if body else frozenset()
            self._either_way[id(statement)] = known
        return known

    def _observe_step(
        self,
        event: Event,
        key: str,
        value: Status,
        guards: Guards,
        assumptions: frozenset,
        leak_guards: Guards,
    ) -> None:
        observations = self.observations
        observations.step_statuses.setdefault((event, key), set()).add(value.kind)
        kind = type(value)
        loops = tuple(loop for loop, _, _ in self.loops)
        if kind is StaleFresh and proven(
            value, leak_guards, loops, assumptions, _own(event), self._loop_locals()
        ):
            observations.leaks.setdefault((value.backward, key), set()).add(value.step)
            if self.via:
                # another module's code, run under the call ``site`` of this file, is
                # reported there; this file's own code (an override an inherited loop
                # runs) where it is
                site = self.via[-1]
                if value.backward.function is event.function is value.step.function and (
                    _foreign(event)
                ):
                    observations.leak_sites.setdefault((value.backward, key), site)
                if event is value.step and _foreign(event):
                    observations.applied_sites.setdefault((value.backward, key, event), site)
        elif kind is Discarded:
            observations.discards.setdefault((event, key), set()).update(value.clears)
        elif (kind is Fresh or kind is Carried) and self.loops and len(value.backwards) > 1:
            for backward in self._before_loop(value.backwards):
                observations.early_backwards.setdefault((backward, key), set()).add(event)
        elif kind is ForeignFresh:
            for backward in value.backwards:
                pairs = observations.cross_leaks.setdefault((backward, key), set())
                pairs.add((event, value.consumer))
        elif kind is Refilled and value.backward in value.carried:
            # the same backward whose accumulated gradients the clear threw away feeds
            # this step: the clear runs on every micro-batch of the window
            clear, loop = value.clear, value.loop
            if self.runs_every_iteration(loop.body, clear):
                observations.broken_windows.setdefault(clear, (key, loop))
            elif self._gated_like_step(clear, event, loop, guards, assumptions):
                observations.broken_windows.setdefault(clear, (key, loop))
                observations.gated_clears.add(clear)

    def _gated_like_step(
        self, clear: Event, step: Event, loop: Loop, guards: Guards, assumptions: frozenset
    ) -> bool:
        """Whether ``clear`` runs only under accumulation conditions this step also runs
        under, taken the same way on this path (``if i % k == 0: zero_grad()`` before the
        backward and ``if i % k == 0: step()`` after it): it runs on the stepping
        micro-batch itself, before its backward, so it throws away the window's ``k - 1``
        accumulated micro-batches and every step applies one (ZG103). A clear at the
        window's start (``i % k == 0``) with the step at its end (``(i + 1) % k == 0``)
        runs under another condition and stays unjudged here, and so does one whose
        condition's names change between the two (``step += 1``: the same text, another
        condition), or whose clear or step is not in the loop's own body."""
        clear_guards = self._clear_guards.get(clear)
        if not clear_guards or not clear_guards <= guards:
            return False
        taken = {atom for _, atom, _ in assumptions}
        if not all(
            atom is not None and atom.accumulation and atom in taken for atom in clear_guards
        ):
            return False
        names = frozenset().union(*(atom.names for atom in clear_guards if atom is not None))
        between: list[Event] | None = None
        for event in events_of(loop.body):
            if event is clear:
                between = []
            elif event is step:
                return between is not None and not any(
                    kill.kind == EventKind.KILL and kill.names & names for kill in between
                )
            elif between is not None:
                between.append(event)
        return False

    def _observe_read(self, event: Event, states: set[State], frame: _Frame) -> None:
        """A read of ``.grad`` that sees a step's applied gradients plus a later
        backward's: the sum, not what that backward computed (a pruning score, a Fisher
        estimate read after training). A read in a loop that also steps is left to
        the steps: its paths may combine branches that never run together."""
        if self.loops and self.has_step(self.loops[-1][0].body):
            return
        modules = tuple(frame.map(module) for module in event.modules)
        loops = tuple(loop for loop, _, _ in self.loops)
        guards = self.step_guards()
        # an input's gradient is held only by an optimizer known to step that input
        of_input = event.callee_name == INPUT_GRAD
        for state in states:
            for key, value in state.entries:
                if (
                    type(value) is StaleFresh
                    and (not modules or self._reads_gradients_of(key, modules))
                    and not (of_input and self.tie(key) is None)
                    and proven(value, guards, loops)
                ):
                    reads = self.observations.stale_reads.setdefault((value.backward, key), set())
                    reads.add((event, value.step))

    def _reads_gradients_of(self, key: str, modules: tuple[str, ...]) -> bool:
        """Whether a read of ``modules``' gradients is known to read optimizer ``key``'s:
        its modules are known and among them (``_module_clears``). One of unknown modules
        may step others (MADDPG's ``average_gradients(agent.policy)`` is no read of the
        critic optimizer's gradients)."""
        return self.tie(key) is not None and self._module_clears(key, modules) != NONE

    def _before_loop(self, backwards: frozenset[Event]) -> list[Event]:
        """The backwards among ``backwards`` that ran before the loop now iterated, in
        its function, when another one ran inside it: the loop's first step applies
        both (a sanity-check backward before training, with no clear before the loop)."""
        function = self.loops[-1][1].function
        if sum(1 for _, other, _ in self.loops if other.function is function) != 1:
            return []  # an enclosing loop of the same function: "before" is not known
        inside = self._in_loops(function)
        before = self._called_before_loops(function)
        early = [
            b for b in backwards if (b.function is function and b not in inside) or b in before
        ]
        if not early or len(early) == len(backwards):
            return []
        return early

    def _called_before_loops(self, function: FunctionModel) -> frozenset[Event]:
        """The events of this file's functions that ``function`` calls outside its loops
        and never inside them (followed ``MAX_CALL_DEPTH`` calls deep): a helper that runs
        a backward only to read the gradients, called before training (shrinkbench's
        ``get_param_gradients``), is code that runs before the loop."""
        found = self._before_events.get(id(function))
        if found is None:
            inside = self._in_loops(function)
            outside = [event for event in events_of(function.body) if event not in inside]
            found = self._before_events[id(function)] = frozenset(
                self._callee_events(outside) - self._callee_events(inside)
            )
        return found

    def _callee_events(self, events: Iterable[Event]) -> set[Event]:
        """The events of the in-file functions the calls among ``events`` run."""
        found: set[Event] = set()
        seen: set[int] = set()
        pending = [(event, 0) for event in events]
        while pending:
            event, depth = pending.pop()
            callee = event.callee if event.kind == EventKind.CALL else None
            if callee is None or callee.origin is not None or depth >= MAX_CALL_DEPTH:
                continue
            if id(callee) in seen:
                continue
            seen.add(id(callee))
            for inner in events_of(callee.body):
                found.add(inner)
                pending.append((inner, depth + 1))
        return found

    def _in_loops(self, function: FunctionModel) -> frozenset[Event]:
        """The events of ``function`` that sit inside one of its loops."""
        found = self._loop_events.get(id(function))
        if found is None:
            events: set[Event] = set()
            pending = list(function.body)
            while pending:
                statement = pending.pop()
                if type(statement) is Loop:
                    events.update(events_of([statement]))
                else:
                    for part in child_blocks(statement):
                        pending.extend(part)
            found = self._loop_events[id(function)] = frozenset(events)
        return found

    def _clear(
        self,
        state: State,
        event: Event,
        keys: tuple[str, ...],
        modules: tuple[str, ...],
        frame: _Frame,
        implied: tuple[tuple[str, ...], tuple[str, ...]] = ((), ()),
        spared: frozenset[str] = frozenset(),
    ) -> State:
        """``implied``: the optimizers of the run of clears the event belongs to, and the
        modules they are known to step (``_implied_clear``); ``spared``: optimizers a
        clear of ``ALL`` leaves alone (``_stepped_by_name``)."""
        entries = dict(state.entries)
        default = state.default
        everything = ALL in keys
        if event not in self._clear_guards:  # step_guards() builds a set: once per clear
            self._clear_guards[event] = self.step_guards()

        def cleared(value: Status) -> Status:
            kind = type(value)
            if kind is Carried:  # gradients accumulated over earlier iterations
                return Discarded(event, value.backwards, value.loop, frozenset({event}))
            if kind in (Fresh, StaleFresh, Refilled, ForeignFresh):  # fresh, no step saw them
                return Discarded(event, None, None, frozenset({event}))
            if kind is Discarded:  # every clear since the discard (a fix must move them all)
                if event in value.clears:
                    return value
                return Discarded(value.clear, value.carried, value.loop, value.clears | {event})
            return CLEARED

        run, stepped = implied
        for key, value in entries.items():
            if not (
                (everything and not any(_same_object(key, name) for name in spared)) or key in keys
            ):
                cover = self._module_clears(key, modules)
                if (
                    cover != FULL
                    and stepped
                    and key not in run  # cleared by its own clear of the run
                    and self._implied_clear(key, stepped, modules)
                ) or (cover != FULL and key == MANUAL and self._may_cover_manual(run)):
                    cover = FULL
                if cover == PARTIAL:  # the other modules' gradients stay as they are
                    self._note_partial(event, key, modules)
                if cover == SUBMODULE or _nested(key, keys):
                    # the rest of the module's gradients, or what clearing an optimizer an
                    # attribute of this one (or holding it: a wrapper's inner optimizer,
                    # ``opt.opt``) clears of its parameters: unknown
                    entries[key] = UNKNOWN
                elif (
                    cover != FULL
                    and type(value) is Foreign
                    and self._clears_the_leak(key, value, (*modules, *stepped))
                ):
                    # the modules another loss is known to have written are cleared (an
                    # encoder two optimizers share): what is left is not known to be its
                    entries[key] = UNKNOWN
                if cover != FULL:
                    continue
            if type(value) is Fresh:
                self._note_skipped_window(state, event, key)
            entries[key] = cleared(value)
        for key in keys:
            if key not in entries and key != ALL:
                entries[key] = cleared(default)
        if everything or modules:
            default = cleared(default)
        return with_entries(state, entries, default)

    def _clears_the_leak(self, key: str, value: Foreign, cleared: tuple[str, ...]) -> bool:
        """Whether clearing the modules ``cleared`` clears every module of optimizer
        ``key`` that the backwards of its foreign gradients are known to have reached."""
        tie = self.tie(key)
        if tie is None or not cleared:
            return False
        written = set()
        for backward in value.backwards:
            reach = self.reach.get(backward)
            if reach is None:
                return False
            written.update(t for t in tie if any(related(m, t) for m in reach.modules))
        return bool(written) and all(
            any(contains(module, t) for module in cleared) for t in written
        )

    def _note_skipped_window(self, state: State, clear: Event, key: str) -> None:
        """A clear that runs on every iteration of its loop, reached with fresh gradients
        on a path where the loop's accumulation-gated step (``if (i + 1) % k == 0:
        optimizer.step()``) was skipped, throws away the micro-batches of the window (a
        clear dedented out of the step's ``if``): ZG103. Fresh gradients skipped by other
        conditions (``if torch.isfinite(loss):``) may be discarded on purpose."""
        if not self.loops:
            return
        loop, frame, _ = self.loops[-1]
        if not self.runs_every_iteration(loop.body, clear):
            return
        for statement in loop.body:
            if (
                isinstance(statement, If)
                and statement.atom is not None
                and statement.atom.accumulation
                and (frame.tag, statement.atom, statement.negated) in state.assumptions
                and self._may_step(statement.body, key, frame)
            ):
                self.observations.broken_windows.setdefault(clear, (key, loop))
                return

    def _module_clears(self, key: str, modules: tuple[str, ...]) -> str:
        """Whether clearing ``modules`` clears optimizer ``key``'s parameters: ``FULL``,
        ``PARTIAL`` (it steps other modules too, known by name), ``SUBMODULE`` (a part of
        the one module it steps: which of its gradients are left is not tracked) or
        ``NONE``."""
        if not modules:
            return NONE
        tie = self.tie(key)
        if key in modules:
            return FULL
        if tie is None:  # which modules it steps is not known: a submodule may be a part
            return SUBMODULE if all(map(submodule, modules)) else FULL
        groups = self.groups.get(key, self.model.tie_groups.get(key))
        if groups is None or len(groups) < 2:
            if any(contains(m, t) for m in modules for t in tie):
                return FULL
            return SUBMODULE if any(related(m, t) for m in modules for t in tie) else NONE
        covered = [any(related(m, t) for m in modules for t in group) for group in groups]
        if all(covered):
            return FULL
        return PARTIAL if any(covered) else NONE

    def _optimizer_modules(self, keys: tuple[str, ...]) -> tuple[str, ...]:
        """The modules cleared optimizers ``keys`` are known to step: their clear clears
        those modules' parameters for every optimizer (``_implied_clear``)."""
        found: list[str] = []
        for key in keys:
            tie = self.tie(key) if key != ALL else None
            if tie is not None:
                found.extend(sorted(tie))
        return tuple(found)

    def _implied_clear(self, key: str, cleared: tuple[str, ...], modules: tuple[str, ...]) -> bool:
        """Whether clearing the parameters of modules ``cleared`` (other optimizers'
        clears) and the modules ``modules`` clears all of optimizer ``key``'s: its
        parameters are known, and each of its modules is one of ``cleared`` or inside one,
        or cleared as a module (``opt_g.zero_grad(); opt_d.zero_grad()`` clear an
        InfoGAN-style optimizer over ``chain(G.parameters(), D.parameters())``). Stricter
        than ``_module_clears``: an optimizer of unknown parameters, or over a module that
        holds a cleared one, is not cleared this way. The hand-written updates
        (``<manual>``) step the modules whose ``parameters()`` they walk, when all are
        known (an optimizer used only for its ``zero_grad()``); a module an update walks as
        an attribute of another object (an AWP helper's ``self.model``) may be the one an
        optimizer of the run steps under another name (``model``, handed to the helper):
        ``related`` names count for those."""
        if key == MANUAL:
            owners = self._manual_modules()
            if owners is None:
                return False
            groups: tuple[frozenset[str], ...] = tuple(frozenset({o}) for o in owners)
        else:
            tie = self.tie(key)
            if tie is None:
                return False
            groups = self.groups.get(key, self.model.tie_groups.get(key)) or (tie,)
        return all(
            any(
                name == module
                or name.startswith(module + ".")
                or (key == MANUAL and related(module, name))
                for name in group
                for module in cleared
            )
            or any(related(module, name) for module in modules for name in group)
            for group in groups
        )

    def _may_cover_manual(self, run: tuple[str, ...]) -> bool:
        """Whether the clears of ``run`` may clear the hand-written updates' parameters:
        those updates walk known modules' ``parameters()`` and one of the cleared
        optimizers steps parameters the file does not know (PFLlib's client, whose base
        class of another module builds ``self.optimizer``): not known to miss them."""
        return self._manual_modules() is not None and any(
            key != ALL and self.tie(key) is None for key in run
        )

    def _manual_modules(self) -> list[str] | None:
        """The modules the hand-written updates walk (the file's, and those of other
        modules' code the analysis ran, ``_note_foreign_manual``), sorted; None when
        there is none or one walks parameters of unknown origin."""
        owners = self.model.manual_owners | self._foreign_manual
        if not owners or None in owners:
            return None
        return sorted(owner for owner in owners if owner is not None)

    def _note_foreign_manual(self, event: Event, frame: _Frame) -> None:
        """A hand-written update in another module's code (project mode: an AWP helper's
        ``param.data.add_(...)`` over ``self.model``): the modules its module's updates
        walk, in this frame's names (``self.model`` of the helper the caller built with
        its ``model``), join ``_manual_modules``."""
        origin = event.function.origin if event.function is not None else None
        model = getattr(origin, "model", None)
        if model is not None:
            self._foreign_manual.update(
                frame.map(owner) if owner is not None else None for owner in model.manual_owners
            )

    def _note_partial(self, clear: Event, key: str, modules: tuple[str, ...]) -> None:
        groups = self.groups.get(key, self.model.tie_groups.get(key)) or ()
        uncovered = frozenset(
            min(group) for group in groups if not any(related(m, t) for m in modules for t in group)
        )
        self.observations.partial_clears.setdefault(key, {})[clear] = uncovered

    def _rebound(self, states: set[State], names: set[str]) -> set[State]:
        """``states`` after ``names`` were bound to new objects of a class: the optimizers
        and hand-written updates of the old objects' parameters (a key on the name, or an
        optimizer known to step it) say nothing of the new ones, so they become unknown.
        Each key is judged once for all the paths (they share most keys)."""
        judged: dict[str, bool] = {}

        def old(key: str) -> bool:
            found = judged.get(key)
            if found is None:
                tie = self.tie(key) if key not in (ALL, MANUAL) else None
                found = judged[key] = _root(key) in names or (
                    tie is not None and any(related(name, t) for name in names for t in tie)
                )
            return found

        return {_forget(state, old) for state in states}

    def _havoc(self, state: State, keys: tuple[str, ...]) -> State:
        if ALL in keys:
            return map_statuses(state, _unknown)
        entries = dict(state.entries)
        for key in keys:
            entries[key] = UNKNOWN
        return with_entries(state, entries)

    def _changed_for(
        self, state: State, modules: tuple[str, ...], change: Callable[[Status], Status]
    ) -> State:
        """``state`` with ``change`` applied to what every optimizer that may step
        ``modules`` holds (and those not named in this state), the others' untouched:
        ``modules``' gradients written by hand (unknown) or scaled after their step
        (carried on purpose)."""
        entries = tuple(
            (key, change(value) if self._steps_some_of(key, modules) else value)
            for key, value in state.entries
        )
        return State(change(state.default), entries, state.assumptions)

    def _steps_some_of(self, key: str, modules: tuple[str, ...]) -> bool:
        """Whether optimizer ``key`` may step parameters of ``modules``: its own are not
        known, or some are among them."""
        return self.tie(key) is None or self._module_clears(key, modules) != NONE

    def _kill(
        self,
        state: State,
        event: Event,
        frame: _Frame,
        forgotten: dict[frozenset[Any], frozenset[Any]],
    ) -> State:
        assumptions = state.assumptions
        if not assumptions:
            return state  # no assumption to forget
        kept = forgotten.get(assumptions)
        if kept is None:
            kept = forgotten[assumptions] = _without_killed(assumptions, event, frame.tag)
        return state if kept is assumptions else State(state.default, state.entries, kept)

    def _set_flags(self, function: FunctionModel) -> frozenset[Atom]:
        """The conditions of ``function`` that test a plain name it binds to ``True`` or
        ``False`` (``complete = True`` next to a step, then ``if complete: break``), or
        whether one it binds to ``None`` or to a new object is None (``if wrapper is not
        None:``): the binding decides the branch."""
        found = self._flags.get(id(function))
        if found is None:
            names: set[str] = set()
            for event in events_of(function.body):
                if event.kind == EventKind.KILL:
                    if event.constant is not None:
                        names.update(event.names)
                    if event.is_none is not None:
                        for name in event.names:
                            names.update(_none_tests(name))
            found = frozenset(
                atom
                for atom in _condition_atoms(function.body)
                if names and type(atom.key) is str and atom.key in names
            )
            self._flags[id(function)] = found
        return found

    def _set_flag(self, event: Event, frame: _Frame) -> tuple[tuple[Atom, bool], ...]:
        """The conditions the binding ``event`` decides, each with its value."""
        (name,) = event.names
        is_none, is_not_none = _none_tests(name)
        found: list[tuple[Atom, bool]] = []
        for atom in self._set_flags(frame.function):
            if event.constant is not None and atom.key == name:
                found.append((atom, event.constant))
            elif event.is_none is not None and atom.key == is_none:
                found.append((atom, event.is_none))
            elif event.is_none is not None and atom.key == is_not_none:
                found.append((atom, not event.is_none))
        return tuple(found)

    def _assume(
        self, state: State, event: Event, frame: _Frame, flags: tuple[tuple[Atom, bool], ...]
    ) -> State:
        """``state`` after ``name = True`` / ``False`` / ``None`` / ``Cls(...)``: what it
        assumed of ``name`` is forgotten, and the conditions ``flags`` now have their
        values."""
        kept = _without_killed(state.assumptions, event, frame.tag)
        decided = {(frame.tag, atom, value) for atom, value in flags}
        return State(state.default, state.entries, kept | decided)

    # -- calls --------------------------------------------------------------------------

    def call(
        self,
        callee: FunctionModel,
        event: Event,
        states: set[State],
        frame: _Frame,
        *,
        closure: bool = False,
        instance_class: str | None = None,
    ) -> set[State]:
        """``instance_class``: the class of this file the receiver is an instance of, for
        ``self.m()`` inside the callee (``_instance_class``)."""
        if callee in self.stack or len(self.stack) > MAX_CALL_DEPTH:
            return {self._havoc(state, (ALL,)) for state in states}
        if closure:
            env = frame.env
            if event.closure_args or event.closure_kwargs:  # ``functools.partial(f, ...)``
                env = dict(frame.env)
                _bind_arguments(env, callee.params, event.closure_args, event.closure_kwargs, frame)
            inner = _Frame(callee, env, frame.self_prefix, frame.tag, frame.self_class)
        else:
            inner = self._bind(callee, event, frame)
            if instance_class is not None:
                inner.self_class = instance_class
        shares_names = closure or _encloses(frame.function, callee)
        if shares_names:  # a closure's conditions on free names correlate with its definer's
            inner.tag = frame.tag
        saved: list[_SavedTie] = []
        keys = self._mapped_keys(callee, inner, saved)
        tail = (
            self._dead_after
            and not self.loops
            and not closure
            and id(event) in self._tail_calls(frame.function)
        )
        if tail:
            states = self._forget_unnamed(states, callee, inner, keys)
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
            tail,
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
        # the callee's frame: dead after its end when this call is in tail position
        dead_after, self._dead_after = self._dead_after, tail
        # a closure's names are its definer's: they live on after it returns
        gone = self._gone_at_return(callee, inner, keys) if pending and not shares_names else None
        try:
            for state in pending:
                self.stack.append(callee)
                outcome = self.block(callee.body, {materialize(state, keys)}, inner)
                self.stack.pop()
                # what a framework catches around the judged hook leaves the callee like a
                # return; any other raise ends the caller's path too
                ended = outcome.normal | outcome.returns | set().union(*outcome.raised.values())
                if not shares_names:
                    ended = {
                        State(
                            s.default,
                            _outer_statuses(s.entries, gone, state) if gone else s.entries,
                            frozenset(a for a in s.assumptions if a[0] != inner.tag),
                        )
                        for s in ended
                    }
                self._calls[(binding, state)] = ended
                result |= ended
        finally:
            self._dead_after = dead_after
        self._restore_ties(saved)
        if enters and pending:
            self.via.pop()
        return result

    def _gone_at_return(
        self, callee: FunctionModel, inner: _Frame, keys: set[str]
    ) -> frozenset[str]:
        """The optimizer keys of ``callee``'s own locals that no function still running
        (a caller up the calls) names: once the call returns they denote nothing of the
        callee's, so each takes back the status it had before the call, or unknown
        (``_outer_statuses``).

        A key is a name, and a local of one function and a global (or another function's
        local) of the same name share it: without this, what a helper's own optimizer was
        left holding would become the state of a module-level optimizer of that name read
        by a later call (a false ZG101), and the paths that differ only in those statuses
        would multiply the work of every later call (``call``'s results are reused per
        state). A name a running function uses may denote the same object after the call
        (a global it steps, a name a closure of it uses): those are kept."""
        if not keys:
            return frozenset()
        memo = (
            id(callee),
            tuple(map(id, self.stack)),
            frozenset(keys),
            frozenset(inner.env.values()),
        )
        gone = self._gone.get(memo)
        if gone is None:
            local = self._locals_of(callee)
            bound = set(inner.env.values())
            lasting = self._lightning_optimizer_names()
            own = [
                key
                for key in keys
                if key in local
                and key not in bound
                and not (key in lasting and key in callee.lightning_optimizers)
            ]
            running: set[str] = set()
            if own:
                for function in self.stack:
                    running |= self._names_in(function)
            gone = self._gone[memo] = frozenset(
                key for key in own if not any(_same_object(key, name) for name in running)
            )
        return gone

    def _lightning_optimizer_names(self) -> frozenset[str]:
        """The names bound to Lightning's ``self.optimizers()`` that outlive the call of
        the method binding them: the getter returns the module's optimizers, the same
        objects at every call, so what a helper's ``opt_g`` was left holding is what the
        next call's ``opt_g`` holds. Only where every method of the module names each of
        them alike (one name per optimizer, one optimizer per name): otherwise which name
        is which object is not followed, and the names stay the call's own."""
        if self._lasting is None:
            names_by_slot: dict[int | None, set[str]] = {}
            slots_by_name: dict[str, set[int | None]] = {}
            for function in self.model.functions:
                for name, slot in function.lightning_optimizers.items():
                    names_by_slot.setdefault(slot, set()).add(name)
                    slots_by_name.setdefault(name, set()).add(slot)
            self._lasting = frozenset(
                name
                for name, slots in slots_by_name.items()
                if len(slots) == 1 and all(len(names_by_slot[slot]) == 1 for slot in slots)
            )
        return self._lasting

    def _names_in(self, function: FunctionModel) -> frozenset[str]:
        """The names ``function`` binds, and those its events and those of the functions
        nested in it use for optimizers, modules, receivers and arguments."""
        found = self._names.get(id(function))
        if found is None:
            names: set[str] = set(_locals(function))
            pending = [function]
            while pending:
                current = pending.pop()
                names.update(current.param_defaults.values())
                for event in events_of(current.body):
                    names.update(_names_of(event))
                pending.extend(current.nested.values())
            found = self._names[id(function)] = frozenset(names)
        return found

    def _tail_calls(self, function: FunctionModel) -> frozenset[int]:
        found = self._tails.get(id(function))
        if found is None:
            tails: set[int] = set()
            _collect_tails(function.body, False, tails)
            found = self._tails[id(function)] = frozenset(tails)
        return found

    def _forget_unnamed(
        self, states: set[State], callee: FunctionModel, inner: _Frame, keys: set[str]
    ) -> set[State]:
        """``states`` with the optimizers ``callee`` cannot see made unknown, for a call
        in tail position of the judged function (nothing after it observes a status).

        Inside the callee (``inner``: its frame, ``keys``: the optimizer keys its own
        events name there) an optimizer it never names (nor is handed as an argument,
        nor hands on, nor reaches through a receiver) is only carried along: its status
        changes with each backward and step but is never read, unless the callee reads
        ``.grad`` or steps optimizers it does not name (then nothing is forgotten).
        After the call nothing reads it either, so its status is dead. Forgetting it lets
        the paths that differ only there merge: a notebook's or script's earlier
        training loops (three optimizers, each status varying with its flags) no longer
        multiply the paths of every later call (a 447-line file took 2.2 s, now 0.5 s).
        Observations are the same; fewer paths can only mean less widening (``_widen``)
        inside the callee."""
        used = self._named_by(callee)
        if used is None:
            return states
        # what the call binds: the caller's keys its parameters and ``self`` stand for
        named = {*used, *keys, *inner.env.values()}
        if inner.self_prefix is not None:
            named.add(inner.self_prefix)
        forgotten: dict[str, bool] = {}
        result = set()
        for state in states:
            entries = []
            changed = False
            for key, value in state.entries:
                dead = forgotten.get(key)
                if dead is None:
                    dead = forgotten[key] = not any(_same_object(key, name) for name in named)
                if dead and value is not UNKNOWN:
                    value = UNKNOWN
                    changed = True
                entries.append((key, value))
            result.add(
                State(state.default, tuple(entries), state.assumptions) if changed else state
            )
        return result

    def _named_by(self, callee: FunctionModel) -> frozenset[str] | None:
        """Every name the events of ``callee`` and of what it may call use for an
        optimizer, a module, a receiver or an argument (with parameter defaults); None
        when one of them may observe optimizers it does not name (``_observes_unnamed``)."""
        if id(callee) not in self._named:
            self._named[id(callee)] = self._names_used(callee)
        return self._named[id(callee)]

    def _names_used(self, callee: FunctionModel) -> frozenset[str] | None:
        names: set[str] = set()
        seen = {id(callee)}
        pending = [callee]
        while pending:
            function = pending.pop()
            names.update(function.param_defaults.values())
            for event in events_of(function.body):
                if _observes_unnamed(event):
                    return None
                names.update(_names_of(event))
            for other in self._may_call(function):
                if id(other) not in seen:
                    seen.add(id(other))
                    pending.append(other)
        return frozenset(names)

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
                self_class = event.instance_class or callee.class_name
        elif callee.class_name is not None:
            prefix, self_class = None, callee.class_name
        env: dict[str, str] = {}
        for param in params:
            env[param] = callee.param_defaults.get(param) or f"{callee.qualname}:{param}"
        _bind_arguments(env, params, event.args, event.kwargs, frame)
        factory = event.factory
        if factory is not None:  # the made function's free names: the factory's parameters
            free = {param: f"{factory.qualname}:{param}" for param in factory.params}
            _bind_arguments(free, factory.params, event.factory_args, event.factory_kwargs, frame)
            for name, key in free.items():
                env.setdefault(name, key)
        if via_receiver and event.receiver == "self":
            # the same ``self``: what its attributes are (``flow.hooks`` aliases) carries
            env.update((name, key) for name, key in frame.env.items() if name[:5] == "self.")
        for attribute, passed in event.stored:
            # the attributes its constructor stored the objects the caller passed in
            env.setdefault(f"self.{attribute}", frame.map(passed))
        inner = self._frame(callee, env, prefix)
        inner.self_class = self_class
        inner.outer = _outer_names(params, event.args, event.kwargs, frame)
        if via_receiver and event.receiver == "self":
            # the same object: a test of its attributes is the caller's test (a mode set
            # once, ``self.method == "gradnorm"``, keeps its value from epoch to epoch)
            inner.outer["self"] = frame.outer.get("self", frame.tag)
        elif via_receiver and event.receiver is not None and event.receiver.isidentifier():
            # ``trainer.clm_step(x)``: ``self`` is the caller's ``trainer`` (CodeGen's
            # ``params.fp16`` read through it on every call)
            receiver = event.receiver
            if receiver not in frame.env:
                inner.outer["self"] = frame.tag
            elif receiver in frame.outer:
                inner.outer["self"] = frame.outer[receiver]
        return inner

    def _mapped_keys(
        self, function: FunctionModel, frame: _Frame, saved: list[_SavedTie]
    ) -> set[str]:
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
            if tie is None:
                continue
            # an optimizer built from a parameter (``SGD(net.parameters())`` in a function
            # handed ``net``) steps what the caller passed: its tie follows this frame, and
            # the caller's is put back when the call returns (see ``call``)
            bound = frozenset(frame.map(module) for module in tie)
            if self.ties.get(target) == bound:
                continue
            saved.append((target, self.ties.get(target), self.groups.get(target)))
            self.ties[target] = bound
            groups = self.model.tie_groups.get(key)
            if groups is not None:
                self.groups[target] = tuple(
                    frozenset(frame.map(module) for module in group) for group in groups
                )
        return mapped

    def _restore_ties(self, saved: list[_SavedTie]) -> None:
        """Put back the ties a callee's frame replaced (``_mapped_keys``), last first."""
        for target, tie, groups in reversed(saved):
            if tie is None:
                self.ties.pop(target, None)
            else:
                self.ties[target] = tie
            if groups is None:
                self.groups.pop(target, None)
            else:
                self.groups[target] = groups

    def runs_every_iteration(
        self, statements: list[Statement], wanted: Event, depth: int = 0
    ) -> bool:
        """Whether ``wanted`` runs unconditionally in ``statements`` (not under an ``if``,
        an exception handler or an inner loop; calls followed). Under accelerate's sync
        condition counts as unconditional: it runs on every window's last micro-batch."""
        for statement in statements:
            if statement is wanted:
                return True
            if type(statement) is If and _window_guard(statement):
                return False  # what follows runs only when a window ends
            if type(statement) is If and statement.atom is SYNC:
                if self.runs_every_iteration(statement.body, wanted, depth):
                    return True
                continue
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

    def reaches(self, function: FunctionModel, kinds: tuple[EventKind, ...]) -> bool:
        """Whether calling ``function`` may run an event of ``kinds``: callees followed
        to any depth, a call dispatched on ``self`` at run time counts as may, and
        ``self.name(...)`` may run any method of that name in the file.

        The answer is a property of the call graph alone: no provisional answer of a
        recursion and no depth cut-off is remembered, so it never depends on which
        function asked first (the fast path leaves out functions nothing calls, which
        changes the order of the questions, never their answers)."""
        key = (id(function), kinds)
        known = self._reaches.get(key)
        if known is not None:
            return known
        seen = {id(function)}
        pending = [function]
        searched: list[FunctionModel] = []
        while pending:
            current = pending.pop()
            answer = self._reaches.get((id(current), kinds))
            if answer is False:
                continue  # all it may run was searched before: nothing of ``kinds``
            if answer or self._runs_itself(current, kinds):
                self._reaches[key] = True
                return True
            searched.append(current)
            for callee in self._may_call(current):
                if id(callee) not in seen:
                    seen.add(id(callee))
                    pending.append(callee)
        # what each searched function may run was searched too: none of them reaches one
        for current in searched:
            self._reaches[(id(current), kinds)] = False
        return False

    @staticmethod
    def _runs_itself(function: FunctionModel, kinds: tuple[EventKind, ...]) -> bool:
        """An event of ``kinds`` in ``function``'s own body, or a call on ``self`` that
        resolves to nothing here (dispatched at run time: it may)."""
        return any(
            event.kind in kinds
            or (event.kind == EventKind.CALL and event.callee is None and event.receiver == "self")
            for event in events_of(function.body)
        )

    def _may_call(self, function: FunctionModel) -> Iterator[FunctionModel]:
        """The functions a call of ``function`` may run directly: its callees, every
        method of the file named like a ``self.name(...)`` call, its closures."""
        for event in events_of(function.body):
            if event.kind == EventKind.CALL:
                if event.callee is not None:
                    yield event.callee
                    if event.instance_class is not None:
                        yield from self._overrides_run(event.callee, event.instance_class)
                if event.receiver == "self" and event.method:
                    for info in self.model.classes.values():
                        if event.method in info.methods:
                            yield info.methods[event.method]
            elif event.closure_model is not None:
                yield event.closure_model

    def _overrides_run(
        self, method: FunctionModel, class_name: str | None
    ) -> Iterator[FunctionModel]:
        """The methods of ``class_name`` (in project mode, a class of another linted
        module) that ``method``, called on an instance of it, runs through its
        ``self.m()`` calls, which dispatch on that class: an inherited ``train_step``
        whose ``self.update`` the subclass overrides (rlkit's ``TorchTrainer.train`` over
        ``SACTrainer.train_from_torch``). The file's own classes are followed already."""
        if class_name is None or class_name in self.model.classes:
            return
        seen = {id(method)}
        pending = [method]
        while pending:  # through the class's methods the calls on ``self`` run
            for event in events_of(pending.pop().body):
                if event.kind != EventKind.CALL or event.receiver != "self" or not event.method:
                    continue
                ran = self.dispatch(class_name, event.method)
                if ran is not None and id(ran) not in seen:
                    seen.add(id(ran))
                    pending.append(ran)
                    if ran is not event.callee:
                        yield ran

    def has_step(self, statements: list[Statement]) -> bool:
        return self.contains(statements, EventKind.STEP)

    def _may_step(self, statements: list[Statement], key: str, frame: _Frame) -> bool:
        """Whether ``statements`` (in ``frame``) may step optimizer ``key``: a step of it
        (or of optimizers not named, an engine's, a configured step call), or a call
        that steps anything. A lazily regularised GAN's ``if i % 16 == 0:`` that steps
        only the discriminator gates no window of the generator's optimizer."""
        for event in events_of(statements):
            if event.kind == EventKind.STEP:
                if (
                    _steps_unnamed(event)
                    or ALL in event.optimizers
                    or key in {frame.map(name) for name in event.optimizers}
                ):
                    return True
            elif (
                event.kind == EventKind.CALL
                and event.callee is not None
                and self.contains(event.callee.body, EventKind.STEP, 1)
            ):
                return True
        return False

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


def _without_windows(state: State) -> State:
    """``state`` less its assumptions on accumulation conditions."""
    kept = frozenset(a for a in state.assumptions if not a[1].accumulation)
    if len(kept) == len(state.assumptions):
        return state
    return State(state.default, state.entries, kept)


def _condition_atoms(statements: list[Statement]) -> Iterator[Atom]:
    """The atoms of the ``if`` statements in ``statements``, nested ones included."""
    pending = list(statements)
    while pending:
        statement = pending.pop()
        if type(statement) is If and statement.atom is not None:
            yield statement.atom
        for block in child_blocks(statement):
            pending.extend(block)


def _without_killed(assumptions: frozenset[Any], event: Event, tag: object) -> frozenset[Any]:
    """``assumptions`` less those on the names ``event`` assigns (a counter's increment
    moves a window's end assumption to its start); the same set when none is."""
    kept = set()
    for assumption in assumptions:
        assumed_tag, atom, value = assumption
        if assumed_tag == tag and atom.names & event.names:
            if event.increment and atom.key[0] == "end" and atom.counter in event.names:
                kept.add((assumed_tag, _window_start(atom), value))
            continue
        kept.add(assumption)
    return assumptions if kept == assumptions else frozenset(kept)


def _coarse(value: Status) -> Status:
    kind = type(value)
    if kind is Fresh or kind is Refilled:
        return Fresh(frozenset())
    if kind is Carried:
        return Carried(value.loop, frozenset())
    if kind is Discarded:
        return Discarded(value.clear, None, None, frozenset({value.clear}))
    return value


def _widen(states: set[State], flags: set[Atom]) -> set[State]:
    """Too many paths: forget which backward calls fed fresh gradients (that only costs
    ZG103 findings, never adds one) and the assumptions on data-dependent conditions, so
    paths merge. Forgetting an assumption joins a path through one branch of its
    condition to a later path through the other, which the program may never take, so
    the assumptions that decide where gradients are stepped and cleared stay (they are
    few, two values each):

    * on ``flags``: conditions whose ``if`` gates gradient events, flags (``if
      args.fp16:``; a false ZG101 from a simpletransformers trainer whose fp16 branch
      steps without a clear) and accumulation windows (accelerate's sync flag, ``(i + 1)
      % k == 0``: a path that stepped on a window's last micro-batch must not skip the
      clear of that micro-batch; a false ZG101 on diffusers' dreambooth scripts, whose
      step and clear are each under the sync flag). A window test around logging only
      (``if step % args.log_every == 0:``) is forgotten like any data condition: kept,
      a dozen of them would never let paths merge;
    * on the last iteration of a loop (that path leaves the loop)."""
    return {
        State(
            _coarse(default),
            tuple((key, _coarse(value)) for key, value in entries),
            frozenset(
                assumption for assumption in assumptions if _kept_by_widening(assumption[1], flags)
            ),
        )
        for default, entries, assumptions in states
    }


def _kept_by_widening(atom: Atom, flags: set[Atom]) -> bool:
    return atom is LAST_ITERATION or atom in flags


def _preceding_clears(
    statements: list[Statement], table: dict[int, tuple[tuple[Event, frozenset[str]], ...]]
) -> None:
    """Fill ``table``: each backward in ``statements`` (nested blocks too) -> the clears
    that run right before it in its own block, with nothing between that steps, runs a
    backward, may touch gradients (an unknown call handed an optimizer, a call of this
    file, a read) or branches; assignments and calls of nothing known are no barrier.
    With each clear: the optimizers stepped right before it (only clears between), whose
    clear it may be (``optD.step(); optD.zero_grad()``: the end of D's update, not the
    start of the next loss)."""
    pending: list[tuple[Event, frozenset[str]]] = []
    stepped: frozenset[str] = frozenset()
    for statement in statements:
        if type(statement) is not Event:
            pending, stepped = [], frozenset()
            for part in child_blocks(statement):
                _preceding_clears(part, table)
            continue
        kind = statement.kind  # type: ignore[union-attr]
        if kind == EventKind.CLEAR:
            pending.append((statement, stepped))  # type: ignore[arg-type]
        elif kind == EventKind.STEP:
            pending, stepped = [], frozenset(statement.optimizers)  # type: ignore[union-attr]
        elif kind == EventKind.BACKWARD:
            if pending:
                table[id(statement)] = tuple(pending)
            pending, stepped = [], frozenset()
        elif not _no_barrier(statement):  # type: ignore[arg-type]
            pending, stepped = [], frozenset()


def _no_barrier(event: Event, depth: int = 0) -> bool:
    """An assignment, or a call (not dispatched on ``self``) of nothing this file defines
    or of a function whose own events are all no barrier (``reparameterization(mu,
    logvar)``)."""
    if event.kind == EventKind.KILL or event.kind == EventKind.METHOD:
        return True
    if event.kind != EventKind.CALL or event.receiver == "self":
        return False
    callee = event.callee
    if callee is None:
        return True
    return depth < 4 and all(_no_barrier(inner, depth + 1) for inner in events_of(callee.body))


def _locals(function: FunctionModel) -> frozenset[str]:
    """The names ``function`` binds that only it can rebind: its parameters and the names
    it assigns, less those a ``global`` / ``nonlocal`` statement of it or of a function
    nested in it shares."""
    names = set(function.params) | function.assignments.keys() | function.loop_targets
    names |= function.tuple_assignments.keys() | function.augmented.keys()
    pending = [function]
    while pending:
        current = pending.pop()
        names -= current.shared_names
        pending.extend(current.nested.values())
    # ``log["loss"] = ...`` and ``args.lr = ...`` are keyed too: they bind no name
    return frozenset(name for name in names if name.isidentifier())


def _none_tests(name: str) -> tuple[str, str]:
    """The keys of the conditions ``name is None`` and ``name is not None``."""
    return f"({name} Is None)", f"({name} IsNot None)"


def _foreign(event: Event) -> bool:
    """Whether ``event`` is in another module's code (project mode)."""
    return event.function is not None and event.function.origin is not None


def _own(event: Event) -> tuple[object, frozenset[str]]:
    """The assumption tag of ``event``'s function and its parameters that no ``global``
    or ``nonlocal`` shares (for ``pairing.proven``)."""
    function = event.function
    if function is None:
        return (None, frozenset())
    return (id(function), frozenset(function.params) - function.shared_names)


def _outer_names(
    params: Sequence[str],
    args: tuple[str | None, ...],
    kwargs: tuple[tuple[str, str | None], ...],
    frame: _Frame,
) -> dict[str, int]:
    """The parameters bound to a plain name (``need_update=need_update``) -> the tag of
    the frame that name belongs to (the caller's, or further up when the caller's own
    parameter was bound there)."""
    found: dict[str, int] = {}
    pairs = [*zip(params, args, strict=False), *((n, a) for n, a in kwargs if n in params)]
    for param, arg in pairs:
        if arg is None or not arg.isidentifier():
            continue
        if arg not in frame.env:
            found[param] = frame.tag
        elif arg in frame.outer:
            found[param] = frame.outer[arg]
    return found


def _translated(
    atom: Atom | None, frame: _Frame, module_global: Callable[[str, FunctionModel], bool]
) -> tuple[int, Atom | None]:
    """The assumption's tag and atom for ``if flag:`` in ``frame``: a test that reads only
    parameters bound to plain names up the calls (and their attributes), and perhaps
    names of the module (``DEEPSPEED_WRAP and args.deepspeed``, ru-gpts), is a test of
    those names, so it keeps its value after the call returns, as it would written there
    (timm's ``NativeScaler.__call__`` steps under ``if need_update:``, its caller skips
    the clear under ``if not need_update: continue``: one condition, not two;
    Swin-Transformer's epoch function tests ``config.TRAIN.ACCUMULATION_STEPS > 1`` at
    every call of the epoch loop: one setting). Otherwise ``frame``'s own."""
    if atom is None or type(atom.key) is not str or not frame.outer or atom.counter is not None:
        return frame.tag, atom
    aliased = _aliases(atom, frame)
    if aliased:  # ``params = self.params`` then ``if params.fp16 is False:`` (CodeGen)
        atom = renamed_atom(atom, aliased)
    names = {name.split(".", 1)[0] for name in atom.names}
    roots = {root for root in names if root in frame.outer}
    if not roots or not all(module_global(name, frame.function) for name in names - roots):
        return frame.tag, atom
    tags = {frame.outer[root] for root in roots}
    if len(tags) != 1:
        return frame.tag, atom
    renamed = {root: frame.env.get(root, root) for root in roots}
    if "self" in renamed and frame.self_prefix is not None:
        renamed["self"] = frame.self_prefix  # the caller's name of the object
    names = frozenset(renamed_name(name, renamed) for name in atom.names)
    if atom.names == frozenset({atom.key}):  # ``if flag:``
        key = renamed_name(atom.key, renamed)
        accumulation = matches(ACCUMULATION_NAME, key)
    else:
        key = renamed_source(atom.key, renamed)
        accumulation = "%" in key or any(matches(ACCUMULATION_NAME, name) for name in names)
    return tags.pop(), Atom(key=key, names=names, accumulation=accumulation)


def _aliases(atom: Atom, frame: _Frame) -> dict[str, str]:
    """The names a test reads that are locals bound once, to an attribute of ``self`` or
    of a parameter bound up the calls (``params = self.params``), with what they stand
    for: within the call they are that object."""
    function = frame.function
    found: dict[str, str] = {}
    for root in {name.split(".", 1)[0] for name in atom.names}:
        values = function.assignments.get(root, ())
        if (
            len(values) != 1
            or root in function.params
            or root in function.loop_targets
            or root in function.augmented
            or root in function.tuple_assignments
            or root in function.shared_names
        ):
            continue
        key = key_of(values[0])
        if key is not None and "." in key and key.split(".", 1)[0] in frame.outer:
            found[root] = key
    return found


def _bound_constant(atom: Atom | None, frame: _Frame) -> bool | None:
    """The value of ``if flag:`` when ``flag`` is a parameter this call bound to the
    constant ``True`` / ``False`` (an argument or the parameter's default)."""
    if atom is None or type(atom.key) is not str or frame.function.params == ():
        return None
    name = atom.key
    if name not in frame.function.params or atom.names != frozenset({name}):
        return None
    return {"True": True, "False": False}.get(frame.env.get(name, ""))


def _stepped_names(event: Event) -> tuple[str, ...]:
    """The optimizers ``event`` steps by name: a step's, or the receiver of a call of a
    ``step`` method (a wrapper of the project: ``self.optim.step()``)."""
    if event.kind == EventKind.STEP:
        return event.optimizers
    if event.kind == EventKind.CALL and event.method == "step" and event.receiver is not None:
        return (event.receiver,)
    return ()


def _defined(name: str, scope: FunctionModel) -> FunctionModel | None:
    """The function ``name`` is defined as, seen from ``scope`` (nested there or around)."""
    current: FunctionModel | None = scope
    while current is not None:
        if name in current.nested:
            return current.nested[name]
        current = current.parent
    return None


def _outer_statuses(entries: Entries, gone: frozenset[str], before: State) -> Entries:
    """``entries`` with the keys in ``gone`` (a returning callee's own locals) back at
    their statuses in ``before``, the state the call was made in, or unknown where it
    listed none: the next function that binds such a name binds a new object."""
    return tuple(
        (key, value if key not in gone else _status_before(before, key)) for key, value in entries
    )


def _status_before(state: State, key: str) -> Status:
    for entry, value in state.entries:
        if entry == key:
            return value
    return UNKNOWN


def _breaks_out(statements: list[Statement]) -> bool:
    """Whether ``statements`` (a loop's body) hold a ``break`` of that loop: in its
    ``if`` and ``try`` blocks, not in a loop nested in it."""
    for statement in statements:
        kind = type(statement)
        if kind is Jump and statement.kind == "break":  # type: ignore[union-attr]
            return True
        if (kind is If or kind is Try) and any(
            _breaks_out(block) for block in child_blocks(statement)
        ):
            return True
    return False


def _skips_iteration(statement: If) -> bool:
    """Whether a branch of ``statement`` ends with ``continue`` (``if n % k: continue``)."""
    return any(
        branch and type(branch[-1]) is Jump and branch[-1].kind == "continue"
        for branch in (statement.body, statement.orelse)
    )


def _drops_a_batch(statement: If, clears_body: bool) -> bool:
    """``if torch.isnan(loss): optimizer.zero_grad(); continue``: a branch that clears and
    skips to the next batch when a value test fails drops that batch. Skipping it is the
    normal case, never the other half of a window's clear-and-step pairing, so a leak on
    a path that skipped it needs no proof about its condition (``pairing``)."""
    atom = statement.atom
    branch = statement.body if clears_body else statement.orelse
    return (
        bool(branch)
        and type(branch[-1]) is Jump
        and branch[-1].kind == "continue"
        and atom is not None
        and type(atom.key) is str
        and _VALUE_TEST.search(atom.key) is not None
    )


def _window_guard(statement: If) -> bool:
    """``if n % k > 0: continue``: an accumulation condition one of whose branches skips
    to the next iteration, so what follows runs only when a window ends (a stopping test,
    ``if num_updates >= max_update: break``, is no such guard)."""
    atom = statement.atom
    return atom is not None and atom.accumulation and _skips_iteration(statement)


_WORD = re.compile(r"[^\W\d]\w*")


def _forget(state: State, forgotten: Callable[[str], bool]) -> State:
    """``state`` with the optimizers whose keys ``forgotten`` picks made unknown."""
    entries = None
    for key, value in state.entries:
        if value is UNKNOWN or not forgotten(key):
            continue
        if entries is None:
            entries = dict(state.entries)
        entries[key] = UNKNOWN
    return state if entries is None else with_entries(state, entries)


def _root(key: str) -> str:
    """The name an optimizer key starts from (``opts`` of ``opts[i].x``)."""
    return re.split(r"[.\[]", key, maxsplit=1)[0]


def _names_element(key: str, targets: frozenset[str]) -> bool:
    """Whether optimizer ``key`` is a loop variable in ``targets``, an attribute of one,
    or indexed by one (``opts[i]``)."""
    if _root(key) in targets:
        return True
    return "[" in key and any(
        word in targets
        for index in re.findall(r"\[([^\]]*)\]", key)
        for word in _WORD.findall(index)
    )


def _on_last_iteration(state: State) -> bool:
    return any(atom is LAST_ITERATION for _, atom, _ in state.assumptions)


def _observes_unnamed(event: Event) -> bool:
    """Whether ``event`` may read the status of optimizers it does not name: a ``.grad``
    read, a step of unnamed optimizers (an engine's, a configured step call), an event
    on every optimizer."""
    if event.kind == EventKind.READ or ALL in event.optimizers:
        return True
    return event.kind == EventKind.STEP and _steps_unnamed(event)


def _steps_unnamed(step: Event) -> bool:
    """Whether ``step`` steps optimizers it does not name: an engine's step (it clears
    too) or a configured step call (what it steps is unknown)."""
    return step.engine or step.callee_name == CONFIGURED_STEP


def _names_of(event: Event) -> Iterator[str]:
    """The names ``event`` uses for optimizers, modules, its receiver and arguments."""
    yield from event.optimizers
    yield from event.modules
    yield from event.companions
    if event.receiver is not None:
        yield event.receiver
    for arguments, keywords in (
        (event.args, event.kwargs),
        (event.closure_args, event.closure_kwargs),
        (event.factory_args, event.factory_kwargs),
    ):
        yield from (name for name in arguments if name is not None)
        yield from (name for _, name in keywords if name is not None)


def _nested(key: str, keys: tuple[str, ...]) -> bool:
    """Whether optimizer ``key`` is an attribute of one of ``keys`` or holds one."""
    return any(key.startswith(other + ".") or other.startswith(key + ".") for other in keys)


def _same_object(key: str, name: str) -> bool:
    """Whether ``name`` may denote the optimizer ``key`` or an object holding it (or
    an attribute of it): ``trainer`` for ``trainer.opt``."""
    return key == name or key.startswith(name + ".") or name.startswith(key + ".")


def _collect_tails(
    statements: list[Statement], later: bool, tails: set[int], sealed: bool = False
) -> bool:
    """Add to ``tails`` the calls in ``statements`` after which nothing in the function
    can observe or change gradients (``later``: something after ``statements`` can);
    whether ``statements`` hold such an event. Nothing inside a loop (its next iteration
    follows) or a ``try`` (its handlers and ``finally`` follow) is in tail position:
    those parts are ``sealed``."""
    holds = False
    for statement in reversed(statements):
        kind = type(statement)
        if kind is Event:
            if statement.kind == EventKind.KILL:  # type: ignore[union-attr]
                continue  # assumptions only: nothing after the call reads them
            if statement.kind == EventKind.CALL and not later:  # type: ignore[union-attr]
                tails.add(id(statement))
            later = holds = True
        elif kind is Jump:
            # a return ends the function: what follows it in its block runs after nothing
            later = sealed or statement.kind != "return"  # type: ignore[union-attr]
        elif kind is If:
            in_body = _collect_tails(statement.body, later, tails, sealed)  # type: ignore[union-attr]
            in_else = _collect_tails(statement.orelse, later, tails, sealed)  # type: ignore[union-attr]
            if in_body or in_else:
                later = holds = True
        else:
            held = False
            for part in child_blocks(statement):
                after_loop = kind is Loop and part is statement.orelse  # type: ignore[union-attr]
                if after_loop:
                    held = _collect_tails(part, later, tails, sealed) or held
                else:
                    held = _collect_tails(part, True, tails, True) or held
            if held:
                later = holds = True
    return holds


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
        return UNKNOWN if type(value) is Discarded else value

    return map_statuses(state, refresh)


def _unknown(_: Status) -> Status:
    return UNKNOWN


def _carried_on_purpose(value: Status) -> Status:
    """Applied gradients scaled after their step (``p.grad.mul_(beta)``), or applied by a
    step whose parameters were then restored (a lookahead), are kept for the next step
    deliberately: not a forgotten clear. Anything else stays as it is."""
    return UNKNOWN if type(value) is Stale else value


def _cleared(_: Status) -> Status:
    return CLEARED


def _carry(value: Status, loop: Loop) -> Status:
    """Fresh gradients crossing the back edge of ``loop`` without a step."""
    if type(value) is Fresh:
        return Carried(loop, value.backwards)
    return value  # ``Refilled`` keeps what the last clear discarded


def _reset(value: StaleFresh) -> StaleFresh:
    """Another optimizer stepped: the next backward is the one that feeds this one."""
    return StaleFresh(
        value.backward, value.step, True, value.skipped, value.guards, value.enclosing
    )


def _always_stepped(statements: list[Statement]) -> frozenset[str]:
    """The optimizers a step event of ``statements`` steps on every run of them: steps
    at their top level, or in both branches of an ``if``, before anything that may leave
    them (a jump, or an ``if``, loop or ``try`` that may hold one); a step of optimizers
    it does not name (``_steps_unnamed``) does not count."""
    found: set[str] = set()
    for statement in statements:
        kind = type(statement)
        if kind is Event:
            event: Event = statement  # type: ignore[assignment]
            if event.kind == EventKind.STEP and not _steps_unnamed(event):
                found.update(event.optimizers)
            continue
        if kind is If and not _may_leave(statement):
            branch: If = statement  # type: ignore[assignment]
            found |= _always_stepped(branch.body) & _always_stepped(branch.orelse)
            continue
        if (kind is Loop or kind is Try) and not _may_leave(statement):
            continue  # runs and falls through (a loop's steps may run zero times)
        break
    return frozenset(found)


def _may_leave(statement: Statement) -> bool:
    """Whether a jump (``break``, ``continue``, ``return``, ``raise``) is nested in
    ``statement``."""
    return any(
        type(inner) is Jump or _may_leave(inner)
        for block in child_blocks(statement)
        for inner in block
    )
