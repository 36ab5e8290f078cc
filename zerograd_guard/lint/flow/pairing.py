"""Whether a leak found between a conditional step and a skipped conditional clear is
proven, or rests on the guess that their conditions are unrelated.

``if first: zero_grad()`` ... ``if last: step()`` is correct when ``first`` holds on the
iteration after every ``last`` (the first micro-batch of each window). The flow check
follows such pairs only for the conditions it can relate (the same condition, or the
``i % k == 0`` / ``(i + 1) % k == 0`` windows of a loop's own counter); for any other pair
it explores every combination, so a leak on such a path is not reported.

A stale status carries what its proof needs: ``Stale`` and ``StaleFresh`` hold
``skipped``, the conditions (``Atom`` or None) under which a clear was skipped since
``step``, and ``guards``, the conditions ``step`` ran under within its loop iteration.
"""

from __future__ import annotations

import re
from typing import Any

from zerograd_guard.lint.extract.names import handed_on, root_of
from zerograd_guard.lint.flow.state import (
    Stale,
    StaleFresh,
    State,
    Status,
    map_statuses,
)
from zerograd_guard.lint.model.events import Atom, Event, Loop

Guards = frozenset[Atom | None]
NO_GUARDS: Guards = frozenset()
# names a condition may read that no code rebinds (``if scaler is None:``)
CONSTANTS = frozenset({"None", "True", "False"})


def stale(step: Event, guards: Guards) -> Status:
    return Stale(step, NO_GUARDS, guards)


def proven(
    value: StaleFresh,
    guards: Guards,
    loops: tuple[Loop, ...],
    assumptions: frozenset[Any] = frozenset(),
    parameters: tuple[object, frozenset[str]] = (None, frozenset()),
    loop_locals: dict[object, frozenset[str]] | None = None,
) -> bool:
    """Whether the leak of stale-plus-fresh ``value`` at a step run under ``guards`` holds
    whatever the skipped clears' conditions are. A condition that also encloses every
    skipped clear (``if loss.item() > 1.0:`` around both the ``if fp16:`` that skips the
    clear and the step) need not be correlated with them: it held when the clear was
    skipped and holds when the step runs. Nor need one the step itself runs under that
    the path still assumes (``assumptions``): nothing it reads was assigned since the
    clear was skipped, so every test of it took the branch that skips the clear and runs
    the step (a loop-invariant flag: ConvNeXt's ``if use_amp:`` clears, its ``else``
    steps under an accumulation condition and never clears). Only a flag that reads
    parameters of the step's own function (``parameters``: its assumption tag and its
    parameters not declared ``global`` / ``nonlocal``), or attributes of them no call in
    the loops may change (llama-recipes' ``if train_config.use_fp16:``), none of them assigned
    in the loops, counts: a global or an attribute of ``self`` may be changed by any call
    in the loop (``tick()`` setting ``window_start``). So does a test of locals of the
    function of a loop being iterated (``loop_locals``, by tag) that no loop assigns or
    hands to a call (open_clip's ``if train_step is not None:`` clears, its other branch
    accumulates and steps in a helper): only that function can rebind them. A condition
    the loop changes (a window counter) is judged by the pairing of the two conditions
    only."""
    if _correlated(value.skipped, loops):
        return False
    conditions = (guards | value.guards) - value.enclosing
    own_tag, own_parameters = parameters
    locals_of = loop_locals or {}
    held = {
        atom
        for tag, atom, _ in assumptions
        if atom.names
        if (tag == own_tag and _reads_parameters(atom, own_parameters, loops))
        or _reads_locals(atom, locals_of.get(tag, frozenset()), loops)
        if atom in guards or atom in value.guards
        if _invariant(atom, loops) or _setting(atom, loops)
    }
    return all(a in held or related(a, b, loops) for a in value.skipped for b in conditions)


def _reads_parameters(atom: Atom, parameters: frozenset[str], loops: tuple[Loop, ...]) -> bool:
    """Whether ``atom`` reads only ``parameters``, or attributes of one (``if
    cfg.use_fp16:``) that no call in the loops may change (``_may_change``; ``self`` is
    never such a parameter: its methods change its attributes)."""
    for name in atom.names - CONSTANTS:
        if name in parameters:
            continue
        root, dot, _ = name.partition(".")
        if not dot or root not in parameters or root in ("self", "cls"):
            return False
        if _may_change(name, loops):
            return False
    return True


def _reads_locals(atom: Atom, names: frozenset[str], loops: tuple[Loop, ...]) -> bool:
    """Whether ``atom`` reads only ``names`` (bare locals) that no call in the loops may
    change (a call could change the object a name holds)."""
    read = atom.names - CONSTANTS
    return read <= names and not any(_may_change(name, loops) for name in read)


def _may_change(name: str, loops: tuple[Loop, ...]) -> bool:
    """Whether a call in ``loops`` may change the value ``name`` (``cfg.use_fp16``)
    reads: it receives that value, an object it is read from (``cfg``, ``cfg.amp`` for
    ``cfg.amp.enabled``, ``cfg.amps`` for ``cfg.amps[0].enabled``) or one read from it.
    Another attribute's value (``clip_grad_norm_(params, cfg.clip)``) cannot rebind it,
    nor can a function of the run that provably leaves that part of what it receives
    alone (project mode: ``evaluation(model, cfg)`` only reading ``cfg``'s attributes;
    ``Loop.changes``)."""
    root = root_of(name)
    for loop in loops:
        for key, callee, slot in handed_on(loop).get(root, ()):
            if not (_read_from(name, key) or _read_from(key, name)):
                continue
            if not _left_alone(name, key, callee, slot, loop):
                return True
    return False


def _left_alone(
    name: str, key: str, callee: str | None, slot: int | str | None, loop: Loop
) -> bool:
    """Whether the call of ``callee`` handed ``key`` in ``slot`` leaves ``name`` as it
    was: ``key`` holds ``name`` (``cfg`` for ``cfg.use_fp16``) and the callee changes
    nothing of it on the way to ``name``."""
    if callee is None or slot is None or loop.changes is None or not _read_from(name, key):
        return False
    inside = name[len(key) :]
    if not inside.startswith("."):
        return False  # the value itself, or an item of it
    changed = loop.changes(callee, slot)
    if changed is None:
        return False
    path = inside[1:]
    return not any(
        part == "" or _read_from(path, part) or _read_from(part, path) for part in changed
    )


def _read_from(inner: str, outer: str) -> bool:
    """Whether key ``inner`` is ``outer`` or read from it (an attribute or an item)."""
    return inner == outer or inner.startswith((outer + ".", outer + "["))


def _correlated(skipped: frozenset[Atom | None], loops: tuple[Loop, ...]) -> bool:
    """Whether clears were skipped under two different conditions that test one value
    no loop changes (``if accum_count > 1:`` clears before the micro-batches, ``if
    accum_count == 1:`` inside them): whether both can be false together is a question
    about that value (OpenNMT asserts it positive elsewhere) the check does not answer,
    so a leak on that path is a guess."""
    atoms = [
        atom
        for atom in skipped
        if atom is not None and not any(atom.names & loop.assigned for loop in loops)
    ]
    for index, first in enumerate(atoms):
        for second in atoms[index + 1 :]:
            if first.key != second.key and not _tested(first).isdisjoint(_tested(second)):
                return True
    return False


def _tested(atom: Atom) -> frozenset[str]:
    """The values ``atom`` reads, without the roots of dotted ones (``self`` of
    ``self.accum``: two tests of ``self.a`` and ``self.b`` test different values)."""
    return frozenset(
        name for name in atom.names if not any(other.startswith(name + ".") for other in atom.names)
    )


# Accumulation tests that change on every micro-batch without an assignment the loop
# shows (``accelerator.sync_gradients``, ``trainer.is_last_batch``): never settings.
_PER_MICRO_BATCH = re.compile(r"sync|update|should_step|do_step|is_last|micro|boundary", re.I)


def _setting(atom: Atom, loops: tuple[Loop, ...]) -> bool:
    """Whether ``atom`` tests an accumulation setting, not a window: ``if use_accum:``,
    ``if config.TRAIN.ACCUMULATION_STEPS > 1:`` (Swin's SimMIM: that branch steps every
    k micro-batches, the other clears and steps every one). Named like accumulation, it
    is no modulo arithmetic, no counter and nothing set per micro-batch, and no loop
    assigns what it reads: every test of it gives the last answer (the caller checks
    that it reads parameters or locals no call may change)."""
    return (
        atom.accumulation
        and atom.counter is None
        and isinstance(atom.key, str)
        and "%" not in atom.key
        and not any(_PER_MICRO_BATCH.search(name) for name in atom.names)
        and not any(atom.names & loop.assigned for loop in loops)
    )


def _invariant(atom: Atom, loops: tuple[Loop, ...]) -> bool:
    """Whether no loop being iterated assigns what ``atom`` reads (and it is no window
    counter): a test of it repeats the answer of the last one."""
    return not atom.accumulation and not any(atom.names & loop.assigned for loop in loops)


def related(clear: Atom | None, step: Atom | None, loops: tuple[Loop, ...]) -> bool:
    """Whether the flow check correlates the two conditions exactly (``loops``: the loops
    being iterated)."""
    if clear is None or step is None:
        return False
    names = clear.names | step.names
    if (clear.accumulation or step.accumulation) and any(
        names & (loop.assigned - loop.targets) for loop in loops
    ):
        return False  # ``step += 1`` in the body: the check does not follow the counter
    if clear.key == step.key:
        return True  # one condition: the leak needs it false on consecutive iterations
    return (
        isinstance(clear.key, tuple)
        and isinstance(step.key, tuple)
        and clear.counter is not None
        and clear.counter == step.counter
        and any(clear.counter in loop.targets for loop in loops)
    )


def skip_clear(state: State, condition: Atom | None, enclosing: Guards = NO_GUARDS) -> State:
    """``state`` on a branch that skips a clear its sibling branch runs; ``enclosing``: the
    conditions of the branches around that ``if`` (kept as those around every skip)."""

    def mark(value: Status) -> Status:
        kind = type(value)
        if kind is Stale and condition not in value.skipped:
            around = enclosing & value.enclosing if value.skipped else enclosing
            return Stale(value.step, value.skipped | {condition}, value.guards, around)
        if kind is StaleFresh and condition not in value.skipped:
            around = enclosing & value.enclosing if value.skipped else enclosing
            return StaleFresh(
                value.backward,
                value.step,
                value.reset,
                value.skipped | {condition},
                value.guards,
                around,
            )
        return value

    return map_statuses(state, mark)
