"""Reads of ``.grad`` that a loop sums into a total kept across its iterations.

An EWC or MAS importance estimate, or per-sample gradients collected for a statistic,
backpropagate once per iteration and add what they read of ``p.grad`` to a total
(``fisher[n] += p.grad ** 2``, ``grads.append(p.grad.clone())``). Each iteration must
read only its own backward's gradients: without a clear before the backward the second
read sees the first iteration's gradients again, and the total counts them twice.

This module finds the shape, from the syntax alone: in one loop's iteration, a backward
followed by such a read, both on every iteration (not under an ``if`` or ``try`` of the
loop; a read in a loop over parameters runs on every iteration), the total not bound
again inside the loop (a total started again every iteration is a per-iteration value,
and so is a read that overwrites: its last value is the sum, read once), nor the model
read (a model made anew every iteration starts without gradients). Whether the
loop clears, steps, or reaches the read's parameters is the flow check's to judge
(``flow.summed_reads``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

import libcst as cst

from zerograd_guard.lint.extract.names import INPUT_GRAD, root_of, subnodes
from zerograd_guard.lint.model.events import (
    Event,
    EventKind,
    Jump,
    Loop,
    Statement,
    SummedRead,
    child_blocks,
)
from zerograd_guard.lint.model.program import FunctionModel

# methods that add their argument to the object they are called on
_ADDING_METHODS = frozenset({"append", "extend", "add_"})


def summed_reads(function: FunctionModel) -> Iterator[SummedRead]:
    """Every (backward, read) pair of ``function``'s loops in the shape above, the
    backwards of one read in source order (``ModuleModel.summed_reads``, filled by
    ``resolve_module``)."""
    if function.is_generator:
        return  # its caller runs between iterations, and may clear
    for loop in _loops(function.body):
        if loop.once or any(type(statement) is Jump for statement in loop.body):
            continue  # a loop that always leaves in its first iteration sums nothing twice
        backwards: list[Event] = []
        bindings: _Bindings | None = None
        for event in _every_iteration(loop.body):
            if event.kind is EventKind.BACKWARD:
                backwards.append(event)
            elif event.kind is EventKind.READ and backwards and _of_modules(event):
                total = _total(event)
                if total is None:
                    continue
                if bindings is None:
                    bindings = _bindings(loop.node)
                bound = bindings.bound
                total = bindings.zipped.get(
                    total, total
                )  # ``f`` of ``for f, p in zip(fisher, ...)``
                if total in bound or any(root_of(module) in bound for module in event.modules):
                    continue  # a total or a model made again in every iteration
                for backward in backwards:
                    yield SummedRead(backward, event, loop, total)


def _of_modules(read: Event) -> bool:
    """A read of a known module's parameters (not an input tensor's gradient)."""
    return bool(read.modules) and read.callee_name != INPUT_GRAD


def _loops(statements: list[Statement]) -> Iterator[Loop]:
    for statement in statements:
        if type(statement) is Loop:
            yield statement  # type: ignore[misc]
        for part in child_blocks(statement):
            yield from _loops(part)


def _every_iteration(statements: list[Statement]) -> Iterator[Event]:
    """The events that run on every iteration of the loop whose body is ``statements``,
    in order: its own, and those of a nested loop over parameters that only reads,
    clears or updates (``Loop.once``)."""
    for statement in statements:
        kind = type(statement)
        if kind is Event:
            yield statement  # type: ignore[misc]
        elif kind is Loop and statement.once:  # type: ignore[union-attr]
            yield from _every_iteration(statement.body)  # type: ignore[union-attr]


def _total(read: Event) -> str | None:
    """The name the statement holding ``read`` adds it to: ``total`` of ``total += ...``,
    ``fisher[n] += ...``, ``fisher[n].data += ...`` or ``grads.append(...)``."""
    line = read.statement
    if line is None or len(line.body) != 1:
        return None
    small = line.body[0]
    if type(small) is cst.AugAssign and type(small.operator) is cst.AddAssign:
        if _holds(small.value, read.node):
            return _root(small.target)
        return None
    if type(small) is cst.Expr and type(small.value) is cst.Call:
        func = small.value.func
        if (
            type(func) is cst.Attribute
            and func.attr.value in _ADDING_METHODS
            and any(_holds(arg.value, read.node) for arg in small.value.args)
        ):
            return _root(func.value)
    return None


def _root(node: cst.BaseExpression) -> str | None:
    while type(node) in (cst.Attribute, cst.Subscript):
        node = node.value  # type: ignore[attr-defined]
    return node.value if type(node) is cst.Name else None


def _holds(node: cst.CSTNode, target: cst.CSTNode) -> bool:
    if node is target:
        return True
    return any(_holds(sub, target) for sub in subnodes(node))


class _Bindings(NamedTuple):
    """What a loop binds (``_bindings``)."""

    # the names it binds, or stores into (``x = ...``, ``x[i] = ...``, loop targets,
    # ``with ... as x``, ``x := ...``, ``del x``), its own targets included
    bound: frozenset[str]
    # the targets of the ``for`` loops inside it over ``zip(...)`` of plain names, each
    # with the name it walks the elements of (``f`` -> ``fisher`` in ``for f, p in
    # zip(fisher, model.parameters())``): adding to ``f`` adds to an element of ``fisher``
    zipped: dict[str, str]


def _bindings(loop: cst.CSTNode) -> _Bindings:
    """What ``loop`` binds, in one walk of its syntax, nested functions and classes left
    out."""
    bound: set[str] = set()
    zipped: dict[str, str] = {}
    pending: list[cst.CSTNode] = [loop]
    while pending:
        node = pending.pop()
        kind = type(node)
        if kind in (cst.FunctionDef, cst.ClassDef, cst.Lambda):
            continue
        targets: list[cst.CSTNode] = []
        if kind is cst.Assign:
            targets = [target.target for target in node.targets]  # type: ignore[attr-defined]
        elif kind in (cst.For, cst.CompFor, cst.AnnAssign, cst.NamedExpr):
            targets = [node.target]  # type: ignore[attr-defined]
        elif kind is cst.AsName:
            targets = [node.name]  # type: ignore[attr-defined]
        elif kind is cst.Del:
            targets = [node.target]  # type: ignore[attr-defined]
        for target in targets:
            bound.update(_target_roots(target))
        if kind is cst.For and node is not loop:
            zipped.update(_zip_elements(node))  # type: ignore[arg-type]
        pending.extend(node.children)
    return _Bindings(frozenset(bound), zipped)


def _zip_elements(loop: cst.For) -> Iterator[tuple[str, str]]:
    """(target, name) for ``for f, p in zip(fisher, ...)``: ``f`` walks ``fisher``."""
    iterable = loop.iter
    if (
        type(loop.target) is cst.Tuple
        and type(iterable) is cst.Call
        and type(iterable.func) is cst.Name
        and iterable.func.value == "zip"
        and len(iterable.args) == len(loop.target.elements)
    ):
        for element, arg in zip(loop.target.elements, iterable.args, strict=True):
            if type(element.value) is cst.Name and type(arg.value) is cst.Name:
                yield element.value.value, arg.value.value


def _target_roots(target: cst.CSTNode) -> Iterator[str]:
    if type(target) in (cst.Tuple, cst.List):
        for element in target.elements:  # type: ignore[attr-defined]
            yield from _target_roots(element.value)
    elif type(target) is cst.StarredElement:
        yield from _target_roots(target.value)  # type: ignore[attr-defined]
    else:
        root = _root(target)  # type: ignore[arg-type]
        if root is not None:
            yield root
