"""One traversal of the libcst tree that builds each function's event model.

Deliberately no libcst visitor and no metadata providers: statements are walked by type
and expressions through a cached table of each node type's child fields, which is several
times cheaper than ``CSTNode.children`` or ``module.visit``. Anything that cannot touch
gradients is dropped on the way, so the model stays small.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import libcst as cst

from zerograd_guard.lint.errors import AnalysisError
from zerograd_guard.lint.extract.names import (
    CLEARISH_CALL,
    CONFIGURED_STEP,
    GRAD_WRITING_CALL,
    LEAVES,
    OPTIMIZER_CLASSES,
    OPTIMIZER_FACTORY,
    SCHEDULER_FACTORY,
    TupleElement,
    callee_name,
    condition_atom,
    expression_text,
    key_of,
    looks_like_optimizer,
    matches,
    subnodes,
)
from zerograd_guard.lint.model.events import (
    ALL,
    MANUAL,
    Event,
    EventKind,
    If,
    Jump,
    Loop,
    Statement,
    Try,
)
from zerograd_guard.lint.model.program import ClassInfo, FunctionModel, ModuleModel
from zerograd_guard.lint.options import AnalysisOptions

MAX_DEPTH = 100  # nested blocks
MAX_EXPRESSION_DEPTH = 3_000  # `a + b + ...` chains are left-deep trees
RAW_METHODS = frozenset({"step", "zero_grad", "optimizer_step", "first_step", "second_step"})
GRAD_CLEAR_METHODS = frozenset({"zero_", "fill_"})
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


def _is_grad(node: cst.BaseExpression) -> bool:
    """``p.grad`` or ``p.grad.data``."""
    if type(node) is cst.Attribute and node.attr.value == "data":
        node = node.value
    return type(node) is cst.Attribute and node.attr.value == "grad"


def _mentions_grad(node: cst.CSTNode) -> bool:
    stack = [node]
    while stack:
        item = stack.pop()
        if type(item) is cst.Attribute and item.attr.value == "grad":
            return True
        if type(item) not in LEAVES:
            stack.extend(subnodes(item))
    return False


def _is_true_constant(node: cst.BaseExpression) -> bool:
    return (type(node) is cst.Name and node.value == "True") or (
        type(node) is cst.Integer and node.value != "0"
    )


def _target_names(node: cst.BaseExpression) -> list[str]:
    if type(node) in (cst.Tuple, cst.List):
        names: list[str] = []
        for element in node.elements:
            names.extend(_target_names(element.value))
        return names
    if type(node) is cst.StarredElement:
        return _target_names(node.value)
    key = key_of(node)
    return [key] if key is not None else []


class _Walker:
    def __init__(self, module: cst.Module, options: AnalysisOptions) -> None:
        self.module = module
        self.options = options
        body = FunctionModel(name="<module>", node=module)
        self.model = ModuleModel(module=module, body=body, functions=[body])
        self.function = body
        self.cls: ClassInfo | None = None
        self.depth = 0
        self.managed = 0
        self.block_key: tuple[int, int] | None = None
        self.statement: cst.SimpleStatementLine | None = None
        self.anchor: cst.CSTNode | None = None
        self.method_names = self._class_method_names(module)

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
            self.expr(node.value, out)
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
                self.expr(node.value, out)
                self.function.returns_value = True
            out.append(Jump("return", node))
        elif type(node) is cst.Break:
            out.append(Jump("break", node))
        elif type(node) is cst.Continue:
            out.append(Jump("continue", node))
        elif type(node) is cst.Raise:
            out.append(Jump("return", node))
        elif type(node) in (cst.Import, cst.ImportFrom):
            self.import_(node)

    def import_(self, node: cst.Import | cst.ImportFrom) -> None:
        if type(node) is cst.Import:
            for alias in node.names:
                dotted = key_of(alias.name) or ""
                local = alias.evaluated_alias or dotted.split(".", 1)[0]
                self.model.imports[local] = dotted if alias.asname else local
        elif node.module is not None and type(node.names) is not cst.ImportStar:
            origin = key_of(node.module)
            for alias in node.names:
                name = alias.evaluated_name
                self.model.imports[alias.evaluated_alias or name] = f"{origin}.{name}"

    def record_assignment(self, key: str, value: cst.BaseExpression) -> None:
        if key.startswith("self.") and self.cls is not None and key.count(".") == 1:
            self.cls.attributes.setdefault(key[5:], []).append(value)
        else:
            self.function.assignments.setdefault(key, []).append(value)

    def assign(self, node: cst.Assign, out: list[Statement]) -> None:
        self.expr(node.value, out)
        for target in node.targets:
            expression = target.target
            if type(expression) is cst.Attribute and expression.attr.value == "grad":
                value = node.value
                is_clear = (type(value) is cst.Name and value.value == "None") or (
                    type(value) is cst.Call
                    and (callee_name(value.func) or "") in ("zeros_like", "zeros")
                )
                if is_clear:
                    out.append(self._grad_clear(node, expression.value))
                else:
                    out.append(self.event(EventKind.HAVOC, node, optimizers=(ALL,)))
                continue
            if type(expression) in (cst.Tuple, cst.List):
                names = _target_names(expression)
                for index, name in enumerate(names):
                    if name.startswith("self.") and self.cls is not None:
                        self.cls.attributes.setdefault(name[5:], []).append(
                            TupleElement(index, node.value)  # type: ignore[arg-type]
                        )
                    else:
                        self.function.tuple_assignments[name] = (index, node.value)
                out.append(self.event(EventKind.KILL, node, names=frozenset(names)))
                continue
            key = key_of(expression)
            if key is None:
                continue
            if key == "self.automatic_optimization" and self.cls is not None:
                self.cls.manual_optimization = (
                    type(node.value) is cst.Name and node.value.value == "False"
                )
            self.record_assignment(key, node.value)
            out.append(self.event(EventKind.KILL, node, names=frozenset({key})))
            if _constructs_optimizer(node.value):  # a new optimizer has applied nothing yet
                out.append(self.event(EventKind.HAVOC, node, optimizers=(key,)))

    def aug_assign(self, node: cst.AugAssign, out: list[Statement]) -> None:
        self.expr(node.value, out)
        if type(node.operator) in (cst.SubtractAssign, cst.AddAssign) and _mentions_grad(
            node.value
        ):
            out.append(self._manual_step(node, node.target))
            return
        key = key_of(node.target)
        if key is not None:
            increment = (
                type(node.operator) is cst.AddAssign
                and type(node.value) is cst.Integer
                and node.value.value == "1"
            )
            out.append(
                self.event(EventKind.KILL, node, names=frozenset({key}), increment=increment)
            )

    def _manual_step(self, node: cst.CSTNode, parameter: cst.BaseExpression) -> Event:
        """``w -= lr * w.grad``: a step of the manual optimizer of ``w`` (key ``w.grad``)."""
        if type(parameter) is cst.Attribute and parameter.attr.value == "data":
            parameter = parameter.value
        key = key_of(parameter)
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
        body = self.suite(node.body)
        orelse: list[Statement] = []
        if type(node.orelse) is cst.If:
            self.if_(node.orelse, orelse)
        elif type(node.orelse) is cst.Else:
            orelse = self.suite(node.orelse.body)
        self.block_key = saved
        if not body and not orelse:
            return
        if _mentions_grad(node.test) and not orelse and _only_clears(body):
            out.extend(body)  # `if p.grad is not None: p.grad.zero_()` clears what matters
            return
        if (
            _mentions_grad(node.test)
            and not orelse
            and all(isinstance(s, Jump) and s.kind == "continue" for s in body)
        ):
            return  # `if p.grad is None: continue` skips parameters that have nothing to clear
        atom, negated = condition_atom(node.test, self._condition_key)
        out.append(If(atom=atom, negated=negated, body=body, orelse=orelse))

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
        targets = frozenset(_target_names(node.target))
        body = self.suite(node.body)
        orelse = self.suite(node.orelse.body) if node.orelse is not None else []
        if not body and not orelse:
            return
        loop = Loop(node=node, body=body, orelse=orelse, targets=targets)
        over_optimizers = _iterates_optimizers(node.iter)
        if (over_optimizers or _iterates_parameters(node.iter)) and _only_clears_or_updates(body):
            loop.once = True
            if over_optimizers:
                _retarget(body, targets)
            else:
                _generalize(body)
        self.function.has_loop = True
        out.append(loop)

    def while_(self, node: cst.While, out: list[Statement]) -> None:
        self.expr(node.test, out)
        body = self.suite(node.body)
        orelse = self.suite(node.orelse.body) if node.orelse is not None else []
        if not body and not orelse:
            return
        infinite = _is_true_constant(node.test)
        self.function.has_loop = True
        out.append(Loop(node=node, body=body, orelse=orelse, infinite=infinite))

    def try_(self, node: cst.Try | cst.TryStar, out: list[Statement]) -> None:
        body = self.suite(node.body)
        handlers = [self.suite(handler.body) for handler in node.handlers]
        orelse = self.suite(node.orelse.body) if node.orelse is not None else []
        finalbody = self.suite(node.finalbody.body) if node.finalbody is not None else []
        if not (body or any(handlers) or orelse or finalbody):
            return
        out.append(Try(body=body, handlers=handlers, orelse=orelse, finalbody=finalbody))

    def with_(self, node: cst.With, out: list[Statement]) -> None:
        managed = False
        for item in node.items:
            self.expr(item.item, out)
            call = item.item
            if type(call) is cst.Call and callee_name(call.func) == "accumulate":
                managed = True
            if item.asname is not None:
                for name in _target_names(item.asname.name):
                    self.function.assignments.setdefault(name, []).append(item.item)
        self.managed += managed
        out.extend(self.suite(node.body))
        self.managed -= managed

    def match_(self, node: cst.Match, out: list[Statement]) -> None:
        self.expr(node.subject, out)
        branches = [self.suite(case.body) for case in node.cases]
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
        for param in params:
            if param.annotation is not None:
                model.param_annotations[param.name.value] = param.annotation.annotation
        if in_class and self.cls is not None:
            self.cls.methods[model.name] = model
        else:
            parent.nested[model.name] = model
        self.model.functions.append(model)
        saved = (
            self.function, self.managed, self.block_key, self.statement, self._in_class_body
        )  # fmt: skip
        self.function, self.managed, self._in_class_body = model, 0, False
        model.body = self.suite(node.body)
        self.function, self.managed, self.block_key, self.statement, self._in_class_body = saved
        _finalize(model)

    _in_class_body = False

    def class_def(self, node: cst.ClassDef) -> None:
        info = ClassInfo(
            name=node.name.value,
            bases=tuple(key for arg in node.bases if (key := key_of(arg.value)) is not None),
        )
        self.model.classes.setdefault(info.name, info)
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
            node = node.value  # type: ignore[attr-defined]
            kind = type(node)
        if kind in _SKIPPED_EXPRESSIONS:
            return
        if kind is cst.Call:
            self.call(node, out)  # type: ignore[arg-type]
            return
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
            self.expr(callee, out)
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
        options = self.options
        if (
            name in ("backward", "manual_backward") and not _distributed_autograd(receiver)
        ) or name in options.extra_backward_calls:
            self.function.has_backward = True
            self.function.calls_manual_backward |= name == "manual_backward"
            out.append(self.event(EventKind.BACKWARD, node))
            return
        if name == "_foreach_zero_" or name in options.extra_clear_calls:
            out.append(self.event(EventKind.CLEAR, node, optimizers=(ALL,)))
            return
        if receiver is not None and _is_grad(receiver):
            if name in GRAD_CLEAR_METHODS:
                grad = receiver.value if receiver.attr.value == "grad" else receiver.value.value  # type: ignore[attr-defined]
                out.append(self._grad_clear(node, grad))
            return
        if receiver is not None and name in UPDATE_METHODS:
            if any(_mentions_grad(arg.value) for arg in node.args):
                out.append(self._manual_step(node, receiver))
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
            if closure is None and name == "step" and positional:
                closure = positional[0]
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
        )


def _constructs_optimizer(value: cst.BaseExpression) -> bool:
    if type(value) is not cst.Call:
        return False
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
        if isinstance(statement, (If, Loop)):
            yield from _walk_statements(statement.body)
            yield from _walk_statements(statement.orelse)
        elif isinstance(statement, Try):
            yield from _walk_statements(statement.body)
            for handler in statement.handlers:
                yield from _walk_statements(handler)
            yield from _walk_statements(statement.orelse)
            yield from _walk_statements(statement.finalbody)


def _only_clears(body: list[Statement]) -> bool:
    return bool(body) and all(
        isinstance(s, Event) and s.kind in (EventKind.CLEAR, EventKind.KILL) for s in body
    )


def _only_clears_or_updates(body: list[Statement]) -> bool:
    """A parameter/optimizer loop: clears, updates or optimizer calls, and no backward."""
    found = False
    for statement in _walk_statements(body):
        if isinstance(statement, Event):
            if statement.kind in (EventKind.BACKWARD, EventKind.CALL):
                return False
            if statement.kind in (EventKind.CLEAR, EventKind.STEP, EventKind.HAVOC) or (
                statement.kind == EventKind.METHOD and statement.method in RAW_METHODS
            ):
                found = True
        elif isinstance(statement, Jump) and statement.kind == "return":
            return False
    return found


def _iterates_optimizers(iterable: cst.BaseExpression) -> bool:
    if type(iterable) in (cst.List, cst.Tuple):
        return all(
            (key := key_of(element.value)) is not None and looks_like_optimizer(key)
            for element in iterable.elements
        )
    if type(iterable) is cst.Call:
        iterable = iterable.func
        if type(iterable) is cst.Attribute and iterable.attr.value == "values":
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


def _generalize(body: list[Statement]) -> None:
    """In a loop over parameters, per-parameter clears and updates act on all of them."""
    for statement in _walk_statements(body):
        if isinstance(statement, Event) and statement.kind == EventKind.STEP:
            statement.optimizers = (MANUAL,)
        elif (
            isinstance(statement, Event)
            and statement.kind == EventKind.CLEAR
            and statement.modules
            and statement.optimizers[0].endswith(".grad")
        ):
            statement.optimizers, statement.modules = (ALL,), ()


def _retarget(body: list[Statement], targets: frozenset[str]) -> None:
    """Events on the loop variable of ``for opt in optimizers:`` act on every optimizer."""
    for statement in _walk_statements(body):
        if isinstance(statement, Event) and statement.receiver in targets:
            statement.receiver = ALL


def _finalize(function: FunctionModel) -> None:
    """Drop assignments no condition reads and conditions nothing correlates with."""
    counts: dict[object, int] = {}
    condition_names: set[str] = set()
    _survey(function.body, counts, condition_names)
    function.condition_counts = counts
    _prune(function.body, frozenset(condition_names))


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
        elif isinstance(statement, Try):
            parts = (statement.body, *statement.handlers, statement.orelse, statement.finalbody)
            for part in parts:
                assigned |= _survey(part, counts, names)
    return assigned


def _prune(statements: list[Statement], condition_names: frozenset[str]) -> None:
    kept: list[Statement] = []
    for statement in statements:
        if isinstance(statement, Event) and statement.kind == EventKind.KILL:
            if not statement.names & condition_names:
                continue
            statement.names = statement.names & condition_names
        elif isinstance(statement, If):
            _prune(statement.body, condition_names)
            _prune(statement.orelse, condition_names)
            if not statement.body and not statement.orelse:
                continue
        elif isinstance(statement, Loop):
            _prune(statement.body, condition_names)
            _prune(statement.orelse, condition_names)
        elif isinstance(statement, Try):
            for part in (
                statement.body,
                *statement.handlers,
                statement.orelse,
                statement.finalbody,
            ):
                _prune(part, condition_names)
        kept.append(statement)
    statements[:] = kept


def build_model(module: cst.Module, options: AnalysisOptions) -> ModuleModel:
    """Walk ``module`` once and return its event model (names not yet resolved)."""
    walker = _Walker(module, options)
    walker.model.body.body = walker.block(module.body)
    _finalize(walker.model.body)
    return walker.model
