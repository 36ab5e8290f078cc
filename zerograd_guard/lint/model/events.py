"""Statements of the event model.

A function's body becomes a tree of these: ``Event`` leaves (a backward, a clear, a step,
a call that may do any of them) inside ``If`` / ``Loop`` / ``Try`` nodes and ``Jump``s.
Everything that cannot touch gradients is dropped, so the tree is small.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import libcst as cst

    from zerograd_guard.lint.model.program import FunctionModel


class EventKind(Enum):
    BACKWARD = "backward"  # adds gradients to every parameter in the graph
    CLEAR = "clear"  # clears the gradients of ``optimizers`` / ``modules`` / all
    STEP = "step"  # applies the gradients of ``optimizers``
    METHOD = "method"  # raw ``receiver.method(...)`` call, resolved later
    CALL = "call"  # call of a function/method defined in the same file (inlined)
    HAVOC = "havoc"  # unknown call that may clear ``optimizers`` (state becomes unknown)
    KILL = "kill"  # assignment to names a condition reads
    READ = "read"  # reads ``.grad`` of ``modules`` (none: parameters not known)

    # members are singletons: identity hashing (Enum's own hashes the name, in Python)
    __hash__ = object.__hash__


ALL = "*"
"""Target meaning every optimizer (an unknown clear, a loop over all optimizers)."""
MANUAL = "<manual>"
"""The manual optimizer of a loop over parameters (``p.data.add_(p.grad, alpha=-lr)``);
a manual update of one named tensor ``w`` is the optimizer ``w.grad``."""
HANDED_OVER = "<hands-over-grads>"
"""``callee_name`` of the STEP event of ``shared._grad = local.grad`` (A3C workers): the
local gradients are handed to the parameters another optimizer steps, which is where
they are applied; that optimizer's ``zero_grad()`` sets its own gradients to None and
leaves the local ones (``modules``: the module whose gradients are handed over, when a
loop over its parameters says)."""


@dataclass(eq=False)
class Event:
    """One thing that happens to gradients, at ``node`` (the call or statement).

    ``optimizers`` are optimizer names in the owning function's namespace (``opt``,
    ``self.optimizer``) or ``ALL``; ``modules`` are module expressions (``netD``) whose
    ``zero_grad()`` is the clear. ``statement`` is the simple statement line holding the
    node and ``block`` the statement list it sits in (both used for fixes).
    """

    kind: EventKind
    node: cst.CSTNode = field(repr=False)
    function: FunctionModel | None = field(default=None, repr=False)
    statement: cst.SimpleStatementLine | None = field(default=None, repr=False)
    anchor: cst.CSTNode | None = field(default=None, repr=False)  # the statement holding node
    block: tuple[int, int] | None = None  # (id of the suite's body list, index in it)
    receiver: str | None = None  # key text of the call's receiver
    receiver_node: cst.CSTNode | None = field(default=None, repr=False)
    method: str | None = None
    args: tuple[str | None, ...] = ()
    kwargs: tuple[tuple[str, str | None], ...] = ()
    keywords: frozenset[str] = frozenset()  # keyword arguments passed a true constant
    optimizers: tuple[str, ...] = ()
    modules: tuple[str, ...] = ()
    # CLEAR: the optimizers cleared by the run of clears it belongs to (no other gradient
    # event between them): together they may clear every parameter of another optimizer
    companions: tuple[str, ...] = ()
    managed: bool = False  # inside ``with accelerator.accumulate(...)`` (see ``SYNC``)
    engine: bool = False  # a step by an engine that clears for you
    # on the variable of a loop over a collection of optimizers (``for opt in optims:``):
    # each of them, whichever they are (its key is ``ALL``)
    each: bool = False
    collection: frozenset[str] = frozenset()  # ... the names the loop's iterable reads
    callee: FunctionModel | None = field(default=None, repr=False)
    # CALL of a method on an instance of a known class: that class (the method may be
    # inherited; ``self.m()`` inside it runs that class's overrides)
    instance_class: str | None = None
    # ... on an instance the calling function built once: (attribute, the name passed
    # for the constructor's parameter stored in it as it is), ``Resolver._stored_arguments``
    stored: tuple[tuple[str, str], ...] = ()
    # a call of a plain name (or the closure a method call is handed): the function of
    # that name its own body had defined so far (a later definition does not run here)
    defined: FunctionModel | None = field(default=None, repr=False)
    callee_name: str | None = None
    closure: str | None = None  # name passed as ``step(closure)``
    closure_model: FunctionModel | None = field(default=None, repr=False)
    # STEP: the optimizer runs the closure again after updating the parameters (LBFGS)
    closure_repeats: bool = False
    # a closure made by ``functools.partial(f, *args, **kwargs)``: the arguments it binds
    # to ``closure_model``'s parameters (keys in the step's function)
    closure_args: tuple[str | None, ...] = ()
    closure_kwargs: tuple[tuple[str, str | None], ...] = ()
    # CALL of a function another one returned (``step = make_step(model, opt)``, then
    # ``step(batch)``): the function that made it and the arguments that call handed it,
    # which the callee's free names read (keys in the calling function)
    factory: FunctionModel | None = field(default=None, repr=False)
    factory_args: tuple[str | None, ...] = ()
    factory_kwargs: tuple[tuple[str, str | None], ...] = ()
    loss: cst.BaseExpression | None = field(default=None, repr=False)  # BACKWARD: the loss
    reach: Reach | None = field(default=None, repr=False)  # BACKWARD: what the loss reaches
    names: frozenset[str] = frozenset()  # KILL: names assigned
    increment: bool = False  # KILL: ``name += 1``
    constant: bool | None = None  # KILL: ``name = True`` / ``name = False``
    # KILL: ``name = None`` (True), ``name = Cls(...)``, a new object, never None (False)
    is_none: bool | None = None


@dataclass(frozen=True)
class Reach:
    """The modules a backward's loss was computed from (see ``extract.parameter_sets``).
    ``complete``: every leaf of the loss was followed, so a module not listed (nor related
    to one listed) is not reached."""

    modules: frozenset[str]
    complete: bool


@dataclass(frozen=True)
class Atom:
    """A branch condition the flow check can correlate.

    ``key`` identifies the condition (normalised source, or ``("end", counter, k)`` /
    ``("start", counter, k)`` for accumulation windows ``(i + 1) % k == 0`` / ``i % k == 0``);
    ``names`` are the names it reads; ``accumulation`` marks conditions that gate
    accumulation (modulo arithmetic, sync/accumulate flags).
    """

    key: object
    names: frozenset[str]
    accumulation: bool = False
    counter: str | None = None
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # atoms are hashed on every branch of every path: compute it once
        object.__setattr__(self, "_hash", hash((self.key, self.names, self.accumulation)))

    def __hash__(self) -> int:
        return self._hash


# a name not after a dot, or a string literal (left as it is): the names of a condition's
# normalised source (``Atom.key``)
_NAME_OR_STRING = re.compile(r"""(?<![\w.])[^\W\d]\w*|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'""")


def renamed_name(name: str, renamed: dict[str, str]) -> str:
    """``name`` (a dotted name) with its root renamed, where ``renamed`` has it."""
    root, dot, rest = name.partition(".")
    return renamed.get(root, root) + dot + rest


def renamed_source(key: str, renamed: dict[str, str]) -> str:
    """A condition's normalised source with the names in ``renamed`` renamed."""
    return _NAME_OR_STRING.sub(lambda match: renamed.get(match[0], match[0]), key)


def renamed_atom(atom: Atom, renamed: dict[str, str]) -> Atom:
    """``atom`` reading the names in ``renamed`` under their new names (itself when it
    reads none of them, or is an accumulation window's)."""
    if type(atom.key) is not str or not any(
        name.split(".", 1)[0] in renamed for name in atom.names
    ):
        return atom
    return dataclasses.replace(
        atom,
        key=renamed_source(atom.key, renamed),
        names=frozenset(renamed_name(name, renamed) for name in atom.names),
    )


LAST_ITERATION = Atom(key="<last-iteration>", names=frozenset())
"""Assumed by a path that took the branch of the enclosing ``for`` loop's last iteration
(``if index == len(dataloader) - 1:``): that path leaves the loop, it does not iterate."""
SYNC = Atom(key="<accelerate-sync>", names=frozenset({"<sync>"}), accumulation=True)
"""accelerate's ``sync_gradients`` inside ``with accelerator.accumulate(model):``: true on
the micro-batch that ends a window. The prepared optimizer's ``step()`` and
``zero_grad()`` run only then (``AcceleratedOptimizer``); a module's ``zero_grad()`` and
the backward run on every micro-batch. Decided afresh on every iteration."""


@dataclass(eq=False)
class If:
    atom: Atom | None  # None: a condition nothing else correlates with
    negated: bool
    body: list[Statement]
    orelse: list[Statement]
    # ``i == len(loader) - 1``: True when the body runs only on the enclosing ``for``
    # loop's last iteration, False when the else branch does, None otherwise
    last_iteration: bool | None = None
    # the ``if`` statement whose branches ``body`` and ``orelse`` are, as written
    node: cst.If | None = field(default=None, repr=False)


@dataclass(eq=False)
class Loop:
    """``for`` / ``while``. ``once``: a loop over parameters or optimizers whose body only
    clears or updates; it is analysed as running exactly once (each item alike)."""

    node: cst.CSTNode = field(repr=False)
    body: list[Statement]
    orelse: list[Statement]
    targets: frozenset[str] = frozenset()
    assigned: frozenset[str] = frozenset()
    infinite: bool = False
    once: bool = False
    has_step: bool = field(default=False)
    # at least one iteration runs on every path that goes on past the loop: a later
    # backward of a loss that only the loop makes a tensor (``loss = 0``, ``loss += ...``)
    runs: bool = False
    # what its body calls a method on or hands to a call, as written, with the call and
    # slot, by the name each starts from (read on demand: ``extract.names.handed_on``)
    handed: dict[str, frozenset[tuple[str, str | None, int | str | None]]] | None = field(
        default=None, repr=False
    )
    # project mode: what a callee of the file may change of an object it is handed, by
    # callee as written and slot (``project.summaries``); None: unknown, anything
    changes: Callable[[str, int | str], frozenset[str] | None] | None = field(
        default=None, repr=False
    )


@dataclass(eq=False)
class Try:
    body: list[Statement]
    handlers: list[list[Statement]]
    orelse: list[Statement]
    finalbody: list[Statement]


@dataclass(eq=False)
class Jump:
    kind: str  # "break" | "continue" | "return" (a ``raise`` too: it leaves the function)
    node: cst.CSTNode
    # a ``raise``: the class name of what it raises (``raise CancelBatchException()``), a
    # framework may catch it around a hook (``FlowEngine.caught``); None when unknown
    exception: str | None = None
    raises: bool = False  # a ``raise``: a caller does not go on after the call


Statement = Event | If | Loop | Try | Jump


@dataclass(frozen=True)
class SummedRead:
    """In one iteration of ``loop``: ``backward``, then ``read`` of ``.grad``, which adds
    what it reads to ``total``, a name the loop does not bind (``extract.summed_reads``)."""

    backward: Event
    read: Event
    loop: Loop
    total: str


def child_blocks(statement: Statement) -> tuple[list[Statement], ...]:
    """The statement lists nested in ``statement``, in source order (none for an event or
    a jump): the one place that knows the shape of ``If`` / ``Loop`` / ``Try``."""
    kind = type(statement)
    if kind is If or kind is Loop:
        return (statement.body, statement.orelse)  # type: ignore[union-attr]
    if kind is Try:
        return (statement.body, *statement.handlers, statement.orelse, statement.finalbody)  # type: ignore[union-attr]
    return ()


def events_of(statements: list[Statement]) -> Iterator[Event]:
    """Every event in ``statements``, nested ones included, in source order."""
    for statement in statements:
        if type(statement) is Event:
            yield statement  # type: ignore[misc]
        else:
            for part in child_blocks(statement):
                yield from events_of(part)
