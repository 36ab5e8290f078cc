"""One traversal of the libcst tree that builds each function's event model.

Deliberately no libcst visitor and no metadata providers: statements are walked by type
and expressions through a cached table of each node type's child fields, which is several
times cheaper than ``CSTNode.children`` or ``module.visit``. Anything that cannot touch
gradients is dropped on the way, so the model stays small.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Callable, Iterator, Sequence

import libcst as cst

from zerograd_guard.lint.errors import AnalysisError
from zerograd_guard.lint.extract.names import (
    CLEARISH_CALL,
    CONFIGURED_STEP,
    GRAD_SCALE,
    GRAD_WRITING_CALL,
    INPUT_GRAD,
    LEAVES,
    NEW_LEAF,
    OPTIMIZER_CLASSES,
    OPTIMIZER_FACTORY,
    REBOUND_MODULE,
    REBUILT_OPTIMIZER,
    RESTORED_PARAMETERS,
    RESTORING_FUNCTIONS,
    RESTORING_METHODS,
    SCHEDULER_FACTORY,
    WRITTEN_GRAD,
    TupleElement,
    callee_name,
    computed_apart_from_windows,
    condition_atom,
    decorated_with,
    expression_text,
    key_of,
    last_segment,
    looks_like_optimizer,
    matches,
    names_a_window,
    names_a_window_source,
    names_in,
    return_values,
    stored_parameters,
    subnodes,
    tensor_factory,
    unmoved,
)
from zerograd_guard.lint.frameworks import OUTSIDE_PROJECT
from zerograd_guard.lint.model.events import (
    ALL,
    HANDED_OVER,
    MANUAL,
    Event,
    EventKind,
    If,
    Jump,
    Loop,
    Statement,
    Try,
    child_blocks,
    renamed_atom,
)
from zerograd_guard.lint.model.program import (
    STATIC_RECEIVER,
    ClassInfo,
    ExternalLookup,
    FunctionModel,
    ModuleModel,
)
from zerograd_guard.lint.options import AnalysisOptions
from zerograd_guard.lint.prefilter import FREEZING_CALL

MAX_DEPTH = 100  # nested blocks
# bindings followed back from a hand-written update to a ``.grad`` it reads
GRAD_ALIAS_DEPTH = 3
MAX_EXPRESSION_DEPTH = 3_000  # `a + b + ...` chains are left-deep trees
RAW_METHODS = frozenset({"step", "zero_grad", "optimizer_step", "first_step", "second_step"})
# In-place methods of ``p.grad``: zeroing ones clear, writing ones give the step
# gradients, scaling ones (clipping, normalisation, decay) keep what is there.
GRAD_CLEAR_METHODS = frozenset({"zero_"})
GRAD_ZEROING_METHODS = frozenset({"fill_", "mul_"})  # clears when handed a zero constant
GRAD_WRITE_METHODS = frozenset({"fill_", "copy_", "add_", "sub_", "set_", "addcmul_", "addcdiv_"})
GRAD_SCALE_METHODS = frozenset({"mul_", "div_", "clamp_", "clip_", "clamp_min_", "clamp_max_"})
GRAD_MUTATORS = GRAD_CLEAR_METHODS | GRAD_ZEROING_METHODS | GRAD_WRITE_METHODS | GRAD_SCALE_METHODS
UPDATE_METHODS = frozenset({"add_", "sub_", "addcdiv_", "addcmul_", "copy_"})
BUILTINS = frozenset(
    {
        "print", "len", "range", "enumerate", "zip", "isinstance", "float", "int", "str",
        "list", "dict", "tuple", "set", "min", "max", "sum", "abs", "getattr", "hasattr",
        "setattr", "sorted", "super", "iter", "next", "type", "round", "any", "all", "map",
        "filter", "open", "format", "repr", "bool", "vars", "id", "hash", "callable",
    }
)  # fmt: skip
_SKIPPED_EXPRESSIONS = frozenset({*LEAVES, cst.Lambda, cst.Comment})
_COMPREHENSIONS = frozenset({cst.ListComp, cst.GeneratorExp, cst.SetComp, cst.DictComp})


def _is_grad(node: cst.BaseExpression) -> bool:
    """``p.grad`` or ``p.grad.data``."""
    if type(node) is cst.Attribute and node.attr.value == "data":
        node = node.value
    return type(node) is cst.Attribute and node.attr.value == "grad"


def _reads_grad(item: cst.CSTNode) -> bool:
    """``p.grad``: a read of a tensor's gradient (not ``torch.autograd.grad``, a function
    that computes gradients as values and neither reads nor writes ``.grad``)."""
    if type(item) is not cst.Attribute or item.attr.value != "grad":
        return False
    owner = item.value
    return not (
        (type(owner) is cst.Name and owner.value == "autograd")
        or (type(owner) is cst.Attribute and owner.attr.value == "autograd")
    )


def _tests_presence(test: cst.BaseExpression) -> bool:
    """Whether ``test`` asks only whether tensors have a gradient (``p.grad is not None``,
    ``p.requires_grad``, ``hasattr(p, "grad")``, joined by ``and`` / ``or`` / ``not``):
    a clear under it clears every gradient there is. A test of the values
    (``p.grad.sum() == 0``: SinglePathOneShot drops only its all-zero gradients) clears
    some parameters and keeps the others' fresh gradients. Joined by ``and``, a test
    that a name is not None (``params is not None and params[0].grad is not None``, d2l's
    ``train_ch3``) asks whether there are parameters at all: none, none to clear."""
    while type(test) is cst.UnaryOperation and type(test.operator) is cst.Not:
        test = test.expression
    if type(test) is cst.BooleanOperation:
        if type(test.operator) is cst.And and (
            _name_not_none(test.left) or _name_not_none(test.right)
        ):
            return _tests_presence(test.left) or _tests_presence(test.right)
        return _tests_presence(test.left) and _tests_presence(test.right)
    if type(test) is cst.Comparison:
        return (
            _reads_grad(test.left)
            and len(test.comparisons) == 1
            and type(test.comparisons[0].operator) in (cst.Is, cst.IsNot)
            and type(test.comparisons[0].comparator) is cst.Name
            and test.comparisons[0].comparator.value == "None"  # type: ignore[attr-defined]
        )
    if type(test) is cst.Attribute:
        return test.attr.value == "requires_grad"
    return (
        type(test) is cst.Call
        and type(test.func) is cst.Name
        and test.func.value == "hasattr"
        and len(test.args) == 2
        and type(test.args[1].value) is cst.SimpleString
        and test.args[1].value.evaluated_value == "grad"  # type: ignore[attr-defined]
    )


def _name_not_none(test: cst.BaseExpression) -> bool:
    """``name is not None``."""
    return (
        type(test) is cst.Comparison
        and type(test.left) is cst.Name
        and len(test.comparisons) == 1
        and type(test.comparisons[0].operator) is cst.IsNot
        and type(test.comparisons[0].comparator) is cst.Name
        and test.comparisons[0].comparator.value == "None"  # type: ignore[attr-defined]
    )


def _grad_reads(*nodes: cst.CSTNode) -> Iterator[cst.Attribute]:
    """The reads of a tensor's gradient (``p.grad``, ``_reads_grad``) in ``nodes``."""
    stack = list(nodes)
    while stack:
        item = stack.pop()
        if _reads_grad(item):
            yield item  # type: ignore[misc]
        elif type(item) not in LEAVES:
            stack.extend(subnodes(item))


def _mentions_grad(*nodes: cst.CSTNode) -> bool:
    return any(_grad_reads(*nodes))


def _plain_names(node: cst.CSTNode) -> set[str]:
    """The plain names ``node`` reads (not attributes' names)."""
    names: set[str] = set()
    stack = [node]
    while stack:
        item = stack.pop()
        if type(item) is cst.Name:
            names.add(item.value)
        elif type(item) is cst.Attribute:
            stack.append(item.value)
        elif type(item) not in LEAVES:
            stack.extend(subnodes(item))
    return names


def _grad_owners(node: cst.CSTNode) -> set[str]:
    """The keys ``p`` of the ``p.grad`` (``p.grad.data``) that ``node`` reads."""
    return {key_of(read.value) or "" for read in _grad_reads(node)}


def _updated(target: cst.BaseExpression, values: list[cst.BaseExpression]) -> str | None:
    """The key of the parameter a manual update of ``target`` by ``values`` applies the
    gradient of: ``target`` itself (``p`` of ``p.data``), or the one parameter whose
    ``.grad`` the values read when the update is written through another name
    (``tmp = w.detach(); tmp -= lr * w.grad``)."""
    key = _tensor_key(target)
    owners = set().union(*map(_grad_owners, values))
    if len(owners) != 1 or "" in owners or key in owners:
        return key
    return owners.pop()


def _new_plain_tensor(value: cst.BaseExpression) -> bool:
    """``torch.zeros(n)`` and the like: a new tensor no gradient is computed for (not a
    ``Parameter`` or ``Variable``, no ``requires_grad`` asked anywhere on the way)."""
    factory = tensor_factory(value)
    if not factory or factory.rsplit(".", 1)[-1] in ("Parameter", "Variable"):
        return False
    while type(value) is cst.Call:
        if any(
            arg.keyword is not None and arg.keyword.value == "requires_grad" for arg in value.args
        ):
            return False
        if type(value.func) is not cst.Attribute:
            break
        if value.func.attr.value.startswith("requires_grad"):
            return False
        value = value.func.value
    return True


def _copies_into_owner(target: cst.BaseExpression, values: list[cst.BaseExpression]) -> bool:
    """Whether ``target.copy_(values)`` writes into a parameter whose gradient the values
    read (``w.data.copy_(w.data - lr * w.grad)``), not into another tensor."""
    key = _tensor_key(target)
    return key is not None and key in set().union(*map(_grad_owners, values))


def _is_data(target: cst.BaseExpression | None) -> bool:
    """``x.data`` (what a hand-written update writes into)."""
    return type(target) is cst.Attribute and target.attr.value == "data"


def _tensor_key(target: cst.BaseExpression) -> str | None:
    """The key of the tensor ``target`` writes into (``p`` of ``p.data``)."""
    return key_of(target.value if _is_data(target) else target)  # type: ignore[attr-defined]


# holders of state dicts without parameter values, besides optimizers
_NOT_PARAMETERS = re.compile(r"sched|scaler|(?:^|_)ema(?:$|_)|meter|logger|sampler|loader", re.I)


def _restores_parameters(call: cst.Call, name: str, receiver: cst.BaseExpression | None) -> bool:
    """``net.set_params(old)`` / ``model.load_state_dict(saved)`` on something not named
    like an optimizer, a scheduler or a scaler (whose state dicts hold no parameter
    values), or ``vector_to_parameters(old, model.parameters())``. Copying another
    model's current values (``local.load_state_dict(shared.state_dict())``, also with
    ``strict=True``: an A3C worker's or a target network's sync) restores nothing saved."""
    if receiver is None:
        return name in RESTORING_FUNCTIONS
    receiver_key = key_of(receiver)
    if name not in RESTORING_METHODS or receiver_key is None:
        return False
    last = receiver_key.rsplit(".", 1)[-1]
    if looks_like_optimizer(last) or _NOT_PARAMETERS.search(last):
        return False
    # the values loaded: the first argument (``strict=True`` and other keywords aside)
    positional = [arg for arg in call.args if arg.keyword is None and not arg.star]
    source = positional[0].value if len(positional) == 1 else None
    return not (
        type(source) is cst.Call
        and type(source.func) is cst.Attribute
        and source.func.attr.value == "state_dict"
        and key_of(source.func.value) not in (None, receiver_key)
    )


def _is_zero_constant(node: cst.BaseExpression) -> bool:
    """``0`` / ``0.0`` / ``0.``."""
    if type(node) is cst.Integer:
        return node.value == "0"
    return type(node) is cst.Float and float(node.value.replace("_", "")) == 0.0


def _scales(value: cst.BaseExpression, grad: cst.BaseExpression) -> bool:
    """``p.grad * k`` / ``p.grad / k`` (``grad`` is ``p.grad``, as source text)."""
    return (
        type(value) is cst.BinaryOperation
        and type(value.operator) in (cst.Multiply, cst.Divide)
        and (value.left.deep_equals(grad) or value.right.deep_equals(grad))
    )


def _transforms(value: cst.BaseExpression, grad: cst.BaseExpression) -> bool:
    """``p.grad * k``, ``p.grad - proj(p.grad)`` (GPM's projection), ``p.grad + wd * p``:
    what ``p.grad`` holds, changed, not replaced (``grad`` is ``p.grad``, as source text)."""
    return _scales(value, grad) or (
        type(value) is cst.BinaryOperation
        and type(value.operator) in (cst.Add, cst.Subtract)
        and (value.left.deep_equals(grad) or value.right.deep_equals(grad))
    )


def _times_zero(value: cst.BaseExpression, grad: cst.BaseExpression) -> bool:
    """``p.grad * 0.0`` (``grad`` is ``p.grad``, as source text): a clear."""
    return (
        _scales(value, grad)
        and type(value.operator) is cst.Multiply  # type: ignore[attr-defined]
        and (_is_zero_constant(value.left) or _is_zero_constant(value.right))  # type: ignore[attr-defined]
    )


def _ascends(target: cst.BaseExpression, value: cst.BaseExpression) -> bool:
    """``z.data += ... z.grad ...`` (or ``z += ...`` under ``no_grad``): a tensor moved
    along its own gradient."""
    key = _tensor_key(target)
    return key is not None and key in _grad_owners(value)


def _negative(value: cst.BaseExpression) -> bool:
    """``-lr * w.grad`` / ``-(lr * w.grad)``: what ``w += ...`` adds is a descent step."""
    while type(value) is cst.BinaryOperation and type(value.operator) in (
        cst.Multiply,
        cst.Divide,
    ):
        value = value.left
    return type(value) is cst.UnaryOperation and type(value.operator) is cst.Minus


def _is_true_constant(node: cst.BaseExpression) -> bool:
    return (type(node) is cst.Name and node.value == "True") or (
        type(node) is cst.Integer and node.value != "0"
    )


def _unfreezes(call: cst.Call, name: str) -> bool:
    """Whether a ``requires_grad`` call only turns gradients on: ``requires_grad_()``,
    ``requires_grad_(True)``, ``set_requires_grad(net, True)`` (a constant ``True`` and no
    ``False``). That freezes nothing; a flag that is not a constant may."""
    if "requires_grad" not in name.lower():
        return False  # ``freeze(model)``, ``toggle_optimizer(opt)``
    flags = [arg.value for arg in call.args if type(arg.value) in (cst.Name, cst.Integer)]
    if any(_is_true_constant(flag) for flag in flags):
        return not any(_is_false_constant(flag) for flag in flags)
    return name == "requires_grad_" and not call.args  # its default is True


def _is_false_constant(node: cst.BaseExpression) -> bool:
    return (type(node) is cst.Name and node.value == "False") or (
        type(node) is cst.Integer and node.value == "0"
    )


def _frozen_modules(call: cst.Call) -> list[str]:
    """The modules a freezing helper is handed: ``set_requires_grad(netD, False)``,
    ``set_requires_grad([netD_A, netD_B], False)``; constants (the flag) are none."""
    found: list[str] = []
    for arg in call.args:
        value = arg.value
        items = (
            [e.value for e in value.elements] if type(value) in (cst.List, cst.Tuple) else [value]
        )
        for item in items:
            key = key_of(item)
            if key is not None and key not in ("True", "False", "None"):
                found.append(key)
    return found


def target_names(node: cst.BaseExpression) -> list[str]:
    if type(node) in (cst.Tuple, cst.List):
        names: list[str] = []
        for element in node.elements:
            names.extend(target_names(element.value))
        return names
    if type(node) is cst.StarredElement:
        return target_names(node.value)
    key = key_of(node)
    return [key] if key is not None else []


class _Walker:
    def __init__(self, module: cst.Module, options: AnalysisOptions) -> None:
        self.module = module
        self.options = options
        self.project = True  # see ``build_model``
        self.external: ExternalLookup | None = None
        body = FunctionModel(name="<module>", node=module)
        self.model = ModuleModel(module=module, body=body, functions=[body])
        self.function = body
        self.cls: ClassInfo | None = None
        self.depth = 0
        self.managed = 0
        self.no_grad = 0  # inside ``with torch.no_grad():``
        self.order = 0  # source order of assigned values and losses (see ``_place``)
        self.branch_depth = 0  # ``if`` / ``try`` / ``match`` branches around the statement
        self.loop_depth = 0  # loops around the statement, in its function
        # the ``if`` arms around the statement in its function: (id of the ``if``, 0 body
        # / 1 else, whether the ``if`` is in a loop). Code in one arm never sees a value
        # assigned in the other, except from an earlier iteration of a loop around both
        self.arms: tuple[tuple[int, int, bool], ...] = ()
        self.reading = False  # in an expression whose ``.grad`` reads are recorded
        self.parameter_owners: list[str | None] = []  # modules of enclosing parameter loops
        # module-level class name -> the key of its latest definition (``class_def``)
        self.latest_classes: dict[str, str] = {}
        self.block_key: tuple[int, int] | None = None
        self.statement: cst.SimpleStatementLine | None = None
        self.anchor: cst.CSTNode | None = None
        self.method_names = self._class_method_names(module)
        # module-level ``name = Call(...)`` (also under a top-level ``if``), for functions
        # defined before the assignment that read the name (``_assigned_where_read``);
        # read from the module when first asked
        self._module_calls: dict[str, list[cst.Call]] | None = None

    @staticmethod
    def _class_method_names(module: cst.Module) -> frozenset[str]:
        """Names of methods defined by classes in the file (cheap pre-scan, top level)."""
        names: set[str] = set()
        for statement in module.body:
            if type(statement) is cst.ClassDef and isinstance(statement.body, cst.IndentedBlock):
                for item in statement.body.body:
                    if type(item) is cst.FunctionDef:
                        names.add(item.name.value)
        return frozenset(names)

    # -- statements ---------------------------------------------------------------------

    def block(self, statements: Sequence[cst.CSTNode]) -> list[Statement]:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise AnalysisError("nesting too deep to analyse")
        out: list[Statement] = []
        for index, statement in enumerate(statements):
            self.block_key = (id(statements), index)
            self.statement_(statement, out)
        self.depth -= 1
        return out

    def suite(self, suite: cst.BaseSuite) -> list[Statement]:
        if type(suite) is cst.IndentedBlock:
            return self.block(suite.body)
        self.depth += 1
        out: list[Statement] = []
        self.block_key = None
        self.statement = None
        for small in suite.body:
            self.small(small, out)
        self.depth -= 1
        return out

    def statement_(self, node: cst.CSTNode, out: list[Statement]) -> None:
        self.anchor = node
        if type(node) is cst.SimpleStatementLine:
            self.statement = node
            for small in node.body:
                self.small(small, out)
            self.statement = None
        elif type(node) is cst.If:
            self.if_(node, out)
        elif type(node) is cst.For:
            self.for_(node, out)
        elif type(node) is cst.While:
            self.while_(node, out)
        elif type(node) in (cst.Try, cst.TryStar):
            self.try_(node, out)
        elif type(node) is cst.With:
            self.with_(node, out)
        elif type(node) is cst.FunctionDef:
            self.function_def(node)
        elif type(node) is cst.ClassDef:
            self.class_def(node)
        elif type(node) is cst.Match:
            self.match_(node, out)

    def small(self, node: cst.CSTNode, out: list[Statement]) -> None:
        if type(node) is cst.Expr:
            self.reading = True
            self.expr(node.value, out)
            self.reading = False
        elif type(node) is cst.Assign:
            self.assign(node, out)
        elif type(node) is cst.AugAssign:
            self.aug_assign(node, out)
        elif type(node) is cst.AnnAssign:
            if node.value is not None:
                self.expr(node.value, out)
            key = key_of(node.target)
            if key is not None:
                self.function.annotations[key] = node.annotation.annotation
                if node.value is not None:
                    self.record_assignment(key, node.value)
        elif type(node) is cst.Return:
            if node.value is not None:
                self.reading = True
                self.expr(node.value, out)
                self.reading = False
                self.function.returns_value = True
            out.append(Jump("return", node))
        elif type(node) is cst.Break:
            out.append(Jump("break", node))
        elif type(node) is cst.Continue:
            out.append(Jump("continue", node))
        elif type(node) is cst.Raise:
            out.append(Jump("return", node, _raised_name(node), raises=True))
        elif type(node) in (cst.Import, cst.ImportFrom):
            self.import_(node)
        elif type(node) in (cst.Global, cst.Nonlocal):
            self.function.shared_names.update(item.name.value for item in node.names)

    def import_(self, node: cst.Import | cst.ImportFrom) -> None:
        if type(node) is cst.Import:
            for alias in node.names:
                dotted = key_of(alias.name) or ""
                local = alias.evaluated_alias or dotted.split(".", 1)[0]
                self.model.imports[local] = dotted if alias.asname else local
        elif type(node.names) is cst.ImportStar:
            if not node.relative and node.module is not None:
                self.model.star_imports.append(key_of(node.module) or "")
        else:
            # a relative import keeps its dots (``from . import clean``: ``.clean``), so
            # its origin is never taken for a top-level package of the same name
            module = key_of(node.module) if node.module is not None else None
            origin = "." * len(node.relative) + (module or "")
            for alias in node.names:
                name = alias.evaluated_name
                separator = "" if origin.endswith(".") else "."
                self.model.imports[alias.evaluated_alias or name] = f"{origin}{separator}{name}"

    def _place(self, value: cst.CSTNode) -> None:
        """Remember where ``value`` is assigned (or a loss is differentiated): which of a
        name's assignments a later read sees (``parameter_sets``)."""
        self.order += 1
        self.function.value_order[id(value)] = (self.order, self.branch_depth, self.arms)

    def record_assignment(self, key: str, value: cst.BaseExpression) -> None:
        self._place(value)
        if self.no_grad:
            self.function.cut_values.add(id(value))
        if key.startswith("self.") and self.cls is not None and key.count(".") == 1:
            self.cls.attributes.setdefault(key[5:], []).append(value)
        else:
            self.function.assignments.setdefault(key, []).append(value)

    def assign(self, node: cst.Assign, out: list[Statement]) -> None:
        self.reading = True
        self.expr(node.value, out)
        self.reading = False
        for target in node.targets:
            expression = target.target
            source = _handed_over(expression, node.value)
            if source is not None:
                self.model.hands_over = True
                out.append(
                    self.event(
                        EventKind.STEP,
                        node,
                        optimizers=(f"{source}.grad",),
                        callee_name=HANDED_OVER,
                    )
                )
                continue
            if _is_grad(expression):  # ``p.grad = ...``, ``p.grad.data = ...``
                value = node.value
                grad = expression.value if expression.attr.value == "data" else expression
                is_clear = (type(value) is cst.Name and value.value == "None") or (
                    type(value) is cst.Call
                    and (callee_name(value.func) or "") in ("zeros_like", "zeros")
                )
                if is_clear or _times_zero(value, expression):
                    out.append(self._grad_clear(node, grad.value))  # type: ignore[attr-defined]
                elif _transforms(value, expression) or self._rewrites_own_gradient(
                    value,
                    grad.value,  # type: ignore[attr-defined]
                ):
                    out.append(self._grad_scale(node))
                else:  # gradients written by hand (faked in a test, averaged): unknown
                    out.append(self._grad_written(node, grad.value))  # type: ignore[attr-defined]
                continue
            if type(expression) in (cst.Tuple, cst.List):
                names = target_names(expression)
                for index, name in enumerate(names):
                    if name.startswith("self.") and self.cls is not None:
                        self.cls.attributes.setdefault(name[5:], []).append(
                            TupleElement(index, node.value)  # type: ignore[arg-type]
                        )
                    else:
                        self.function.tuple_assignments[name] = (index, node.value)
                if self.no_grad:
                    self.function.cut_values.add(id(node.value))
                self._place(node.value)
                out.append(self.event(EventKind.KILL, node, names=frozenset(names)))
                if (
                    not self.loop_depth
                    and type(node.value) is cst.Call
                    and type(node.value.func) is cst.Name
                ):
                    # ``optimizer, scheduler = make(model)``: what the optimizer a factory
                    # function returns has applied is unknown (a new one, like one built
                    # here); in a loop the same one returned again stays what it was, and
                    # so do the optimizers a method hands back (``self.optimizers()``)
                    out.extend(
                        self.event(EventKind.HAVOC, node, optimizers=(name,))
                        for name in names
                        if looks_like_optimizer(name)
                    )
                continue
            if (
                type(expression) is cst.Attribute
                and expression.attr.value == "requires_grad"
                and not _is_true_constant(node.value)  # ``p.requires_grad = True`` unfreezes
            ):
                self._note_freeze(expression.value)
            key = key_of(expression)
            # ``w.data = w.data - lr * w.grad.data``, ``delta.data[idx] = ...[idx]``
            written = expression.value if type(expression) is cst.Subscript else expression
            values = self._with_grad_aliases(node.value) if _is_data(written) else []
            by_hand = _mentions_grad(*values)
            if key is None:
                if by_hand:
                    out.append(self._manual_step(node, _updated(written, values)))
                continue
            if key == "self.automatic_optimization" and self.cls is not None:
                self.cls.manual_optimization = (
                    type(node.value) is cst.Name and node.value.value == "False"
                )
            rebound = key in self.function.assignments and _builds_anew(node.value, key)
            self.record_assignment(key, node.value)
            constant = _bool_constant(node.value) if key.isidentifier() else None
            is_none = _none_or_object(node.value) if key.isidentifier() else None
            out.append(
                self.event(
                    EventKind.KILL,
                    node,
                    names=frozenset({key}),
                    constant=constant,
                    is_none=is_none,
                )
            )
            if rebound:
                out.append(
                    self.event(
                        EventKind.HAVOC, node, names=frozenset({key}), callee_name=REBOUND_MODULE
                    )
                )
            if by_hand:
                out.append(self._manual_step(node, _updated(written, values)))
            elif _constructs_optimizer(node.value, self.function):  # it has applied nothing yet
                rebuilt = REBUILT_OPTIMIZER if self.loop_depth else None
                out.append(
                    self.event(EventKind.HAVOC, node, optimizers=(key,), callee_name=rebuilt)
                )
            elif (factory := tensor_factory(node.value)) is not None:  # a new tensor
                out.append(
                    self.event(
                        EventKind.CLEAR,
                        node,
                        optimizers=(f"{key}.grad",),
                        receiver=factory,
                        callee_name=NEW_LEAF,
                    )
                )

    def aug_assign(self, node: cst.AugAssign, out: list[Statement]) -> None:
        self.reading = True
        self.expr(node.value, out)
        self.reading = False
        operator = type(node.operator)
        target = node.target.value if type(node.target) is cst.Subscript else node.target
        if _is_grad(target):  # ``p.grad *= c`` scales, ``p.grad += g`` writes
            if operator in (cst.MultiplyAssign, cst.DivideAssign):
                out.append(self._grad_scale(node))
            else:
                out.append(self.event(EventKind.HAVOC, node, optimizers=(ALL,)))
            return
        if operator is cst.SubtractAssign or (operator is cst.AddAssign and _negative(node.value)):
            values = self._with_grad_aliases(node.value)
            if _mentions_grad(*values) and not self._sums_into_new_tensor(node.target, values):
                out.append(self._manual_step(node, _updated(node.target, values)))
                return
        elif operator is cst.AddAssign and _ascends(node.target, node.value):
            # ``z.data += lr * z.grad``: an ascent step of ``z`` with its own gradient
            out.append(self._manual_step(node, _tensor_key(node.target)))
            return
        key = key_of(node.target)
        if key is not None:
            self.function.augmented.setdefault(key, []).append(node.value)
            self._place(node.value)
            increment = (
                type(node.operator) is cst.AddAssign
                and type(node.value) is cst.Integer
                and node.value.value == "1"
            )
            out.append(
                self.event(EventKind.KILL, node, names=frozenset({key}), increment=increment)
            )

    def _grad_scale(self, node: cst.CSTNode) -> Event:
        """Gradients scaled in place (``p.grad *= c``, ``p.grad.mul_(c)``): of the module
        whose ``parameters()`` the enclosing loop walks, when known."""
        owner = self.parameter_owners[-1] if self.parameter_owners else None
        return self.event(
            EventKind.HAVOC, node, callee_name=GRAD_SCALE, modules=(owner,) if owner else ()
        )

    def _rewrites_own_gradient(self, value: cst.BaseExpression, tensor: cst.BaseExpression) -> bool:
        """Whether ``tensor.grad = value`` computes ``value`` from ``tensor.grad`` itself,
        perhaps through aliases (XNOR-Net's ``m = m.mul(w[i].grad.data)``, then
        ``w[i].grad.data = m.add(m_add).mul(n)``): the gradient is changed, not replaced."""
        return any(
            read.value.deep_equals(tensor) for read in _grad_reads(*self._with_grad_aliases(value))
        )

    def _grad_written(self, node: cst.Assign, tensor: cst.BaseExpression) -> Event:
        """``tensor.grad = value``: what an optimizer over ``tensor`` applies is unknown.
        Of the module whose ``parameters()`` the enclosing loop walks, or of a tensor
        this function made (a loss weight); of every optimizer when not known."""
        if self.parameter_owners and self.parameter_owners[-1] is not None:
            written = self.parameter_owners[-1]
        else:
            key = key_of(tensor)
            written = (
                key if key is not None and key.isidentifier() and self._made_tensor(key) else None
            )
        if written is None:
            return self.event(EventKind.HAVOC, node, optimizers=(ALL,))
        return self.event(EventKind.HAVOC, node, modules=(written,), callee_name=WRITTEN_GRAD)

    def _grad_read(self, parameter: cst.BaseExpression) -> Event:
        """A read of ``parameter.grad``: of a module's parameters inside a loop over its
        ``parameters()``, of the module the parameter belongs to (``model.fc.weight``)."""
        if self.parameter_owners:
            owner = self.parameter_owners[-1]
            return self.event(EventKind.READ, parameter, modules=(owner,) if owner else ())
        key = key_of(parameter)
        if key is not None and key.isidentifier() and self._made_tensor(key):
            return self.event(EventKind.READ, parameter, modules=(key,), callee_name=INPUT_GRAD)
        return self.event(EventKind.READ, parameter, modules=(key,) if key and "." in key else ())

    def _with_grad_aliases(self, *values: cst.BaseExpression) -> list[cst.BaseExpression]:
        """``values`` and what the plain names they read were last bound to in this
        function before (followed back ``GRAD_ALIAS_DEPTH`` bindings) when that reads a
        gradient: an update written through an alias of one (``grad = delta.grad.detach();
        g = grad[idx]; d = clamp(d + a * sign(g)); delta.data[idx] = d``). Only the latest
        binding: a name bound to the gradient's sign and then to a projection (``eta =
        clamp(x.data - X, -eps, eps); x.data = X + eta``, convex_adversarial) writes no
        gradient (precision first: a gradient bound in one branch only may be missed).
        A latest binding that reads the name itself (``d = clamp(d, lo, hi)``) carries
        the binding before it on (``_latest``)."""
        found = list(values)
        assignments = self.function.assignments
        seen: set[str] = set()
        pending = list(values)
        for _ in range(GRAD_ALIAS_DEPTH):  # ``g = delta.grad``, ``d = d + a * sign(g)``...
            names = {name for value in pending for name in _plain_names(value)} - seen
            seen |= names
            pending = [
                bound for name in names for bound in _latest(assignments.get(name, ()), name)
            ]
            found.extend(bound for bound in pending if _mentions_grad(bound))
        return found

    def _made_tensor(self, name: str) -> bool:
        """Whether this function has bound ``name`` to a tensor it made: a new one, a
        copy, or arithmetic on tensors (``x.detach() + noise``), also marked
        ``.requires_grad_()`` (not a module's parameter)."""
        for value in self.function.assignments.get(name, ()):
            while True:
                if tensor_factory(value) is not None or type(value) in (
                    cst.BinaryOperation,
                    cst.UnaryOperation,
                ):
                    return True
                if type(value) is not cst.Call or type(value.func) is not cst.Attribute:
                    break
                value = value.func.value  # ``.uniform_(-eps, eps)``, ``.clamp(0, 1)``
        return False

    def _note_freeze(self, target: cst.BaseExpression) -> None:
        """``target.requires_grad_(...)`` / ``target.requires_grad = ...``: in a loop over
        a module's parameters that module is frozen (or unfrozen), else ``target``."""
        if self.parameter_owners:
            self.model.frozen.add(self.parameter_owners[-1] or "*")
            return
        key = key_of(target)
        self.model.frozen.add(key if key is not None else "*")

    def _sums_into_new_tensor(
        self, target: cst.BaseExpression, values: list[cst.BaseExpression]
    ) -> bool:
        """Whether ``target -= ... x.grad`` sums another tensor's gradient into an
        accumulator (``total = torch.zeros(n)``: every binding of ``target`` makes a new
        tensor that does not require gradients), not a hand-written update of a
        parameter: an update reads its own gradient (``w -= lr * w.grad``), or its
        target is a parameter or an alias of one."""
        key = _tensor_key(target)
        if key is None or "." in key or "[" in key:
            return False
        if key in set().union(*map(_grad_owners, values)):
            return False
        bindings = [
            value
            for value in self._assigned_where_read(key)
            if key_of(unmoved(value)) != key  # ``total = total.cuda()``: the same tensor
        ]
        return bool(bindings) and all(_new_plain_tensor(value) for value in bindings)

    def _manual_step(self, node: cst.CSTNode, key: str | None) -> Event:
        """``w -= lr * w.grad``: a step of the manual optimizer of ``w`` (key ``w.grad``;
        ``key``: ``w``, None when unknown)."""
        if key is None and not self.parameter_owners:  # else ``for_`` knows its module
            self.model.manual_owners.add(None)
        return self.event(EventKind.STEP, node, optimizers=(f"{key}.grad" if key else MANUAL,))

    def _grad_clear(self, node: cst.CSTNode, parameter: cst.BaseExpression) -> Event:
        """``w.grad = None`` / ``w.grad.zero_()``: clears ``w`` (and optimizers whose
        parameters are unknown, which may hold ``w``)."""
        key = key_of(parameter)
        if key is None:
            return self.event(EventKind.CLEAR, node, optimizers=(ALL,))
        return self.event(EventKind.CLEAR, node, optimizers=(f"{key}.grad",), modules=(key,))

    def event(self, kind: EventKind, node: cst.CSTNode, **fields: object) -> Event:
        return Event(
            kind=kind,
            node=node,
            function=self.function,
            statement=self.statement,
            anchor=self.anchor,
            block=self.block_key,
            managed=self.managed > 0,
            **fields,  # type: ignore[arg-type]
        )

    def if_(self, node: cst.If, out: list[Statement]) -> None:
        self.expr(node.test, out)
        self._narrow(node.test)
        saved = self.block_key
        self.branch_depth += 1
        arms = self.arms
        in_loop = self.loop_depth > 0
        self.arms = (*arms, (id(node), 0, in_loop))
        body = self.suite(node.body)
        orelse: list[Statement] = []
        self.arms = (*arms, (id(node), 1, in_loop))
        if type(node.orelse) is cst.If:
            self.if_(node.orelse, orelse)
        elif type(node.orelse) is cst.Else:
            orelse = self.suite(node.orelse.body)
        self.arms = arms
        self.branch_depth -= 1
        self.block_key = saved
        if not body and not orelse:
            return
        if _tests_presence(node.test) and not orelse and _only_clears(body):
            out.extend(body)  # `if p.grad is not None: p.grad.zero_()` clears what matters
            return
        atom, negated = condition_atom(node.test, self._condition_key)
        if atom.accumulation and self._flag_apart_from_windows(node.test):
            atom = dataclasses.replace(atom, accumulation=False)
        if _tests_presence(node.test) and not orelse and _clears_among_calls(body):
            # `if p.grad is not None: log(...); p.grad.zero_()`: the clears are as good as
            # unconditional (without a gradient there is nothing to clear); the calls
            # around them stay under the condition
            for clears, run in itertools.groupby(body, key=_clears_only):
                if clears:
                    out.extend(run)
                else:
                    out.append(If(atom=atom, negated=negated, body=list(run), orelse=[]))
            return
        if (
            _mentions_grad(node.test)
            and not orelse
            and all(isinstance(s, Jump) and s.kind == "continue" for s in body)
        ):
            return  # `if p.grad is None: continue` skips parameters that have nothing to clear
        if self.parameter_owners and _has_gradient(node.test) and not orelse and _updates(body):
            # `for p in group["params"]: if p.grad is not None: p.add_(p.grad, alpha=-lr)`
            # (an optimizer's own `step`): a parameter without a gradient has nothing to
            # apply nor to discard, so the update is as good as unconditional
            out.extend(body)
            return
        out.append(
            If(
                atom=atom,
                negated=negated,
                body=body,
                orelse=orelse,
                last_iteration=_last_iteration(node.test, self.function.loop_targets),
                node=node,
            )
        )

    def _flag_apart_from_windows(self, test: cst.BaseExpression) -> bool:
        """Whether ``if flag:`` / ``if not flag:`` tests a local flag named like a window
        (``update``) that this function computes otherwise, before the test
        (SlowFast's warm-up ``update_param = cur_iter >= iters_noupdate``, a NaN guard
        ``update = torch.isfinite(loss)``): a skipped step, no accumulation."""
        while type(test) is cst.UnaryOperation and type(test.operator) is cst.Not:
            test = test.expression
        if type(test) is not cst.Name or test.value in self.function.params:
            return False
        name = test.value
        values = list(self.function.assignments.get(name, ()))
        if name in self.function.tuple_assignments:  # ``model, update = surgery(...)``
            values.append(self.function.tuple_assignments[name][1])
        if not values:
            return False
        if computed_apart_from_windows(values):
            return True
        # a name that says only ``update`` (SlowFast's ``update_param`` from a helper of
        # another module) is a window only when what it is bound to says so
        return not names_a_window(name) and not any(map(names_a_window_source, values))

    def _narrow(self, test: cst.BaseExpression) -> None:
        """``isinstance(updater, torch.optim.Optimizer)`` tells what ``updater`` holds."""
        if (
            type(test) is cst.Call
            and type(test.func) is cst.Name
            and test.func.value == "isinstance"
            and len(test.args) == 2
        ):
            key = key_of(test.args[0].value)
            if key is not None and "Optimizer" in self.module.code_for_node(test.args[1].value):
                self.function.annotations.setdefault(key, test.args[1].value)

    def _condition_key(self, test: cst.BaseExpression) -> str:
        return expression_text(test, self._source_text)

    def _source_text(self, node: cst.CSTNode) -> str:
        return " ".join(self.module.code_for_node(node).split())

    def for_(self, node: cst.For, out: list[Statement]) -> None:
        self.expr(node.iter, out)
        targets = frozenset(target_names(node.target))
        self.function.loop_targets |= targets
        iterates_parameters = _iterates_parameters(node.iter)
        if iterates_parameters:
            self.parameter_owners.append(_loop_owner(node.target, node.iter))
        self.loop_depth += 1
        body = self.suite(node.body)
        self.loop_depth -= 1
        if iterates_parameters:
            self.parameter_owners.pop()
        orelse = self.suite(node.orelse.body) if node.orelse is not None else []
        if not body and not orelse:
            return
        loop = Loop(node=node, body=body, orelse=orelse, targets=targets)
        loop.changes = self._changes()
        over_optimizers = _iterates_optimizers(node.iter)
        if (over_optimizers or iterates_parameters) and _only_clears_or_updates(body):
            loop.once = True
            if over_optimizers:
                _retarget(body, targets, _collection_names(node.iter))
                _filter_each(body, targets, self._source_text(node.iter))
            else:
                _generalize(
                    body,
                    _parameters_owner(node.iter),
                    self.model.manual_owners,
                    _target_owners(node.target, node.iter),
                )
        elif iterates_parameters and any(
            statement.kind == EventKind.STEP and statement.optimizers == (MANUAL,)
            for statement in _walk_statements(body)
            if isinstance(statement, Event)
        ):
            self.model.manual_owners.add(None)
        elif iterates_parameters:
            _name_handed_over(body, _target_owners(node.target, node.iter))
        self.function.has_loop = True
        out.append(loop)

    def while_(self, node: cst.While, out: list[Statement]) -> None:
        self.expr(node.test, out)
        self.loop_depth += 1
        body = self.suite(node.body)
        self.loop_depth -= 1
        orelse = self.suite(node.orelse.body) if node.orelse is not None else []
        if not body and not orelse:
            return
        infinite = _is_true_constant(node.test)
        self.function.has_loop = True
        loop = Loop(node=node, body=body, orelse=orelse, infinite=infinite)
        loop.changes = self._changes()
        out.append(loop)

    def _changes(self) -> Callable[[str, int | str], frozenset[str] | None] | None:
        """Project mode: what a function of the run may change of what it is handed."""
        return None if self.external is None else self.external.changed_parts

    def try_(self, node: cst.Try | cst.TryStar, out: list[Statement]) -> None:
        self.branch_depth += 1
        body = self.suite(node.body)
        handlers = [self.suite(handler.body) for handler in node.handlers]
        orelse = self.suite(node.orelse.body) if node.orelse is not None else []
        self.branch_depth -= 1
        finalbody = self.suite(node.finalbody.body) if node.finalbody is not None else []
        if not (body or any(handlers) or orelse or finalbody):
            return
        out.append(Try(body=body, handlers=handlers, orelse=orelse, finalbody=finalbody))

    def with_(self, node: cst.With, out: list[Statement]) -> None:
        managed = no_grad = False
        for item in node.items:
            self.expr(item.item, out)
            call = item.item
            name = callee_name(call.func) if type(call) is cst.Call else None
            if name == "accumulate":
                managed = True
            no_grad |= name in ("no_grad", "inference_mode")
            if item.asname is not None:
                self._place(item.item)  # a later ``with ... as x`` binds ``x`` anew
                for target in target_names(item.asname.name):
                    self.function.assignments.setdefault(target, []).append(item.item)
        self.managed += managed
        self.no_grad += no_grad
        out.extend(self.suite(node.body))
        self.managed -= managed
        self.no_grad -= no_grad

    def match_(self, node: cst.Match, out: list[Statement]) -> None:
        self.expr(node.subject, out)
        self.branch_depth += 1
        branches = [self.suite(case.body) for case in node.cases]
        self.branch_depth -= 1
        if not any(branches):
            return
        chain: list[Statement] = []
        for branch in reversed(branches):
            chain = [If(atom=None, negated=False, body=branch, orelse=chain)]
        out.extend(chain)

    def function_def(self, node: cst.FunctionDef) -> None:
        parent = self.function
        in_class = self._in_class_body and self.cls is not None
        model = FunctionModel(
            name=node.name.value,
            node=node,
            class_name=self.cls.name if in_class and self.cls is not None else None,
            parent=parent,
        )
        params = [*node.params.posonly_params, *node.params.params, *node.params.kwonly_params]
        model.params = tuple(param.name.value for param in params)
        if in_class and decorated_with(node, "staticmethod"):
            model.params = (STATIC_RECEIVER, *model.params)
        for param in params:
            if param.annotation is not None:
                model.param_annotations[param.name.value] = param.annotation.annotation
            default = param.default
            if type(default) is cst.Name and default.value in ("True", "False"):
                model.param_defaults[param.name.value] = default.value
            elif (
                default is not None
                and (dotted := key_of(default)) is not None
                and last_segment(dotted) in OPTIMIZER_CLASSES
            ):
                model.optimizer_classes[param.name.value] = dotted
        if in_class and self.cls is not None:
            self.cls.methods[model.name] = model
        else:
            parent.nested[model.name] = model
        self.model.functions.append(model)
        saved = (
            self.function, self.managed, self.block_key, self.statement, self._in_class_body
        )  # fmt: skip
        self.function, self.managed, self._in_class_body = model, 0, False
        depths = (self.branch_depth, self.no_grad, self.loop_depth, self.arms)
        self.branch_depth = self.no_grad = self.loop_depth = 0
        self.arms = ()
        model.body = self.suite(node.body)
        self.branch_depth, self.no_grad, self.loop_depth, self.arms = depths
        self.function, self.managed, self.block_key, self.statement, self._in_class_body = saved
        _finalize(model)

    _in_class_body = False

    def class_def(self, node: cst.ClassDef) -> None:
        name = node.name.value
        scope = self.function
        bases = tuple(key for arg in node.bases if (key := key_of(arg.value)) is not None)
        if scope is not self.model.body:
            # a class defined in a function (a test's ``class Model``) is that function's
            # own: others of the same name elsewhere in the file are other classes
            scope.local_classes[name] = f"{scope.qualname}.<locals>.{name}"
        key = local_class(name, scope) or name
        redefined = key == name and name in self.model.classes
        if redefined:
            # defined again at module level (a notebook rebuilds it cell by cell): another
            # class, whose methods' ``self.m()`` are its own; the name still means the first
            key = f"{name}@{sum(1 for k in self.model.classes if k.split('@')[0] == name) + 1}"
        info = ClassInfo(
            name=key,
            bases=tuple(
                local_class(base, scope) or self.latest_classes.get(base, base) for base in bases
            ),
            node=node,
        )
        self.model.classes.setdefault(info.name, info)
        if redefined:  # after the bases: ``class Learner(Learner)`` extends the previous one
            self.latest_classes[name] = key  # what a later ``class C(name)`` derives from
        saved = (self.cls, self._in_class_body, self.block_key, self.statement)
        self.cls, self._in_class_body = info, True
        if type(node.body) is cst.IndentedBlock:
            for index, statement in enumerate(node.body.body):
                self.block_key = (id(node.body.body), index)
                if type(statement) is cst.SimpleStatementLine:
                    for small in statement.body:
                        if (
                            type(small) is cst.Assign
                            and key_of(small.targets[0].target) == "automatic_optimization"
                        ):
                            value = small.value
                            info.manual_optimization = (
                                type(value) is cst.Name and value.value == "False"
                            )
                elif type(statement) in (cst.FunctionDef, cst.ClassDef):
                    self.depth += 1
                    if self.depth > MAX_DEPTH:
                        raise AnalysisError("nesting too deep to analyse")
                    self.statement_(statement, [])
                    self.depth -= 1
        self.cls, self._in_class_body, self.block_key, self.statement = saved

    # -- expressions --------------------------------------------------------------------

    def expr(self, node: cst.CSTNode, out: list[Statement]) -> None:
        kind = type(node)
        while kind is cst.Attribute:  # in ``a.b.c`` only the innermost value may hold a call
            if self.reading and node.attr.value == "grad":  # type: ignore[attr-defined]
                out.append(self._grad_read(node.value))  # type: ignore[attr-defined]
            node = node.value  # type: ignore[attr-defined]
            kind = type(node)
        if kind in _SKIPPED_EXPRESSIONS:
            return
        if kind is cst.Call:
            self.call(node, out)  # type: ignore[arg-type]
            return
        if kind in _COMPREHENSIONS:
            owner = _parameters_owner(node.for_in.iter)  # type: ignore[attr-defined]
            if owner is not None:  # ``[p.grad for p in model.parameters()]``
                self.parameter_owners.append(owner)
                self._subexpressions(node, out)
                self.parameter_owners.pop()
                return
        if kind is cst.Yield:
            self.function.is_generator = True
        self._subexpressions(node, out)

    def _subexpressions(self, node: cst.CSTNode, out: list[Statement]) -> None:
        self.depth += 1
        if self.depth > MAX_EXPRESSION_DEPTH:
            raise AnalysisError("nesting too deep to analyse")
        for sub in subnodes(node):
            if type(sub) not in _SKIPPED_EXPRESSIONS:
                self.expr(sub, out)
        self.depth -= 1

    def call(self, node: cst.Call, out: list[Statement]) -> None:
        func = node.func
        receiver = func.value if type(func) is cst.Attribute else None
        callee = receiver if receiver is not None else func
        if type(callee) not in _SKIPPED_EXPRESSIONS:
            reading = self.reading
            if receiver is not None and _is_grad(receiver) and func.attr.value in GRAD_MUTATORS:  # type: ignore[attr-defined]
                self.reading = False  # ``p.grad.zero_()`` changes the gradient, not a read
            self.expr(callee, out)
            self.reading = reading
        elif type(func) is cst.Lambda:  # `(lambda l: l.backward())(loss)`: the body runs here
            self.expr(func.body, out)
        closure: str | None = None
        for arg in node.args:
            value = arg.value
            if type(value) is cst.Lambda and type(value.body) is cst.Call:
                closure = key_of(value.body.func)
            elif type(value) not in _SKIPPED_EXPRESSIONS:
                self.expr(value, out)
        name = callee_name(func)
        if name is None:
            return
        if name == "requires_grad_" and receiver is not None:
            if not _unfreezes(node, name):
                self._note_freeze(receiver)
        elif matches(FREEZING_CALL, name) and not _unfreezes(node, name):
            self.model.frozen.update(_frozen_modules(node) or ("*",))
        for matches_shape, handle in _CALL_SHAPES:
            if matches_shape(self, name, receiver):
                handle(self, node, name, receiver, closure, out)
                return

    # -- call shapes (see ``_CALL_SHAPES``) ---------------------------------------------

    def _is_backward_call(self, name: str, receiver: cst.BaseExpression | None) -> bool:
        """``loss.backward()``, ``accelerator.backward(loss)``, a configured backward."""
        return (
            name in ("backward", "manual_backward")
            and not _distributed_autograd(receiver)
            and not _new_leaf(receiver)
        ) or name in self.options.extra_backward_calls

    def _backward_call(
        self,
        node: cst.Call,
        name: str,
        receiver: cst.BaseExpression | None,
        closure: str | None,
        out: list[Statement],
    ) -> None:
        self.function.has_backward = True
        self.function.calls_manual_backward |= name == "manual_backward"
        loss = _loss_of(node, receiver)
        if loss is not None:
            self._place(loss)
        out.append(self.event(EventKind.BACKWARD, node, loss=loss))

    def _is_clear_all_call(self, name: str, receiver: cst.BaseExpression | None) -> bool:
        """``torch._foreach_zero_(grads)`` or a configured clear: clears every optimizer."""
        return name == "_foreach_zero_" or name in self.options.extra_clear_calls

    def _clear_all_call(
        self,
        node: cst.Call,
        name: str,
        receiver: cst.BaseExpression | None,
        closure: str | None,
        out: list[Statement],
    ) -> None:
        out.append(self.event(EventKind.CLEAR, node, optimizers=(ALL,)))

    def _is_grad_method(self, name: str, receiver: cst.BaseExpression | None) -> bool:
        """A method of a gradient: ``p.grad.zero_()``, ``p.grad.mul_(c)``, ``p.grad.copy_(g)``."""
        return receiver is not None and _is_grad(receiver)

    def _grad_method(
        self,
        node: cst.Call,
        name: str,
        receiver: cst.BaseExpression | None,
        closure: str | None,
        out: list[Statement],
    ) -> None:
        zeroing = name in GRAD_ZEROING_METHODS and bool(node.args)
        zeroing = zeroing and _is_zero_constant(node.args[0].value)
        if name in GRAD_CLEAR_METHODS or zeroing:
            grad = receiver.value if receiver.attr.value == "grad" else receiver.value.value  # type: ignore[union-attr]
            out.append(self._grad_clear(node, grad))
        elif name in GRAD_SCALE_METHODS:
            out.append(self._grad_scale(node))
        elif name in GRAD_WRITE_METHODS:  # gradients written by hand: unknown
            out.append(self.event(EventKind.HAVOC, node, optimizers=(ALL,)))

    def _is_update_method(self, name: str, receiver: cst.BaseExpression | None) -> bool:
        """An in-place update of a tensor (``p.data.sub_(...)``, ``p.add_(...)``)."""
        return receiver is not None and name in UPDATE_METHODS

    def _update_method(
        self,
        node: cst.Call,
        name: str,
        receiver: cst.BaseExpression | None,
        closure: str | None,
        out: list[Statement],
    ) -> None:
        values = self._with_grad_aliases(*(arg.value for arg in node.args))
        if not _mentions_grad(*values):
            return
        if name == "copy_" and not _copies_into_owner(receiver, values):  # type: ignore[arg-type]
            return  # ``G[:, k].copy_(p.grad)``: a snapshot of the gradient, read
        out.append(self._manual_step(node, _updated(receiver, values)))  # type: ignore[arg-type]

    def _any_call(self, name: str, receiver: cst.BaseExpression | None) -> bool:
        return True

    def _other_call(
        self,
        node: cst.Call,
        name: str,
        receiver: cst.BaseExpression | None,
        closure: str | None,
        out: list[Statement],
    ) -> None:
        """Any other call: a configured step, a function or a method that may step,
        clear or reach code that does (resolved later), or nothing."""
        options = self.options
        if _restores_parameters(node, name, receiver):
            out.append(self.event(EventKind.HAVOC, node, callee_name=RESTORED_PARAMETERS))
            return
        if name == "register_post_accumulate_grad_hook" and receiver is not None:
            hook = key_of(node.args[0].value) if node.args else None
            if hook is not None and hook.isidentifier():
                # registered under a setting (sd-scripts' ``if args.fused_backward_pass:``,
                # whose other branch steps in the loop): which backward runs it is not
                # known. Tests inside a loop (``if p.requires_grad:``) pick parameters.
                if all(in_loop for _, _, in_loop in self.arms):
                    self.function.accumulate_hooks.append(hook)
                return
        configured_step = name in options.extra_step_calls
        if receiver is None and name in BUILTINS and not configured_step:
            return
        positional = tuple(key_of(arg.value) for arg in node.args if arg.keyword is None)
        keywords = frozenset(
            arg.keyword.value
            for arg in node.args
            if arg.keyword is not None and _is_true_constant(arg.value)
        )
        receiver_key = key_of(receiver) if receiver is not None else None
        if (
            receiver is not None
            and not configured_step
            and not self._interesting_method(name, receiver_key, positional, keywords)
        ):
            return  # a method call that cannot touch gradients
        kwargs = tuple(
            (arg.keyword.value, key_of(arg.value)) for arg in node.args if arg.keyword is not None
        )
        if configured_step:
            # which optimizer it steps is decided on resolution (see ``CONFIGURED_STEP``)
            handed = (*positional, *(value for _, value in kwargs), receiver_key)
            out.append(
                self.event(
                    EventKind.STEP,
                    node,
                    args=tuple(key for key in handed if key is not None),
                    callee_name=CONFIGURED_STEP,
                )
            )
            return
        if closure is None:
            closure = next(
                (key for arg in node.args if (key := key_of(arg.value)) and "closure" in key),
                None,
            )
            if closure is None and name == "step":  # ``step(closure)``, ``step(closure=f)``
                closure = positional[0] if positional else dict(kwargs).get("closure")
        if receiver is None:
            out.append(
                self.event(
                    EventKind.CALL,
                    node,
                    callee_name=name,
                    args=positional,
                    kwargs=kwargs,
                    closure=closure,
                    keywords=keywords,
                    defined=self.function.nested.get(name),
                )
            )
            return
        out.append(
            self.event(
                EventKind.METHOD,
                node,
                receiver=receiver_key,
                receiver_node=receiver,
                method=name,
                args=positional,
                kwargs=kwargs,
                keywords=keywords,
                closure=closure,
                defined=self.function.nested.get(closure) if closure is not None else None,
            )
        )

    def _interesting_method(
        self,
        name: str,
        receiver_key: str | None,
        positional: tuple[str | None, ...],
        keywords: frozenset[str],
    ) -> bool:
        """Whether ``receiver.name(...)`` may step, clear or reach code that does."""
        return (
            name in RAW_METHODS
            or "zero_grad" in keywords
            or receiver_key in ("self", "cls")
            or name in self.method_names
            or matches(CLEARISH_CALL, name)
            or matches(GRAD_WRITING_CALL, name)
            or (receiver_key is not None and looks_like_optimizer(receiver_key))
            or any(key is not None and looks_like_optimizer(key) for key in positional)
            or (receiver_key is not None and self._names_project_module(receiver_key))
            or (
                self.project
                and receiver_key is not None
                and (
                    self._holds_imported_instance(receiver_key)
                    or self._receives_linted_instance(receiver_key)
                )
            )
        )

    def _receives_linted_instance(self, receiver_key: str) -> bool:
        """Whether ``receiver`` is a parameter of the function that holds an instance
        of another linted module's class: annotated with one (``agent: Agent``) or, a
        top-level function's, passed one by every caller (``project.call_sites``):
        ``agent.update(batch)`` may run that class's backward and step. The same for
        an attribute the constructor stores a parameter in (``self.policy = policy``,
        then ``self.policy.learn(batch)``), or the constructor of a base class of the
        file (rlkit's ``BaseRLAlgorithm`` stores the ``trainer`` its subclass hands it)."""
        if self.external is None:
            return False
        if receiver_key in self.function.params:
            return self._passed_linted_instance(self.function, receiver_key)
        if self.cls is None or not receiver_key.startswith("self.") or receiver_key.count(".") != 1:
            return False
        pending, seen = [self.cls], set()
        while pending:
            info = pending.pop()
            if info.name in seen:
                continue
            seen.add(info.name)
            constructor = info.methods.get("__init__")
            if constructor is not None and any(
                self._passed_linted_instance(constructor, param)
                for param in stored_parameters(info, receiver_key[5:])
            ):
                return True
            for base in info.bases:
                found = self.model.classes.get(base)
                if found is None and self.external.base_stores(base, receiver_key[5:]):
                    found = self.external.base_class(base)
                if found is not None:
                    pending.append(found)
        return False

    def _passed_linted_instance(self, function: FunctionModel, param: str) -> bool:
        assert self.external is not None
        annotation = function.param_annotations.get(param)
        if annotation is not None:
            named = key_of(annotation)
            if named is not None and self.external.class_info(named) is not None:
                return True
        called = function.called_as
        return called is not None and bool(self.external.parameter_classes(called, param))

    def _holds_imported_instance(self, receiver_key: str) -> bool:
        """Whether ``receiver`` was assigned an instance of an imported class that may be
        the project's (``agent = Agent(net)``, ``self.agent = Agent(net)`` with ``Agent``
        imported from neither the standard library nor a framework), or of a class of
        this file deriving from one, perhaps moved (``Agent(net).cuda()``): ``agent.update(b)``
        may run that class's backward and step, which project mode follows (per-file
        mode resolves it to nothing, so it does not keep the call)."""
        if receiver_key.startswith("self.") and self.cls is not None:
            values = self.cls.attributes.get(receiver_key[5:], ())
        else:
            values = self._assigned_where_read(receiver_key)
        return any(
            self._builds_imported_instance(value) or self._factory_of_imported_class(value)
            for value in values
        )

    def _builds_imported_instance(self, value: cst.BaseExpression) -> bool:
        """Whether ``value`` builds an instance of an imported class, or of a class of this
        file deriving from one, perhaps moved (``Agent(net).cuda()``: the agent itself)."""
        value = unmoved(value)
        made = key_of(value.func) if type(value) is cst.Call else None
        return made is not None and (
            self._imported_class(made) or self._inherits_imported_class(made)
        )

    def _factory_of_imported_class(self, value: cst.BaseExpression) -> bool:
        """Whether ``value`` calls a function of this file (around the call, or at module
        level, before or after it) whose every ``return`` builds such an instance (``def
        get_trainer(): return Trainer(cfg)``, ``Trainer`` imported): what the call
        returns is that."""
        value = unmoved(value)
        name = key_of(value.func) if type(value) is cst.Call else None
        if name is None:
            return False
        scope: FunctionModel | None = self.function
        while scope is not None and name not in scope.nested:
            scope = scope.parent
        factory = scope.nested[name].node if scope is not None else None
        if factory is None:  # a module-level function defined after this one
            factory = next(
                (
                    statement
                    for statement in reversed(self.module.body)
                    if type(statement) is cst.FunctionDef and statement.name.value == name
                ),
                None,
            )
        if factory is None:
            return False
        returned = return_values(factory)
        return bool(returned) and all(map(self._builds_imported_instance, returned))

    def _imported_class(self, name: str) -> bool:
        return (
            name.rpartition(".")[2][:1].isupper()
            and self._names_project_module(name)
            and (self.external is None or self.external.class_info(name) is not None)
        )

    def _inherits_imported_class(self, name: str) -> bool:
        """Whether ``name`` is a class of this file deriving from such an imported class
        (``class ActTrainer(Trainer)``): its instances have the base's methods too."""
        info = self.model.classes.get(name)
        return info is not None and any(self._imported_class(base) for base in info.bases)

    def _assigned_where_read(self, key: str) -> Sequence[cst.BaseExpression]:
        """What ``key`` is assigned in this function, or, when the function does not
        bind it, in the nearest enclosing scope assigning it so far (a module-level
        ``agent = A2CAgent(...)`` read in ``def run():``)."""
        scope: FunctionModel | None = self.function
        while scope is not None:
            values = scope.assignments.get(key)
            if values:
                return values
            if "." in key or key in scope.params or key in scope.tuple_assignments:
                return ()
            scope = scope.parent
        if self._module_calls is None:
            self._module_calls = _module_level_calls(self.module.body)
        return self._module_calls.get(key, ())  # assigned after the function's definition

    def _names_project_module(self, receiver_key: str) -> bool:
        """Whether ``receiver`` may be a module of the project (an imported name from
        neither the standard library nor a framework package): ``clean.wipe(model)`` may
        call a function of another linted module, which project mode follows (it clears
        ``model``); in per-file mode the call resolves to nothing, as before."""
        origin = self.model.imports.get(receiver_key.partition(".")[0])
        return origin is not None and origin.partition(".")[0] not in OUTSIDE_PROJECT


def _module_level_calls(statements: Sequence[cst.CSTNode]) -> dict[str, list[cst.Call]]:
    """``name = Call(...)`` at module level, including the bodies of top-level ``if``
    statements (``if __name__ == "__main__":``): name -> the calls assigned to it."""
    found: dict[str, list[cst.Call]] = {}
    for statement in statements:
        if type(statement) is cst.If:
            for name, calls in _module_level_calls(statement.body.body).items():
                found.setdefault(name, []).extend(calls)
            continue
        if type(statement) is not cst.SimpleStatementLine:
            continue
        for small in statement.body:
            if (
                type(small) is cst.Assign
                and len(small.targets) == 1
                and type(small.targets[0].target) is cst.Name
                and type(small.value) is cst.Call
            ):
                found.setdefault(small.targets[0].target.value, []).append(small.value)
    return found


# What a call is, by its shape: the first row whose test holds handles it (each test
# and handler is a ``_Walker`` method taking the call's name and receiver). Adding a
# shape means adding a row before the catch-all.
_CALL_SHAPES = (
    (_Walker._is_backward_call, _Walker._backward_call),
    (_Walker._is_clear_all_call, _Walker._clear_all_call),
    (_Walker._is_grad_method, _Walker._grad_method),
    (_Walker._is_update_method, _Walker._update_method),
    (_Walker._any_call, _Walker._other_call),
)

# Helpers that freeze or unfreeze modules (``set_requires_grad(netD, False)``, Lightning's
# ``toggle_optimizer``): which parameters a backward writes is then not known.
# Receivers whose ``backward(loss)`` method takes the loss as its argument.
_BACKWARD_OWNERS = re.compile(r"accelerat|fabric|engine|autograd|trainer|strategy|^self$", re.I)


def local_class(name: str, scope: FunctionModel | None) -> str | None:
    """The key of the class ``name`` defined in ``scope`` or a function enclosing it."""
    while scope is not None:
        if name in scope.local_classes:
            return scope.local_classes[name]
        scope = scope.parent
    return None


def _raised_name(node: cst.Raise) -> str | None:
    """The class name ``raise X`` / ``raise X(...)`` / ``raise m.X(...)`` raises."""
    raised = node.exc.func if type(node.exc) is cst.Call else node.exc
    if type(raised) is cst.Name:
        return raised.value
    if type(raised) is cst.Attribute:
        return raised.attr.value
    return None


def _loss_of(node: cst.Call, receiver: cst.BaseExpression | None) -> cst.BaseExpression | None:
    """The loss a backward call differentiates: ``loss`` in ``loss.backward()``,
    ``accelerator.backward(loss)``, ``self.manual_backward(loss)``."""
    key = key_of(receiver) if receiver is not None else None
    first = next((arg.value for arg in node.args if arg.keyword is None), None)
    if receiver is None or (key is not None and _BACKWARD_OWNERS.search(key.rsplit(".", 1)[-1])):
        return first
    return receiver


def _last_iteration(test: cst.BaseExpression, targets: set[str]) -> bool | None:
    """``i == len(x) - 1`` / ``i + 1 == len(x)`` (True: the body runs on the last
    iteration of the loop over ``x``), the same with ``!=`` (False), else None; ``i`` a
    loop target of the function."""
    if type(test) is not cst.Comparison or len(test.comparisons) != 1:
        return None
    target = test.comparisons[0]
    operator = type(target.operator)
    if operator not in (cst.Equal, cst.NotEqual):
        return None
    left, right = test.left, target.comparator
    if _is_len(right) and _plus_one(left, targets):
        pass
    elif not (type(left) is cst.Name and left.value in targets and _len_minus_one(right)):
        return None
    return operator is cst.Equal


def _is_len(node: cst.BaseExpression) -> bool:
    return type(node) is cst.Call and type(node.func) is cst.Name and node.func.value == "len"


def _len_minus_one(node: cst.BaseExpression) -> bool:
    return (
        type(node) is cst.BinaryOperation
        and type(node.operator) is cst.Subtract
        and _is_len(node.left)
        and type(node.right) is cst.Integer
        and node.right.value == "1"
    )


def _plus_one(node: cst.BaseExpression, targets: set[str]) -> bool:
    return (
        type(node) is cst.BinaryOperation
        and type(node.operator) is cst.Add
        and type(node.left) is cst.Name
        and node.left.value in targets
        and type(node.right) is cst.Integer
        and node.right.value == "1"
    )


def _parameters_owner(iterable: cst.BaseExpression) -> str | None:
    """``m`` in ``m.parameters()`` / ``m.named_parameters()`` (None: not that shape)."""
    if (
        type(iterable) is cst.Call
        and type(iterable.func) is cst.Attribute
        and iterable.func.attr.value in ("parameters", "named_parameters")
    ):
        return key_of(iterable.func.value)
    return None


def _builds_anew(value: cst.BaseExpression, key: str) -> bool:
    """Whether ``value`` builds a new object of a class (a capitalised callee, possibly
    moved: ``Net().to(device)``) from arguments that do not name ``key`` (not a wrapper
    of the object ``key`` holds, like ``DataParallel(model)``)."""
    call = value
    while type(call) is cst.Call and type(call.func) is cst.Attribute:
        inner = call.func.value
        if type(inner) is not cst.Call:
            break
        call = inner  # ``Net(...).to(device)``: the innermost call builds
    if type(call) is not cst.Call:
        return False
    name = callee_name(call.func) or ""
    if not name[:1].isupper() or _constructs_optimizer(call):
        return False
    root = key.split(".", 1)[0]
    stack: list[cst.CSTNode] = [value]
    while stack:
        node = stack.pop()
        if type(node) is cst.Name and node.value == root:
            return False
        if type(node) not in LEAVES:
            stack.extend(subnodes(node))
    return True


def _loop_owner(target: cst.BaseExpression, iterable: cst.BaseExpression) -> str | None:
    """The module whose parameters a loop walks: ``m`` of ``for p in m.parameters()``,
    of ``for i, p in enumerate(m.parameters())`` and of ``for f, p in zip(fisher,
    m.parameters())`` (None: not known, or several modules)."""
    owner = _parameters_owner(iterable)
    if owner is None:
        owners = set(_target_owners(target, iterable).values())
        if len(owners) == 1:
            return owners.pop()
    return owner


def _target_owners(target: cst.BaseExpression, iterable: cst.BaseExpression) -> dict[str, str]:
    """Loop variable -> the module whose ``parameters()`` it runs over: ``p`` in ``for p
    in m.parameters()``, ``a_p`` and ``b_p`` in ``for a_p, b_p in zip(a.parameters(),
    b.parameters())``, ``p`` in ``for i, p in enumerate(m.parameters())``."""
    if type(target) is cst.Name:
        owner = _parameters_owner(iterable)
        return {target.value: owner} if owner is not None else {}
    if type(target) not in (cst.Tuple, cst.List) or type(iterable) is not cst.Call:
        return {}
    name = iterable.func.value if type(iterable.func) is cst.Name else None
    elements = [element.value for element in target.elements]  # type: ignore[attr-defined]
    if name == "enumerate" and len(elements) == 2 and iterable.args:
        return _target_owners(elements[1], iterable.args[0].value)
    if name != "zip" or len(elements) != len(iterable.args):
        return {}
    found: dict[str, str] = {}
    for element, arg in zip(elements, iterable.args, strict=True):
        found.update(_target_owners(element, arg.value))
    return found


def _latest(bindings: Sequence[cst.BaseExpression], name: str) -> list[cst.BaseExpression]:
    """The last of a name's ``bindings`` so far, and, while a binding reads the name
    itself (``d = clamp(d, lo, hi)`` after ``d = d + a * sign(g)``), the one before."""
    found: list[cst.BaseExpression] = []
    for value in reversed(bindings):
        found.append(value)
        if name not in _plain_names(value):
            break
    return found


def _constructs_optimizer(value: cst.BaseExpression, function: FunctionModel | None = None) -> bool:
    if type(value) is not cst.Call:
        return False
    if (
        function is not None
        and type(value.func) is cst.Name
        and value.func.value in function.optimizer_classes
    ):
        return True  # ``opt_func(model.parameters(), lr)``, ``opt_func=torch.optim.SGD``
    name = callee_name(value.func) or ""
    if name == "optimizers":  # Lightning's getter returns the same optimizers every time
        return False
    return name in OPTIMIZER_CLASSES or (
        matches(OPTIMIZER_FACTORY, name) and not matches(SCHEDULER_FACTORY, name)
    )


def _distributed_autograd(receiver: cst.BaseExpression | None) -> bool:
    """``dist_autograd.backward(context_id, ...)`` fills a context, not ``.grad``."""
    key = key_of(receiver) if receiver is not None else None
    return key is not None and (
        key.endswith("dist_autograd") or key.endswith("distributed.autograd")
    )


def _walk_statements(statements: list[Statement]) -> Iterator[Statement]:
    for statement in statements:
        yield statement
        for part in child_blocks(statement):
            yield from _walk_statements(part)


def _only_clears(body: list[Statement]) -> bool:
    """Clears only, also through a loop over parameters (``for p in params: p.grad.zero_()``)."""
    return bool(body) and all(_clears_only(s) for s in body)


def _clears_only(statement: Statement) -> bool:
    return (
        isinstance(statement, Event)
        and statement.kind in (EventKind.CLEAR, EventKind.KILL, EventKind.READ)
    ) or (
        isinstance(statement, Loop)
        and statement.once
        and not statement.orelse
        and _only_clears(statement.body)
    )


def _has_gradient(test: cst.BaseExpression) -> bool:
    """``p.grad is not None``: the test of a parameter loop that skips the parameters
    without a gradient."""
    return (
        type(test) is cst.Comparison
        and len(test.comparisons) == 1
        and type(test.comparisons[0].operator) is cst.IsNot
        and type(test.comparisons[0].comparator) is cst.Name
        and test.comparisons[0].comparator.value == "None"
        and type(test.left) is cst.Attribute
        and test.left.attr.value == "grad"
    )


def _updates(body: list[Statement]) -> bool:
    """Hand-written updates of parameters, and clears or reads of their gradients only."""
    return any(
        isinstance(s, Event) and s.kind == EventKind.STEP for s in _walk_statements(body)
    ) and all(
        _clears_only(s)
        or (isinstance(s, Event) and s.kind == EventKind.STEP)
        or (isinstance(s, Loop) and s.once and not s.orelse and _updates(s.body))
        for s in body
    )


def _clears_among_calls(body: list[Statement]) -> bool:
    """Clears, and besides them only calls (a log line, a project helper): nothing that
    runs a backward, steps or nests other blocks."""
    return any(_clears_only(s) for s in body) and all(
        _clears_only(s) or (isinstance(s, Event) and s.kind in (EventKind.CALL, EventKind.METHOD))
        for s in body
    )


def _handed_over(target: cst.BaseExpression, value: cst.BaseExpression) -> str | None:
    """``local`` for ``shared.grad = local.grad`` or ``shared._grad = local.grad``: the
    gradient tensors of ``local`` handed to ``shared`` as they are (not a copy)."""
    if not (
        type(target) is cst.Attribute
        and target.attr.value in ("grad", "_grad")
        and type(value) is cst.Attribute
        and value.attr.value == "grad"
    ):
        return None
    source = key_of(value.value)
    return source if source is not None and source != key_of(target.value) else None


def _new_leaf(receiver: cst.BaseExpression | None) -> bool:
    """``torch.empty(1, requires_grad=True).backward()``: the backward of a tensor just
    made, which no model and no optimizer holds (modded-nanogpt runs one at import "to
    prevent a bug on some systems"): it writes no parameter's gradient."""
    return receiver is not None and bool(tensor_factory(receiver))


def _bool_constant(value: cst.BaseExpression) -> bool | None:
    """``True`` / ``False`` for those constants, else None."""
    if type(value) is cst.Name and value.value in ("True", "False"):
        return value.value == "True"
    return None


def _none_or_object(value: cst.BaseExpression) -> bool | None:
    """True for ``None``; False for a class's constructor call (a capitalised callee:
    ``AccumWrapper(optimizer)``, ``torch.optim.Adam(...)``), which never returns None;
    else None (unknown)."""
    if type(value) is cst.Name and value.value == "None":
        return True
    if type(value) is cst.Call:
        name = callee_name(value.func)
        if name is not None and last_segment(name)[:1].isupper():
            return False
    return None


def _only_clears_or_updates(body: list[Statement]) -> bool:
    """A parameter/optimizer loop: clears, updates or optimizer calls, and no backward.

    Other calls beside them (logging, ``note(p)``) do not make it something else: a
    call that runs a backward once per parameter is not a shape real code has, while a
    logged clear is, and reading it as no clear at all would be a false finding."""
    found = False
    for statement in _walk_statements(body):
        if isinstance(statement, Event):
            if statement.kind == EventKind.BACKWARD:
                return False
            if statement.kind in (
                EventKind.CLEAR,
                EventKind.STEP,
                EventKind.HAVOC,
                EventKind.READ,
            ) or (statement.kind == EventKind.METHOD and statement.method in RAW_METHODS):
                found = True
        elif isinstance(statement, Jump) and statement.kind == "return":
            return False
    return found


def _iterates_optimizers(iterable: cst.BaseExpression) -> bool:
    """``[opt_g, opt_d]``, ``optimizers``, ``optimizers.values()`` or ``.items()`` (whose
    second target is each optimizer)."""
    if type(iterable) in (cst.List, cst.Tuple):
        return all(
            (key := key_of(element.value)) is not None and looks_like_optimizer(key)
            for element in iterable.elements
        )
    if type(iterable) is cst.Call:
        iterable = iterable.func
        if type(iterable) is cst.Attribute and iterable.attr.value in ("values", "items"):
            iterable = iterable.value
    key = key_of(iterable)
    return key is not None and looks_like_optimizer(key)


def _iterates_parameters(iterable: cst.BaseExpression) -> bool:
    """``model.parameters()``, ``group["params"]``, ``opt.param_groups``, ``grads``..."""
    stack: list[cst.CSTNode] = [iterable]
    while stack:
        node = stack.pop()
        name = node.attr if type(node) is cst.Attribute else node
        if type(name) is cst.Name and ("param" in name.value or "grad" in name.value):
            return True
        if type(node) is cst.SimpleString and "param" in node.value:
            return True
        if type(node) not in LEAVES:
            stack.extend(subnodes(node))
    return False


def _generalize(
    body: list[Statement],
    owner: str | None,
    manual_owners: set[str | None],
    target_owners: dict[str, str] | None = None,
) -> None:
    """In a loop over parameters, per-parameter clears and updates act on all of them:
    on the module ``owner`` whose ``parameters()`` the loop iterates, or on every
    optimizer when the loop's parameters are not a module's. An update's module is
    noted in ``manual_owners``: the module whose parameter's ``.grad`` it reads
    (``target_owners``: loop variable -> the module whose parameters it runs over, in
    ``zip(a.parameters(), b.parameters())``), else ``owner``."""
    for statement in _walk_statements(body):
        if isinstance(statement, Event) and statement.kind == EventKind.STEP:
            read = statement.optimizers[0][:-5] if statement.optimizers else ""
            updated = (target_owners or {}).get(read, owner)
            manual_owners.add(updated)
            statement.optimizers = (MANUAL,)
            if statement.callee_name == HANDED_OVER and updated is not None:
                statement.modules = (updated,)
        elif (
            isinstance(statement, Event)
            and statement.kind == EventKind.CLEAR
            and statement.modules
            and statement.optimizers[0].endswith(".grad")
        ):
            if owner is not None:
                statement.optimizers, statement.modules = (), (owner,)
            else:
                statement.optimizers, statement.modules = (ALL,), ()


def _name_handed_over(body: list[Statement], target_owners: dict[str, str]) -> None:
    """Gradients handed over per parameter in a loop that is not only that (pytorch-a3c's
    ``if shared_param.grad is not None: return`` before ``shared_param._grad =
    param.grad``): each hand-over is still named by the module whose parameters the
    loop runs over, for the message."""
    for statement in _walk_statements(body):
        if isinstance(statement, Event) and statement.callee_name == HANDED_OVER:
            owner = target_owners.get(statement.optimizers[0].removesuffix(".grad"))
            if owner is not None:
                statement.modules = (owner,)


def _retarget(body: list[Statement], targets: frozenset[str], collection: frozenset[str]) -> None:
    """Events on the loop variable of ``for opt in optimizers:`` act on every optimizer of
    ``collection`` (the names the loop's iterable reads)."""
    for statement in _walk_statements(body):
        if isinstance(statement, Event) and statement.receiver in targets:
            statement.receiver = ALL
            statement.each = True
            statement.collection = collection


def _collection_names(iterable: cst.BaseExpression) -> frozenset[str]:
    """The names and attributes ``iterable`` reads (``optimizers``, ``self.discr_optims``
    of ``self.discr_optims()``, both of ``zip(models, optimizers)``), without the roots
    of longer ones (``self``)."""
    names = names_in(iterable)
    return frozenset(
        name for name in names if not any(other.startswith(name + ".") for other in names)
    )


def _filter_each(body: list[Statement], targets: frozenset[str], collection: str) -> None:
    """In a loop over optimizers run once for all of them, a test of the loop variable
    (``for k in optimizers: if k != "training": optimizers[k].step()``) picks elements
    of ``collection``: it is renamed to that, ``k@optimizers``, so that a later loop over
    the same collection with the same test (the clears, StableCascade's
    ``backward_pass``) picks the same ones, whatever ``k`` was bound to in between."""
    element = {target: f"{target}@{collection}" for target in targets}
    for statement in _walk_statements(body):
        if isinstance(statement, If) and statement.atom is not None:
            statement.atom = renamed_atom(statement.atom, element)


def _finalize(function: FunctionModel) -> None:
    """Drop assignments no condition reads and conditions nothing correlates with."""
    counts: dict[object, int] = {}
    condition_names: set[str] = set()
    _survey(function.body, counts, condition_names)
    function.condition_counts = counts
    _prune(function.body, frozenset(condition_names))
    function.lightning_optimizers = _lightning_optimizers(function)


def _lightning_optimizers(function: FunctionModel) -> dict[str, int | None]:
    """The names ``function`` binds only to ``self.optimizers()``, Lightning's getter of
    the module's optimizers (``opt_g, opt_d = self.optimizers()``), and which of them."""
    found: dict[str, int | None] = {}
    for name, (index, value) in function.tuple_assignments.items():
        if name not in function.assignments and _is_optimizers_getter(value):
            found[name] = index
    for name, values in function.assignments.items():
        if name not in function.tuple_assignments and all(map(_is_optimizers_getter, values)):
            found[name] = None
    return found


def _is_optimizers_getter(value: cst.BaseExpression) -> bool:
    return (
        type(value) is cst.Call
        and type(value.func) is cst.Attribute
        and value.func.attr.value == "optimizers"
        and type(value.func.value) is cst.Name
        and value.func.value.value == "self"
    )


def _survey(statements: list[Statement], counts: dict[object, int], names: set[str]) -> set[str]:
    """Count conditions and collect the names they read; set what each loop assigns.
    Returns the names ``statements`` assign (one pass, however deep loops nest)."""
    assigned: set[str] = set()
    for statement in statements:
        if isinstance(statement, Event):
            if statement.kind == EventKind.KILL:
                assigned |= statement.names
        elif isinstance(statement, If):
            if statement.atom is not None:
                counts[statement.atom.key] = counts.get(statement.atom.key, 0) + 1
                names |= statement.atom.names
            assigned |= _survey(statement.body, counts, names)
            assigned |= _survey(statement.orelse, counts, names)
        elif isinstance(statement, Loop):
            inside = _survey(statement.body, counts, names)
            statement.assigned = frozenset(inside) | statement.targets
            assigned |= inside
            assigned |= _survey(statement.orelse, counts, names)
        else:
            for part in child_blocks(statement):
                assigned |= _survey(part, counts, names)
    return assigned


def _prune(statements: list[Statement], condition_names: frozenset[str]) -> None:
    kept: list[Statement] = []
    for statement in statements:
        if isinstance(statement, Event) and statement.kind == EventKind.KILL:
            if not statement.names & condition_names:
                continue
            statement.names = statement.names & condition_names
        else:
            for part in child_blocks(statement):
                _prune(part, condition_names)
            if isinstance(statement, If) and not statement.body and not statement.orelse:
                continue
        kept.append(statement)
    statements[:] = kept


def build_model(
    module: cst.Module,
    options: AnalysisOptions,
    imports: dict[str, str] | None = None,
    *,
    project: bool = True,
    external: ExternalLookup | None = None,
) -> ModuleModel:
    """Walk ``module`` once and return its event model (names not yet resolved).
    ``imports``: names the text uses but does not import itself (a definition parsed
    alone, from another module of the project: its module's imports). ``project``:
    names may resolve into other modules (project mode); without, calls that only
    another module could explain are not kept. ``external``: the lookup of those
    modules, when known, tells which imported classes are linted ones."""
    walker = _Walker(module, options)
    walker.project = project
    walker.external = external
    if imports:
        walker.model.imports.update(imports)
    walker.model.body.body = walker.block(module.body)
    _finalize(walker.model.body)
    return walker.model
