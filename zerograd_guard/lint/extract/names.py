"""Expression keys, name patterns and condition atoms; no libcst metadata providers."""

from __future__ import annotations

import collections.abc
import dataclasses
import functools
import re
import typing
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import libcst as cst

from zerograd_guard.lint.model.events import Atom, Loop
from zerograd_guard.lint.model.program import ClassInfo
from zerograd_guard.lint.module_methods import MOVES

_SKIPPED_FIELDS = ("whitespace", "lpar", "rpar", "comma", "semicolon", "bracket", "brace")
_SKIPPED_NAMES = ("operator", "equal", "star", "colon", "dot", "attr")
# per node type: (field, holds a sequence of nodes) for the fields that may hold nodes
_CHILD_FIELDS: dict[type, tuple[tuple[str, bool], ...]] = {}


def _holds_nodes(annotation: object) -> bool:
    """Whether a field annotated ``annotation`` can hold a libcst node."""
    if isinstance(annotation, type):
        return issubclass(annotation, cst.CSTNode)
    return any(_holds_nodes(arg) for arg in typing.get_args(annotation))


def _child_fields(node_type: type) -> tuple[tuple[str, bool], ...]:
    fields = _CHILD_FIELDS.get(node_type)
    if fields is None:
        fields = tuple(
            (f.name, typing.get_origin(f.type) is collections.abc.Sequence)
            for f in dataclasses.fields(node_type)
            if not any(part in f.name for part in _SKIPPED_FIELDS)
            and f.name not in _SKIPPED_NAMES
            and _holds_nodes(f.type)
        )
        _CHILD_FIELDS[node_type] = fields
    return fields


_IS_NODE: dict[type, bool] = {}


def _is_node(value: object) -> bool:
    """``isinstance(value, cst.CSTNode)`` without the abstract-base-class check, which is
    slow when it fails (libcst's node classes are ABCs)."""
    kind = type(value)
    known = _IS_NODE.get(kind)
    if known is None:
        known = _IS_NODE[kind] = issubclass(kind, cst.CSTNode)
    return known


def subnodes(node: cst.CSTNode) -> list[cst.CSTNode]:
    """The child nodes of ``node`` that can hold expressions (no whitespace, brackets,
    commas or operators), read through a per-type table of its fields."""
    found: list[cst.CSTNode] = []
    for name, many in _child_fields(type(node)):
        value = getattr(node, name)
        if many:
            found.extend(value)
        elif value is not None and _is_node(value):  # may be a sentinel
            found.append(value)
    return found


# compared by ``type(node) in LEAVES``: ``isinstance`` on libcst's ABC node classes is slow
LEAVES = frozenset(
    {cst.Name, cst.Integer, cst.Float, cst.SimpleString, cst.Imaginary, cst.Ellipsis}
)


@dataclass(frozen=True)
class TupleElement:
    """Element ``index`` of what ``value`` returns (``self.a, self.b = f()``)."""

    index: int
    value: cst.BaseExpression


OPTIMIZER_NAME = re.compile(
    r"[oO]ptimi[sz]er|(?:^|_)(?:opt|opti|optim|opts|optims|OPT|OPTIM)(?:_|\d|$)"
    r"|^(?:opt|optim)[A-Z_]|[a-z0-9_](?:Opt|Optim)s?$"
)
NOT_OPTIMIZER_NAME = re.compile(r"sched|scheduler|env|lr_|warmup|scaler|ema|swa_", re.I)
SCALER_NAME = re.compile(r"scaler$", re.I)
OPTIMIZER_CLASSES = frozenset(
    {
        "Adam", "AdamW", "SGD", "RMSprop", "Adagrad", "Adadelta", "Adamax", "NAdam", "RAdam",
        "ASGD", "Rprop", "LBFGS", "SparseAdam", "Adafactor", "Lion", "LAMB", "Lamb", "LARS",
        "FusedAdam", "FusedLAMB", "FusedSGD", "DeepSpeedCPUAdam", "AdamW8bit", "Adam8bit",
        "PagedAdamW", "PagedAdamW8bit", "ZeroRedundancyOptimizer", "Adan", "Sophia", "Shampoo",
        "SAM", "Lookahead", "AdaBelief", "AdaHessian", "Muon", "SGDW", "Novograd", "AdaBound",
    }
)  # fmt: skip


def unmoved(value: cst.BaseExpression) -> cst.BaseExpression:
    """``value`` without the ``MOVES`` calls on it (``Net().cuda().train()``: ``Net()``)."""
    while (
        type(value) is cst.Call
        and type(value.func) is cst.Attribute
        and value.func.attr.value in MOVES
    ):
        value = value.func.value
    return value


OPTIMIZER_FACTORY = re.compile(r"(?:^|_)(?:optim|optimizer|optimiser)s?(?:_|$)|Optimizer$", re.I)
SCHEDULER_FACTORY = re.compile(r"sched|LR$|lr_|warmup|Scheduler", re.I)
CLEARISH_CALL = re.compile(r"zero_grad|clear_grad|reset_grad|zero_grads|clear_grads", re.I)
CLIPPING_CALL = re.compile(r"^(clip|clamp)_grad", re.I)
"""Helpers that rescale or clamp gradients (``clip_gradient(optimizer, c)``, a common
hand-written helper in a project's utils): handed an optimizer, they neither clear nor
step it."""
CONFIGURED_STEP = "<configured-step>"
"""``callee_name`` of a STEP event of an ``extend-step-calls`` name: it steps the optimizer
it is handed, or, when none resolves, an unknown one (see ``flow.engine``)."""
GRAD_WRITE = "<writes-grads>"
"""``callee_name`` of a HAVOC event for an unknown call that may write gradients."""
WRITTEN_GRAD = "<written-grads>"
"""``callee_name`` of the HAVOC event of ``p.grad = value`` (gradients written by hand)
for the parameters of ``modules``: of the module a loop over its ``parameters()`` walks,
or a tensor the function made. What an optimizer over them applies becomes unknown; the
others' gradients are untouched."""
REBUILT_OPTIMIZER = "<rebuilt-optimizer>"
"""``callee_name`` of the HAVOC event of an optimizer built inside a loop (a new learning
rate per step): the new object has applied nothing, but its parameters keep ``.grad``."""
NEW_LEAF = "<new-leaf>"
"""``callee_name`` of the CLEAR event of a name bound to a new tensor (``b =
torch.zeros(..., requires_grad=True)``): the new leaf has no gradient. Kept by resolution
only for names the file updates by hand (``b -= lr * b.grad``)."""
REBOUND_MODULE = "<rebound-module>"
"""``callee_name`` of the HAVOC event of a name bound again to a new object of a class
(``net = nn.Linear(2, 2)`` after an earlier ``net = ...``, a notebook's next example):
its parameters are new, so what the old ones' optimizers and updates did to their
gradients says nothing of them (``names``: the rebound name)."""
INPUT_GRAD = "<input-grad>"
"""``callee_name`` of the READ event of ``x.grad`` where ``x`` is a tensor the function
made (``x_adv = x.clone()``, ``delta = torch.zeros_like(X)``): an input's gradient, which
only an optimizer known to step ``x`` holds (not the model's optimizer)."""
GRAD_SCALE = "<scales-grads>"
"""``callee_name`` of a HAVOC event that scales gradients in place by a factor that is not
zero (clipping, normalisation, a decay): neither a clear nor a step, but gradients a step
applied and that are then scaled are carried on purpose."""
RESTORED_PARAMETERS = "<restores-parameters>"
"""``callee_name`` of a HAVOC event that puts saved values back into parameters
(``net.set_params(old)``, ``model.load_state_dict(saved)``, ``vector_to_parameters``):
a step before it was a lookahead, and the gradients it applied are applied again from
the restored weights on purpose, like scaled ones (``GRAD_SCALE``)."""
RESTORING_METHODS = frozenset({"set_params", "load_state_dict"})
RESTORING_FUNCTIONS = frozenset({"vector_to_parameters"})
GRAD_WRITING_CALL = re.compile(r"grad|backward", re.I)
NOT_GRAD_WRITING_CALLS = frozenset(
    {"grad", "no_grad", "enable_grad", "set_grad_enabled", "requires_grad_", "inference_mode"}
)
GRAD_HOLDER_NAME = re.compile(r"grad|param", re.I)
# names of a window's making; ``update`` also names warm-up switches and NaN guards
# (``update = torch.isfinite(loss)``), so alone it says less (``names_a_window``)
_WINDOW_WORDS = r"accum|sync|should_step|do_step|is_last|last_micro|micro|boundary"
ACCUMULATION_NAME = re.compile(_WINDOW_WORDS + r"|update", re.I)
_WINDOW_SOURCE = re.compile(_WINDOW_WORDS, re.I)


@functools.lru_cache(maxsize=16384)
def matches(pattern: re.Pattern[str], name: str) -> bool:
    """``pattern.search(name)``, remembered: the same few names are tested again and again."""
    return pattern.search(name) is not None


def decorated_with(node: cst.FunctionDef, name: str) -> bool:
    """Whether ``node`` is decorated ``@name`` (or ``@module.name``)."""
    for decorator in node.decorators:
        target = decorator.decorator
        if type(target) is cst.Attribute:
            target = target.attr
        if type(target) is cst.Name and target.value == name:
            return True
    return False


def key_of(node: cst.CSTNode | None) -> str | None:
    """``self.opt`` / ``opts[0]`` / ``x`` for simple expressions, else None."""
    if type(node) is cst.Name:
        return node.value
    if type(node) is cst.Attribute:
        base = key_of(node.value)
        return None if base is None else f"{base}.{node.attr.value}"
    if type(node) is cst.Subscript and len(node.slice) == 1:
        base = key_of(node.value)
        index = node.slice[0].slice
        if base is not None and type(index) is cst.Index:
            value = index.value
            if type(value) in (cst.Integer, cst.SimpleString, cst.Name):
                return f"{base}[{value.value}]"
    return None


def expression_text(node: Any, fallback: Callable[[cst.CSTNode], str]) -> str:
    """Text identifying an expression whatever its spacing: ``a.b(1) > 0`` for the usual
    shapes of branch conditions, built from the tree with every operation bracketed;
    ``fallback`` (normalised source code, which costs a code-generation pass) for the rest."""
    kind = type(node)
    if kind in _LITERALS:
        return node.value
    if kind is cst.Attribute:
        return f"{expression_text(node.value, fallback)}.{node.attr.value}"
    if kind is cst.Call:
        args = ", ".join(
            f"{arg.star}{arg.keyword.value + '=' if arg.keyword else ''}"
            f"{expression_text(arg.value, fallback)}"
            for arg in node.args
        )
        return f"{expression_text(node.func, fallback)}({args})"
    if kind is cst.UnaryOperation:
        operand = expression_text(node.expression, fallback)
        return f"({type(node.operator).__name__} {operand})"
    if kind in (cst.BinaryOperation, cst.BooleanOperation):
        left = expression_text(node.left, fallback)
        right = expression_text(node.right, fallback)
        return f"({left} {type(node.operator).__name__} {right})"
    if kind is cst.Comparison:
        parts = [expression_text(node.left, fallback)]
        for target in node.comparisons:
            parts += [type(target.operator).__name__, expression_text(target.comparator, fallback)]
        return f"({' '.join(parts)})"
    return f"<{fallback(node)}>"


_LITERALS = frozenset({cst.Name, cst.Integer, cst.Float, cst.SimpleString})


@functools.lru_cache(maxsize=4096)  # the same few names, asked about again and again
def last_segment(key: str) -> str:
    return key.rsplit(".", 1)[-1].split("[", 1)[0]


def callee_name(func: cst.BaseExpression) -> str | None:
    """Final name of a call's function: ``Adam`` for ``torch.optim.Adam``."""
    if type(func) is cst.Name:
        return func.value
    if type(func) is cst.Attribute:
        return func.attr.value
    return None


# A container of optimizers, by its name: an attribute read on it is one of its items
# (``optims.discriminator`` of a Munch or EasyDict; stargan-v2).
OPTIMIZER_CONTAINER_NAME = re.compile(r"(?:optimizers|optimisers|optims|opts)", re.I)
# What an optimizer has (read on a parameter, nothing else may be: ``resolve``).
OPTIMIZER_ATTRIBUTES = frozenset(
    {"zero_grad", "step", "state_dict", "load_state_dict", "param_groups", "add_param_group",
     "defaults", "state"}
)  # fmt: skip
# What an optimizer or a container itself has: read on a container, not one of its items.
_CONTAINER_MEMBERS = OPTIMIZER_ATTRIBUTES | {"values", "items", "keys", "get", "append", "update"}


@functools.lru_cache(maxsize=4096)
def looks_like_optimizer(key: str) -> bool:
    name = last_segment(key)
    if matches(NOT_OPTIMIZER_NAME, name):
        return False
    if matches(OPTIMIZER_NAME, name):
        return True
    parent, dot, last = key.rpartition(".")
    return (
        bool(dot)
        and last.isidentifier()
        and last not in _CONTAINER_MEMBERS
        and OPTIMIZER_CONTAINER_NAME.fullmatch(last_segment(parent)) is not None
    )


def names_in(node: cst.CSTNode) -> frozenset[str]:
    """Root names read by an expression (``self.step`` reads ``self.step``)."""
    found: set[str] = set()
    stack: list[cst.CSTNode] = [node]
    while stack:
        item = stack.pop()
        key = key_of(item)
        if key is not None and type(item) in (cst.Name, cst.Attribute):
            found.add(key)
            found.add(key.split(".", 1)[0])
            continue
        if type(item) not in LEAVES:
            stack.extend(subnodes(item))
    return frozenset(found)


def _is_zero(node: cst.BaseExpression) -> bool:
    return type(node) is cst.Integer and node.value == "0"


def _modulo(node: cst.BaseExpression) -> tuple[str, str, bool] | None:
    """``(i + 1) % k`` -> (i, k, True); ``i % k`` -> (i, k, False)."""
    if not (type(node) is cst.BinaryOperation and type(node.operator) is cst.Modulo):
        return None
    divisor = key_of(node.right) or (node.right.value if type(node.right) is cst.Integer else None)
    if divisor is None:
        return None
    left = node.left
    if type(left) is cst.BinaryOperation and type(left.operator) is cst.Add:
        if type(left.right) is cst.Integer and left.right.value == "1":
            counter = key_of(left.left)
            return None if counter is None else (counter, divisor, True)
        return None
    counter = key_of(left)
    return None if counter is None else (counter, divisor, False)


def condition_atom(
    test: cst.BaseExpression, source_key: Callable[[cst.BaseExpression], str]
) -> tuple[Atom, bool]:
    """The atom a branch tests and whether the branch is taken when the atom is false.

    ``source_key`` gives the normalised code of an expression (the key of conditions
    that are not accumulation windows); it is applied after leading ``not``s are removed.
    """
    negated = False
    while type(test) is cst.UnaryOperation and type(test.operator) is cst.Not:
        negated = not negated
        test = test.expression
    window = _window(test)
    if window is not None:
        (kind, counter, divisor), window_negated = window
        return (
            Atom(
                key=(kind, counter, divisor),
                names=frozenset({counter, counter.split(".", 1)[0]}),
                accumulation=True,
                counter=counter,
            ),
            negated != window_negated,
        )
    test, negated = _more_than_one(test, negated)
    test, negated = _canonical_comparison(test, negated)
    names = names_in(test)
    accumulation = _has_modulo(test) or any(matches(ACCUMULATION_NAME, n) for n in names)
    return Atom(key=source_key(test), names=names, accumulation=accumulation), negated


# A comparison and the one it negates share a key: ``x <= 1`` is ``not x > 1``.
_COMPLEMENTS: dict[type, type] = {
    cst.LessThanEqual: cst.GreaterThan,
    cst.GreaterThanEqual: cst.LessThan,
    cst.NotEqual: cst.Equal,
    cst.IsNot: cst.Is,
    cst.NotIn: cst.In,
}


# The number of micro-batches per step, as a setting names it (a count, never a counter).
_ACCUMULATION_COUNT = re.compile(
    r"^(?:grad(?:ient)?_)?accum(?:ulation|ulate)?_(?:count|steps|size|freq|every|iters?|num)$"
    r"|^(?:n|num)_accum(?:ulation)?(?:_steps)?$",
    re.I,
)


def _more_than_one(test: cst.BaseExpression, negated: bool) -> tuple[cst.BaseExpression, bool]:
    """``accum_count == 1`` as ``accum_count > 1`` negated, and ``!= 1`` as ``> 1``: a
    number of micro-batches per step is at least 1, so branches on either test are
    correlated (PreSumm's ``if self.grad_accum_count > 1:`` around its loop and ``== 1``
    inside it: no path takes both, or neither)."""
    if type(test) is not cst.Comparison or len(test.comparisons) != 1:
        return test, negated
    target = test.comparisons[0]
    equal = type(target.operator) is cst.Equal
    if not (equal or type(target.operator) is cst.NotEqual):
        return test, negated
    if type(target.comparator) is not cst.Integer or target.comparator.value != "1":
        return test, negated
    key = key_of(test.left)
    if key is None or not _ACCUMULATION_COUNT.search(key.rsplit(".", 1)[-1]):
        return test, negated
    more = cst.ComparisonTarget(operator=cst.GreaterThan(), comparator=target.comparator)
    return test.with_changes(comparisons=[more]), negated != equal


def _canonical_comparison(
    test: cst.BaseExpression, negated: bool
) -> tuple[cst.BaseExpression, bool]:
    """``a <= b`` as ``a > b`` negated (and ``>=``, ``!=``, ``is not``, ``not in`` alike),
    so that a branch on a comparison and one on its complement are correlated."""
    if type(test) is not cst.Comparison or len(test.comparisons) != 1:
        return test, negated
    target = test.comparisons[0]
    complement = _COMPLEMENTS.get(type(target.operator))
    if complement is None:
        return test, negated
    operator = target.operator
    flipped = complement(
        whitespace_before=operator.whitespace_before,  # type: ignore[attr-defined]
        whitespace_after=operator.whitespace_after,  # type: ignore[attr-defined]
    )
    return test.with_changes(comparisons=[target.with_changes(operator=flipped)]), not negated


# calls that only test a value: a flag computed with them is no window of unknown making
_TESTS = frozenset({"isfinite", "isnan", "isinf", "all", "any", "item", "bool", "len"})


def names_a_window(name: str) -> bool:
    """Whether ``name`` says accumulation by more than ``update``."""
    return _WINDOW_SOURCE.search(name) is not None


def names_a_window_source(value: cst.BaseExpression) -> bool:
    """Whether ``value`` computes a window: a modulo, or a name of a window's making."""
    stack: list[cst.CSTNode] = [value]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is cst.BinaryOperation and type(item.operator) is cst.Modulo:  # type: ignore[attr-defined]
            return True
        if kind is cst.Name and _WINDOW_SOURCE.search(item.value):  # type: ignore[attr-defined]
            return True
        if kind is cst.Attribute and _WINDOW_SOURCE.search(item.attr.value):  # type: ignore[attr-defined]
            return True
        if kind not in LEAVES:
            stack.extend(subnodes(item))
    return False


def computed_apart_from_windows(values: Sequence[cst.BaseExpression]) -> bool:
    """Whether a flag bound to ``values`` (all of its bindings so far) is known not to
    mark an accumulation window: no modulo, no name of a window's making (``accum``,
    ``sync``, ``micro``...), and no call other than value tests (``isfinite``)."""
    return bool(values) and not any(
        names_a_window_source(value) or _calls_beyond_tests(value) for value in values
    )


def _calls_beyond_tests(value: cst.BaseExpression) -> bool:
    stack: list[cst.CSTNode] = [value]
    while stack:
        item = stack.pop()
        if type(item) is cst.Call and callee_name(item.func) not in _TESTS:  # type: ignore[attr-defined]
            return True
        if type(item) not in LEAVES:
            stack.extend(subnodes(item))
    return False


def _has_modulo(node: cst.CSTNode) -> bool:
    stack = [node]
    while stack:
        item = stack.pop()
        if type(item) is cst.BinaryOperation and type(item.operator) is cst.Modulo:
            return True
        if type(item) not in LEAVES:
            stack.extend(subnodes(item))
    return False


def _is_divisor_minus_one(node: cst.BaseExpression, divisor: str) -> bool:
    """``k - 1`` for the divisor ``k`` (or ``3`` for the divisor ``4``)."""
    if type(node) is cst.Integer:
        return divisor.isdigit() and int(node.value, 0) == int(divisor) - 1
    return (
        type(node) is cst.BinaryOperation
        and type(node.operator) is cst.Subtract
        and key_of(node.left) == divisor
        and type(node.right) is cst.Integer
        and node.right.value == "1"
    )


def _window(test: cst.BaseExpression) -> tuple[tuple[str, str, str], bool] | None:
    """``(i+1) % k == 0`` -> (("end", i, k), False); ``i % k != 0`` -> (("start", i, k), True);
    a bare ``(i + 1) % k`` is true when the window does not end."""
    mod = _modulo(test)
    if mod is not None:
        counter, divisor, plus_one = mod
        return (("end" if plus_one else "start", counter, divisor), True)
    if type(test) is not cst.Comparison or len(test.comparisons) != 1:
        return None
    target = test.comparisons[0]
    mod = _modulo(test.left)
    if mod is None:
        return None
    counter, divisor, plus_one = mod
    if not plus_one and _is_divisor_minus_one(target.comparator, divisor):
        plus_one = True  # ``i % k == k - 1`` is ``(i + 1) % k == 0``
    elif not _is_zero(target.comparator):
        return None
    if type(target.operator) in (cst.Equal, cst.Is):
        negated = False
    elif type(target.operator) in (cst.NotEqual, cst.IsNot):
        negated = True
    else:
        return None
    return (("end" if plus_one else "start", counter, divisor), negated)


# calls that return a new tensor (a leaf when ``requires_grad=True``), no view of another
_TENSOR_FACTORIES = frozenset(
    {
        "zeros", "ones", "empty", "full", "rand", "randn", "randint", "tensor", "eye",
        "arange", "linspace", "normal", "zeros_like", "ones_like", "empty_like",
        "full_like", "rand_like", "randn_like", "Parameter", "Variable", "Tensor",
        "FloatTensor", "DoubleTensor", "from_numpy", "as_tensor",
    }
)  # fmt: skip
# methods that return their tensor converted, marked or filled in place (the same object
# or a copy): ``torch.zeros_like(x).uniform_(-eps, eps).cuda()`` is a new tensor
_TENSOR_CONVERSIONS = frozenset(
    {"requires_grad_", "to", "cuda", "float", "double", "uniform_", "normal_", "fill_"}
)
# methods that return a new tensor object, whatever they are called on
_TENSOR_COPIES = frozenset({"clone", "detach"})
_TENSOR_CHAIN = _TENSOR_CONVERSIONS | _TENSOR_COPIES


def tensor_factory(value: cst.BaseExpression) -> str | None:
    """What makes ``value`` a new tensor, whose ``.grad`` is None: the callee as written
    of ``torch.zeros(...)``, ``Variable(...)``, ``nn.Parameter(...)``, also followed by
    ``.requires_grad_()`` or ``.to(...)`` (that the callee is PyTorch's is checked
    against the imports by resolution); ``""`` for a copy (``x.detach().clone()``);
    None when it is not known to be new."""
    copied = False
    while (
        type(value) is cst.Call
        and type(value.func) is cst.Attribute
        and value.func.attr.value in _TENSOR_CHAIN
    ):
        copied = copied or value.func.attr.value in _TENSOR_COPIES
        value = value.func.value
    if copied:
        return ""
    if type(value) is not cst.Call:
        return None
    func = value.func
    name = func.attr.value if type(func) is cst.Attribute else getattr(func, "value", None)
    if name not in _TENSOR_FACTORIES:
        return None
    return key_of(func)


def from_torch(callee: str, imports: dict[str, str]) -> bool:
    """Whether ``callee`` as written (``torch.zeros``, ``t.rand``, ``Variable``) is
    PyTorch's: the name it starts from is imported from ``torch``."""
    return imports.get(root_of(callee), "").split(".", 1)[0] == "torch"


def may_write_grads(call: cst.Call, name: str) -> bool:
    """An unknown call that may write ``.grad`` (PCGrad's ``pc_backward(losses)``, MGDA's
    ``set_grads(model, grads)``): named after gradients, or handed gradients/parameters."""
    if name in NOT_GRAD_WRITING_CALLS:
        return False
    if matches(GRAD_WRITING_CALL, name):
        return True
    return any(
        matches(GRAD_HOLDER_NAME, last_segment(key))
        for arg in call.args
        for key in names_in(arg.value)
    )


Handed = tuple[str, str | None, int | str | None]
"""A value a loop hands to a call: its key as written (``cfg``, ``cfg.optim``), the
callee as written (``evaluation``, ``utils.save``; None for a method called on the value
itself) and the parameter slot it lands in (a position, a keyword; None after ``*``)."""


def root_of(key: str) -> str:
    """The name a key starts from: ``cfg`` of ``cfg.optim.lr`` and of ``cfgs[0].lr``."""
    return key.partition(".")[0].partition("[")[0]


def handed_on(loop: Loop) -> dict[str, frozenset[Handed]]:
    """What ``loop``'s body hands to calls, whose value the call may change: receivers of
    the methods it calls and what it passes (as written: ``cfg.optim`` of
    ``update(cfg.optim)``, ``cfg`` of ``update(cfg)``), each with the call and slot, by
    the name each key starts from (``root_of``: a key read from another starts from the
    same name). Computed once per loop, from its syntax (calls the extractor drops as
    harmless count too)."""
    if loop.handed is None:
        found: set[Handed] = set()
        stack: list[cst.CSTNode] = [loop.node]
        while stack:
            item = stack.pop()
            if type(item) is cst.Call:
                callee = key_of(item.func)
                if type(item.func) is cst.Attribute:
                    receiver = key_of(item.func.value)
                    if receiver is not None:
                        found.add((receiver, None, None))
                position: int | None = 0
                for arg in item.args:
                    key = key_of(arg.value)
                    slot: int | str | None
                    if arg.star:
                        slot = position = None
                    elif arg.keyword is not None:
                        slot = arg.keyword.value
                    else:
                        slot = position
                        position = None if position is None else position + 1
                    if key is not None:
                        found.add((key, callee if slot is not None else None, slot))
            if type(item) not in LEAVES:
                stack.extend(subnodes(item))
        by_root: dict[str, set[Handed]] = {}
        for handed in found:
            by_root.setdefault(root_of(handed[0]), set()).add(handed)
        loop.handed = {root: frozenset(keys) for root, keys in by_root.items()}
    return loop.handed


def stored_parameters(cls: ClassInfo, attribute: str) -> list[str]:
    """The parameters of ``cls``'s ``__init__`` that it stores in ``self.attribute`` as
    they are (``self.policy = policy``), one per such binding of the attribute."""
    constructor = cls.methods.get("__init__")
    if constructor is None:
        return []
    return [
        value.value
        for value in cls.attributes.get(attribute, ())
        if type(value) is cst.Name
        and id(value) in constructor.value_order
        and value.value in constructor.params
    ]


def return_values(node: cst.CSTNode | None) -> list[cst.BaseExpression]:
    """The values ``node``'s ``return`` statements return (nested functions, classes
    and lambdas apart); none for a generator or a coroutine (its call returns no such
    value)."""
    found: list[cst.BaseExpression] = []
    pending = list(subnodes(node)) if node is not None else []
    while pending:
        item = pending.pop()
        kind = type(item)
        if kind in (cst.FunctionDef, cst.ClassDef, cst.Lambda):
            continue
        if kind in (cst.Yield, cst.Await):
            return []
        if kind is cst.Return:
            if item.value is not None:  # type: ignore[attr-defined]
                found.append(item.value)  # type: ignore[attr-defined]
            continue
        if kind not in LEAVES:
            pending.extend(subnodes(item))
    return found
