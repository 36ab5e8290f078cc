"""An optimizer class of the project whose ``zero_grad()`` clears nothing, or whose
``step()`` applies no gradient.

An optimizer wrapper of the project (SlowFast's ``LARS``, a course's hand-written
``Optimizer``, a learning-rate wrapper) forwards ``zero_grad()`` to what it wraps. When
its body does nothing at all (``pass``, a docstring, ``...``, ``return``), a loop calling
``optimizer.zero_grad()`` on it never clears: the call is trusted by its name everywhere
else, so this is the one place that reads the method instead.

Precision first: the method's emptiness is read from its code, and the class must show
it applies gradients (its ``step()`` steps something or reads ``.grad``; a test double's
``step()`` that counts calls does not) and must clear nowhere else (no other method of it
or of its bases names a clear: a wrapper whose ``step()`` clears after stepping, or whose
``backward()`` clears first, keeps its empty ``zero_grad()`` on purpose). A base class
this file cannot read may clear: then nothing is concluded.

A ``step()`` applies no gradient when nothing in the class reads one (DeepRobust's
``PGD``, a proximal step: ``param.data = prox(param.data, ...)``): no ``.grad``, no
closure called, no other ``step()``. Its ``zero_grad(); step()`` after another
optimizer's step over the same parameters is correct, not a step of discarded gradients.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import libcst as cst

from zerograd_guard.lint.model.program import ClassInfo, FunctionModel

# Any text of a method that may clear gradients (a call, an assignment, a helper's name).
_CLEARS = re.compile(
    r"zero_grad|clear_grad|reset_grad|set_to_none|\.grad(?:\.data)?\s*=(?!=)"
    r"|\bgrad(?:\.data)?\.(?:zero_\(|(?:fill_|mul_)\(\s*0(?:\.0*)?\s*\))"
)
# What shows a ``step()`` applies gradients: it steps an optimizer or reads ``.grad``.
_APPLIES = re.compile(r"\.step\s*\(|\.grad\b")


def inert_zero_grad(
    mro: list[ClassInfo],
    unread_bases: bool,
    code: Callable[[cst.CSTNode], str],
) -> FunctionModel | None:
    """The ``zero_grad`` method of the class whose method resolution order (the classes
    this file can read) is ``mro``, when it clears nothing and the class applies
    gradients and clears nowhere else; None otherwise. ``unread_bases``: some base is a
    class this file cannot read (nothing is concluded); ``code``: a node's text."""
    if unread_bases:
        return None
    zero_grad = _first(mro, "zero_grad")
    step = _first(mro, "step")
    if zero_grad is None or step is None or not _empty(zero_grad.node):
        return None
    if not _APPLIES.search(_uncommented(code(step.node))):
        return None
    for info in mro:
        for method in info.methods.values():
            if method is not zero_grad and _CLEARS.search(_uncommented(code(method.node))):
                return None
    return zero_grad


# What shows a class may use gradients anywhere: a read of ``.grad`` (not
# ``torch.autograd.grad``), a closure called, another step.
_USES_GRADIENTS = re.compile(r"(?<!autograd)\.grad\b|\bclosure\s*\(|\.step\s*\(")


def gradient_free_step(
    mro: list[ClassInfo],
    unread_bases: bool,
    code: Callable[[cst.CSTNode], str],
) -> FunctionModel | None:
    """The ``step`` method of the class of method resolution order ``mro`` when no method
    of it may use a gradient (``_USES_GRADIENTS``); None otherwise, or when some base
    cannot be read (``unread_bases``). A base of ``torch.optim`` only adds its
    ``zero_grad()``, which clears."""
    if unread_bases:
        return None
    step = _first(mro, "step")
    if step is None:
        return None
    for info in mro:
        for method in info.methods.values():
            if _USES_GRADIENTS.search(_uncommented(code(method.node))):
                return None
    return step


_COMMENT = re.compile(r"#[^\n]*")


def _uncommented(text: str) -> str:
    """``text`` without its comments (a line of code commented out is not code: DeepRobust's
    ``PGD.step`` keeps ``# param.data.add_(lr, -param.grad.data)``)."""
    return _COMMENT.sub("", text)


def _first(mro: list[ClassInfo], name: str) -> FunctionModel | None:
    for info in mro:
        if name in info.methods:
            return info.methods[name]
    return None


def _empty(node: cst.CSTNode) -> bool:
    """Whether a ``def``'s body, past its docstring, only passes or returns nothing."""
    if type(node) is not cst.FunctionDef or node.decorators:
        return False
    body = node.body
    lines = [body] if type(body) is cst.SimpleStatementSuite else list(body.body)
    for line in lines:
        if type(line) not in (cst.SimpleStatementLine, cst.SimpleStatementSuite):
            return False
        for small in line.body:  # type: ignore[attr-defined]
            if type(small) is cst.Pass:
                continue
            if type(small) is cst.Return and (
                small.value is None
                or (type(small.value) is cst.Name and small.value.value == "None")
            ):
                continue
            if type(small) is cst.Expr and type(small.value) in (
                cst.Ellipsis,
                cst.SimpleString,
                cst.ConcatenatedString,
            ):
                continue
            return False
    return True
