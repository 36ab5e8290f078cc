"""Inject gradient-clearing bugs into correct real training loops.

For every clear statement in a source text (an expression statement calling
``<x>.zero_grad(...)``, or an assignment ``<x>.grad = None``) two kinds of mutant
are produced:

* ``delete``: the clear is replaced by ``pass`` (line numbers stay the same).
  The linter must then report ZG101 somewhere in the file.
* ``move``: the clear is removed from its place and re-inserted immediately
  before the optimizer step that it serves, after that step's backward. The
  linter must then report ZG102 somewhere in the file.

Honesty rules (a mutant is only generated where the injected change is a bug for
sure; otherwise "caught" would be meaningless):

* A deletion is skipped when another clear with the same receiver text (for
  example a second ``optimizer.zero_grad()``) remains in the same function, unless
  the two sit in different arms of one ``if`` (then the other never runs on the
  deleted clear's path): the remaining clear may well cover every path (clear
  before the loop plus after each step), so the deletion may be harmless. This
  skips some real bugs too; it never invents one.
* A deletion is skipped when the clear line carries a ``# no-inject:`` comment
  saying why removing it is not a stale-gradient bug: the clear is redundant in a
  way the rule above cannot see (another function clears on every path), or its
  removal causes a different kind of bug than ZG101.
* A move needs a step that the clear serves: ``<r>.step(...)`` with the same
  receiver ``<r>`` as ``<r>.zero_grad()``, ``scaler.step(<r>)``, or, for a
  module clear ``<m>.zero_grad()``, the step of an optimizer built in the same
  file from ``<m>.parameters()``. The step must be in the same function as the
  clear, and a backward must precede it (in an earlier statement of its block or
  of an enclosing block of the same function; a function defined there is not a
  backward, even when its body calls one). Clears inside closures passed to
  ``optimizer.step(closure)`` are therefore never moved, and neither are clears whose
  step's only backward runs in such a closure.
* Statements sharing a line with another statement (``a(); b()``) are left alone.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass

_NOT_OPTIMIZER_RECEIVERS = re.compile(r"(sched|env|lr_)", re.IGNORECASE)
_BACKWARD_NAMES = frozenset({"backward", "manual_backward"})


@dataclass(frozen=True)
class Mutant:
    """One injected bug: ``kind`` is ``delete`` or ``move``; ``expected`` the code it must raise."""

    kind: str
    line: int  # 1-based line of the clear in the original text
    expected: str
    source: str

    @property
    def ident(self) -> str:
        return f"{self.kind}@{self.line}"


@dataclass(frozen=True)
class _Clear:
    stmt: ast.stmt
    receiver: str
    function: ast.AST | None
    if_arms: frozenset[tuple[int, str]]  # (id of an enclosing ``if``, arm) pairs

    def exclusive_with(self, other: _Clear) -> bool:
        """Whether the two clears sit in different arms of one ``if`` (never both run)."""
        mine = dict(self.if_arms)
        return any(if_id in mine and mine[if_id] != arm for if_id, arm in other.if_arms)


def _call_of(stmt: ast.stmt) -> ast.Call | None:
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        return stmt.value
    return None


def _receiver_text(source: str, node: ast.expr) -> str:
    return ast.get_source_segment(source, node) or ""


def _clear_receiver(source: str, stmt: ast.stmt) -> str | None:
    call = _call_of(stmt)
    if call is not None:
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr == "zero_grad":
            return _receiver_text(source, func.value)
        return None
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
        target = stmt.targets[0]
        value = stmt.value
        if (
            isinstance(target, ast.Attribute)
            and target.attr == "grad"
            and isinstance(value, ast.Constant)
            and value.value is None
        ):
            return _receiver_text(source, target.value)
    return None


def _callee_name(call: ast.Call) -> str:
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    if isinstance(call.func, ast.Name):
        return call.func.id
    return ""


def _is_backward(node: ast.AST) -> bool:
    """Whether ``node`` (a statement) runs a backward: a call outside nested functions.
    A definition runs nothing: a closure defined before ``opt.step(closure=...)`` runs its
    backward inside the step, so a clear moved before that step is still before the
    backward (not a ZG102)."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return False
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, ast.Call) and _callee_name(current) in _BACKWARD_NAMES:
            return True
        for child in ast.iter_child_nodes(current):
            if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                stack.append(child)
    return False


def _step_optimizer(source: str, stmt: ast.stmt) -> str | None:
    """The receiver text of an optimizer step statement, or None."""
    call = _call_of(stmt)
    if call is None or not isinstance(call.func, ast.Attribute) or call.func.attr != "step":
        return None
    receiver = _receiver_text(source, call.func.value)
    if "scaler" in receiver.lower() and call.args:
        return _receiver_text(source, call.args[0])
    if _NOT_OPTIMIZER_RECEIVERS.search(receiver):
        return None
    return receiver


def _optimizers_built_from(source: str, tree: ast.Module, module: str) -> set[str]:
    """Names assigned an optimizer-like call whose arguments mention ``<module>.parameters()``."""
    needle = f"{module}.parameters()"
    names: set[str] = set()
    for node in ast.walk(tree):
        is_call_assignment = isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
        if is_call_assignment and needle in _receiver_text(source, node.value):
            names.update(_receiver_text(source, t) for t in node.targets)
    return names


def _sub_blocks(stmt: ast.stmt) -> Iterator[tuple[str, list[ast.stmt]]]:
    """The statement lists nested in ``stmt``, each named by the arm it forms."""
    for field in ("body", "orelse", "finalbody"):
        children = getattr(stmt, field, None)
        if children:
            yield field, children
    for number, handler in enumerate(getattr(stmt, "handlers", ())):
        yield f"handler{number}", handler.body
    for number, case in enumerate(getattr(stmt, "cases", ())):
        yield f"case{number}", case.body


def _functions_and_blocks(
    tree: ast.Module,
) -> Iterator[tuple[ast.AST | None, list[ast.stmt], list]]:
    """Yield (enclosing function, statement list, chain of (block, index, arm) ancestors).

    The chain lists the enclosing blocks inside the same function, outermost first,
    each with the index of the compound statement that contains the current block
    and the arm of that statement (``body``, ``orelse``, ...) the block belongs to.
    """

    def visit(function: ast.AST | None, body: list[ast.stmt], chain: list) -> Iterator:
        yield function, body, chain
        for index, stmt in enumerate(body):
            for arm, block in _sub_blocks(stmt):
                if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    yield from visit(stmt, block, [])
                else:
                    yield from visit(function, block, [*chain, (body, index, arm)])

    yield from visit(None, tree.body, [])


def _shares_line(stmt: ast.stmt, all_statements: list[ast.stmt]) -> bool:
    """Whether another statement (or a compound statement's header) is on ``stmt``'s lines."""
    first, last = stmt.lineno, stmt.end_lineno or stmt.lineno
    for other in all_statements:
        if other is stmt:
            continue
        if any(True for _ in _sub_blocks(other)):
            if first <= other.lineno <= last:
                return True
            continue
        if other.lineno <= last and (other.end_lineno or other.lineno) >= first:
            return True
    return False


def _replace_lines(lines: list[str], stmt: ast.stmt, replacement: str) -> list[str]:
    indent = lines[stmt.lineno - 1][: stmt.col_offset]
    end = stmt.end_lineno or stmt.lineno
    return [*lines[: stmt.lineno - 1], f"{indent}{replacement}\n", *lines[end:]]


def _clear_text(source: str, stmt: ast.stmt) -> str:
    return ast.get_source_segment(source, stmt) or ""


def mutants(source: str) -> list[Mutant]:
    """All honest mutants of ``source`` (see the module docstring)."""
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    all_statements = [node for node in ast.walk(tree) if isinstance(node, ast.stmt)]
    clears: list[_Clear] = []
    steps: list[tuple[ast.AST | None, ast.stmt, str, list[ast.stmt], int, list]] = []
    for function, body, chain in _functions_and_blocks(tree):
        for index, stmt in enumerate(body):
            receiver = _clear_receiver(source, stmt)
            if receiver is not None and not _shares_line(stmt, all_statements):
                if_arms = frozenset(
                    (id(block[i]), arm) for block, i, arm in chain if isinstance(block[i], ast.If)
                )
                clears.append(_Clear(stmt, receiver, function, if_arms))
            optimizer = _step_optimizer(source, stmt)
            if optimizer is not None and not _shares_line(stmt, all_statements):
                steps.append((function, stmt, optimizer, body, index, chain))

    result: list[Mutant] = []
    for clear in clears:
        original_line = lines[clear.stmt.lineno - 1]
        if "# no-inject:" not in original_line and not _cleared_elsewhere(clear, clears):
            deleted = _replace_lines(lines, clear.stmt, "pass")
            result.append(Mutant("delete", clear.stmt.lineno, "ZG101", "".join(deleted)))

        served = {clear.receiver} | _optimizers_built_from(source, tree, clear.receiver)
        for function, step, optimizer, body, index, chain in steps:
            if function is not clear.function or optimizer not in served:
                continue
            if not _backward_precedes(body, index, chain):
                continue
            result.append(_move(lines, source, clear.stmt, step))
            break
    return result


def _cleared_elsewhere(clear: _Clear, clears: list[_Clear]) -> bool:
    return any(
        other is not clear
        and other.receiver == clear.receiver
        and other.function is clear.function
        and not other.exclusive_with(clear)
        for other in clears
    )


def _backward_precedes(body: list[ast.stmt], index: int, chain: list) -> bool:
    if any(_is_backward(stmt) for stmt in body[:index]):
        return True
    return any(any(_is_backward(s) for s in block[:i]) for block, i, _ in reversed(chain))


def _move(lines: list[str], source: str, clear: ast.stmt, step: ast.stmt) -> Mutant:
    text = _clear_text(source, clear)
    step_indent = lines[step.lineno - 1][: step.col_offset]
    moved = [f"{step_indent}{line.strip()}\n" for line in text.splitlines()]
    new_lines = list(lines)
    insert_at = step.lineno - 1
    new_lines[insert_at:insert_at] = moved
    # Remove the original clear (its lines shift if it came after the step).
    offset = len(moved) if clear.lineno > step.lineno else 0
    start = clear.lineno - 1 + offset
    end = (clear.end_lineno or clear.lineno) + offset
    indent = new_lines[start][: clear.col_offset]
    new_lines[start:end] = [f"{indent}pass\n"]
    return Mutant("move", clear.lineno, "ZG102", "".join(new_lines))
