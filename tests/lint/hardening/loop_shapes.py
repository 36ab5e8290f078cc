"""Generated training-loop shapes and a reference oracle that decides their truth.

A shape is a small tree of statements placed in the body of
``for i, batch in enumerate(loader):`` — clear (``optimizer.zero_grad()``), backward,
step, ``if`` on the loop index, ``continue`` / ``break`` under such an ``if``, and an
inner micro-batch loop ``for chunk in batch:``.

Conditions are the deterministic ones the analyzer is specified to decide: accumulation
windows on the loop index, ``i % k == 0`` (the first micro-batch of a window) and
``(i + 1) % k == 0`` (the last), where ``k`` is the accumulation factor (a function
parameter, so every ``k >= 1`` is possible), and ``i == max_steps`` for a ``break``.

The oracle runs the loop concretely for several ``k`` and micro-batch counts, tracking
which backward contributions the gradients hold and which a step already applied:

* **stale** (ZG101): a step applies fresh contributions together with ones an earlier
  step already applied;
* **discarded** (ZG102 / ZG103): a clear throws away contributions no step has applied,
  and a step follows (so they were meant for it);
* **restep**: a step applies only already-applied gradients (two steps, no backward in
  between) — neither rule's business; the tests leave such loops undecided.

A loop is buggy when some run shows stale or discarded gradients, clean when none does.
"""

from __future__ import annotations

import ast
import textwrap
from dataclasses import dataclass, field

from hypothesis import strategies as st

# -- the statement tree ----------------------------------------------------------------


@dataclass(frozen=True)
class Cond:
    """``i % k == 0`` (``end=False``) or ``(i + 1) % k == 0`` (``end=True``), maybe negated;
    ``limit``: ``i == max_steps``, a data-dependent stop the oracle never takes (a
    ``break`` only cuts a run short, and every bug of a shorter run shows in the full run)."""

    end: bool
    negated: bool
    limit: bool = False

    def holds(self, i: int, k: int) -> bool:
        if self.limit:
            return False
        value = (i + 1) % k == 0 if self.end else i % k == 0
        return value != self.negated

    def source(self) -> str:
        if self.limit:
            return "i == max_steps"
        left = "(i + 1) % k" if self.end else "i % k"
        return f"{left} {'!=' if self.negated else '=='} 0"


LIMIT = Cond(end=False, negated=False, limit=True)


@dataclass(frozen=True)
class Simple:
    kind: str  # "clear" | "backward" | "step" | "break" | "continue"


@dataclass(frozen=True)
class If:
    cond: Cond
    body: tuple[Stmt, ...]
    orelse: tuple[Stmt, ...] = ()


@dataclass(frozen=True)
class Inner:
    """``for chunk in batch:`` — a micro-batch loop."""

    body: tuple[Stmt, ...]


Stmt = Simple | If | Inner


@dataclass(frozen=True)
class Shape:
    clear_before: bool
    body: tuple[Stmt, ...]


# -- rendering to source and reading back ------------------------------------------------

HEADER = """\
import torch

model = torch.nn.Linear(2, 1)
max_steps = 1000
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)


def train(loader, k):
"""

_CALLS = {
    "clear": "optimizer.zero_grad()",
    "step": "optimizer.step()",
    "break": "break",
    "continue": "continue",
}


def _render(statements: tuple[Stmt, ...], indent: int, inner: bool) -> list[str]:
    pad = "    " * indent
    lines: list[str] = []
    for statement in statements:
        if isinstance(statement, Simple):
            if statement.kind == "backward":
                data = "chunk" if inner else "batch"
                lines.append(f"{pad}model({data}).sum().backward()")
            else:
                lines.append(pad + _CALLS[statement.kind])
        elif isinstance(statement, If):
            lines.append(f"{pad}if {statement.cond.source()}:")
            lines.extend(_render(statement.body, indent + 1, inner) or [pad + "    pass"])
            if statement.orelse:
                lines.append(f"{pad}else:")
                lines.extend(_render(statement.orelse, indent + 1, inner))
        else:
            lines.append(f"{pad}for chunk in batch:")
            lines.extend(_render(statement.body, indent + 1, True) or [pad + "    pass"])
    return lines


def render(shape: Shape) -> str:
    lines = ["    optimizer.zero_grad()"] if shape.clear_before else []
    lines.append("    for i, batch in enumerate(loader):")
    lines.extend(_render(shape.body, 2, False) or ["        pass"])
    return HEADER + "\n".join(lines) + "\n"


class UnknownStatement(ValueError):
    """``--fix`` produced a statement no shape can hold (the test then fails loudly)."""


_CONDITIONS = (LIMIT, *(Cond(end, negated) for end in (False, True) for negated in (False, True)))


def _cond_of(test: ast.expr) -> Cond:
    text = ast.unparse(test)
    for cond in _CONDITIONS:
        if ast.unparse(ast.parse(cond.source(), mode="eval").body) == text:
            return cond
    raise UnknownStatement(text)


def _read(statements: list[ast.stmt]) -> tuple[Stmt, ...]:
    read: list[Stmt] = []
    for node in statements:
        text = ast.unparse(node)
        if isinstance(node, ast.Pass):
            continue
        if isinstance(node, ast.If):
            read.append(If(_cond_of(node.test), _read(node.body), _read(node.orelse)))
        elif isinstance(node, ast.For):
            read.append(Inner(_read(node.body)))
        elif text.endswith(".backward()"):
            read.append(Simple("backward"))
        else:
            kinds = {source: kind for kind, source in _CALLS.items()}
            if text not in kinds:
                raise UnknownStatement(text)
            read.append(Simple(kinds[text]))
    return tuple(read)


def parse_shape(source: str) -> Shape:
    """The shape of a (possibly fixed) rendered program: ``render``'s inverse."""
    function = ast.parse(source).body[-1]
    assert isinstance(function, ast.FunctionDef)
    body = function.body
    clear_before = False
    while not isinstance(body[0], ast.For):
        if ast.unparse(body[0]) != _CALLS["clear"]:
            raise UnknownStatement(ast.unparse(body[0]))
        clear_before = True
        body = body[1:]
    loop = body[0]
    assert isinstance(loop, ast.For)
    if len(body) > 1:
        raise UnknownStatement(ast.unparse(body[1]))
    return Shape(clear_before, _read(loop.body))


# -- the oracle ---------------------------------------------------------------------------


@dataclass
class _Grads:
    held: set[int] = field(default_factory=set)
    applied: set[int] = field(default_factory=set)
    next_id: int = 0
    stale: bool = False
    discarded: bool = False
    restep: bool = False  # a step applied only gradients an earlier step applied
    pending_discard: bool = False  # a clear discarded fresh gradients; no step since

    def backward(self) -> None:
        self.held.add(self.next_id)
        self.next_id += 1

    def step(self) -> None:
        fresh = self.held - self.applied
        if fresh and self.held & self.applied:
            self.stale = True
        elif self.held and not fresh:
            self.restep = True
        self.discarded |= self.pending_discard
        self.pending_discard = False
        self.applied |= self.held

    def clear(self) -> None:
        if self.held - self.applied:
            self.pending_discard = True
        self.held = set()


class _Jump(Exception):
    def __init__(self, kind: str) -> None:
        self.kind = kind


def _execute(statements: tuple[Stmt, ...], grads: _Grads, i: int, k: int, micro: int) -> None:
    for statement in statements:
        if isinstance(statement, Simple):
            kind = statement.kind
            if kind in ("backward", "step", "clear"):
                getattr(grads, kind)()
            else:
                raise _Jump(kind)
        elif isinstance(statement, If):
            branch = statement.body if statement.cond.holds(i, k) else statement.orelse
            _execute(branch, grads, i, k, micro)
        else:
            for _ in range(micro):
                try:
                    _execute(statement.body, grads, i, k, micro)
                except _Jump as jump:
                    if jump.kind == "break":
                        break


@dataclass(frozen=True)
class Verdict:
    stale: bool
    discarded: bool
    restep: bool = False

    @property
    def buggy(self) -> bool:
        return self.stale or self.discarded


ACCUMULATION_FACTORS = (1, 2, 3, 4)
MICRO_BATCHES = (1, 2, 3, 4)
ITERATIONS = 13  # at least two full windows of every factor, plus a partial one


def oracle(shape: Shape) -> Verdict:
    """Run the loop for every accumulation factor and micro-batch count; any bug counts."""
    stale = discarded = restep = False
    for k in ACCUMULATION_FACTORS:
        for micro in MICRO_BATCHES:
            grads = _Grads()  # a fresh model: empty gradients, with or without a clear
            for i in range(ITERATIONS):
                try:
                    _execute(shape.body, grads, i, k, micro)
                except _Jump as jump:
                    if jump.kind == "break":
                        break
            stale |= grads.stale
            discarded |= grads.discarded
            restep |= grads.restep
    return Verdict(stale, discarded, restep)


# -- the generator ------------------------------------------------------------------------


@dataclass(frozen=True)
class Placement:
    """One clear / backward / step / jump: where it goes and what guards it."""

    kind: str
    region: str  # "outer" (the iteration body) or "inner" (the micro-batch loop)
    guard: Cond | None
    order: float  # position among the statements of its region


# The guards real loops use: a step or clear at the last micro-batch of a window
# (``(i + 1) % k == 0``) or at its first (``i % k == 0``); ``continue`` until the window
# ends. (Other combinations, like a step only where ``i % k != 0``, are reachable by the
# analyzer only through paths that mix different values of ``k``.)
WINDOW_GUARDS = (Cond(end=True, negated=False), Cond(end=False, negated=False))


def _placement(
    kind: str, regions: tuple[str, ...], guards: tuple[Cond | None, ...]
) -> st.SearchStrategy[Placement]:
    return st.builds(
        Placement,
        kind=st.just(kind),
        region=st.sampled_from(regions),
        guard=st.sampled_from(guards),
        order=st.floats(0, 1),
    )


def _block(placements: list[Placement]) -> tuple[Stmt, ...]:
    ordered = sorted(placements, key=lambda p: p.order)
    block: list[Stmt] = []
    for placement in ordered:
        statement: Stmt = Simple(placement.kind)
        if placement.guard is not None:
            statement = If(placement.guard, (statement,))
        block.append(statement)
    return tuple(block)


@st.composite
def shapes(draw: st.DrawFn) -> Shape:
    """One backward (every iteration, or every micro-batch of an inner loop), one step,
    up to two clears, maybe a guarded ``continue`` / ``break``; each step/clear guarded by
    a window condition or not, in a random order."""
    micro = draw(st.booleans())
    regions = ("outer", "inner") if micro else ("outer",)
    # The step and a ``continue`` share one window boundary, as in real loops: a step at
    # ``(i + 1) % k == 0`` with ``continue`` while ``(i + 1) % k != 0`` is not the window end.
    window = draw(st.sampled_from(WINDOW_GUARDS))
    placements = [
        draw(_placement("backward", regions[-1:], (None,))),
        draw(_placement("step", regions, (None, window))),
        *draw(st.lists(_placement("clear", regions, (None, *WINDOW_GUARDS)), max_size=2)),
    ]
    jump = draw(st.sampled_from((None, "continue", "break")))
    if jump is not None:  # continue: outside the window boundary; break: a data-dependent stop
        guard = Cond(window.end, negated=True) if jump == "continue" else LIMIT
        placements.append(Placement(jump, "outer", guard, draw(st.floats(0, 1))))
    outer = [p for p in placements if p.region == "outer"]
    inner = [p for p in placements if p.region == "inner"]
    body = list(_block(outer))
    if micro:
        body.insert(draw(st.integers(0, len(body))), Inner(_block(inner)))
    return Shape(clear_before=draw(st.booleans()), body=tuple(body))


def describe(shape: Shape) -> str:
    """The program, for failure messages."""
    return textwrap.indent(render(shape), "    ")
