"""Parameter sets: what each optimizer steps and what each backward reaches.

In PyTorch gradients live on parameters: a backward writes the parameters its loss was
computed from, an optimizer steps the parameters it was built with, a clear clears the
parameters it covers. Parameter sets are named here by the *modules* they belong to
(``netD``, ``self.model``), in the namespace of the function that names them.

* ``optimizer_modules`` — the modules an optimizer's constructor argument takes its
  parameters from (``m.parameters()``, sums, lists and ``itertools.chain`` of them,
  param-group dicts, ``filter(lambda p: p.requires_grad, ...)``, comprehensions over
  ``named_parameters()``), or None when that is not known.
* ``ReachTracer`` — the modules a backward's loss was computed from, followed through
  the function's local data flow (assignments, arithmetic, criterion calls on module
  outputs, tuple unpacking, attribute reads like ``.logits``) and cut by ``.detach()``,
  ``.item()``, ``.data`` and ``torch.no_grad()``. Its answer says whether every leaf of
  the loss was followed (``complete``): only a complete answer may say that a backward
  does *not* reach a module.
* ``origins`` — the modules a module name was derived from (``DDP(model)``,
  ``model.to(device)``, ``accelerator.prepare(model)``, a plain alias): the same
  parameters under another name. ``copy.deepcopy(model)`` and a new ``Net()`` are other
  parameters.

Whatever cannot be resolved is unknown, and unknown never creates a finding.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import libcst as cst

from zerograd_guard.lint.extract.names import (
    LEAVES,
    TupleElement,
    callee_name,
    from_torch,
    key_of,
    return_values,
    root_of,
    subnodes,
    tensor_factory,
)
from zerograd_guard.lint.extract.walker import local_class
from zerograd_guard.lint.model.events import Reach
from zerograd_guard.lint.model.program import ClassInfo, FunctionModel, ModuleModel, ValuePlace
from zerograd_guard.lint.module_methods import MOVES

MAX_TRACE_NODES = 400
MAX_ORIGIN_DEPTH = 4
# Reading these gives a tensor outside the autograd graph.
CUT_METHODS = frozenset({"detach", "detach_", "item", "tolist", "numpy", "data_ptr"})
CUT_ATTRIBUTES = frozenset({"data", "grad", "shape", "dtype", "device", "requires_grad"})
# Calls that make a new module with parameters of its own.
COPIES = frozenset({"deepcopy", "copy", "clone_model", "from_pretrained"})
# Packages whose functions compute on the tensors they are handed (and touch no module).
PURE_PACKAGES = frozenset({"torch", "math", "numpy", "np", "F", "einops"})
BUILTIN_FUNCTIONS = frozenset(
    {
        "sum", "min", "max", "abs", "float", "int", "len", "pow", "round", "list", "tuple",
        "zip", "range", "enumerate", "reversed", "sorted", "map", "dict", "isinstance",
    }
)  # fmt: skip
# Modules that hold the modules they are built with (a clear of one clears them).
CONTAINERS = frozenset({"ModuleDict", "ModuleList", "Sequential"})
# Calls that wrap the module they are handed (its parameters, under another name).
WRAPPERS = frozenset(
    {
        "prepare", "prepare_model", "compile", "DistributedDataParallel", "DataParallel",
        "DDP", "FSDP", "FullyShardedDataParallel", "wrap", "unwrap_model",
    }
)  # fmt: skip
# Wrappers handed several objects at once, each element of the result the argument at
# its position (accelerate's ``prepare``).
PREPARE_CALLS = frozenset({"prepare", "prepare_model"})
# Tensor methods: their result comes from the receiver and the arguments only.
TENSOR_METHODS = frozenset(
    {
        "sum", "mean", "pow", "abs", "log", "exp", "sqrt", "square", "view", "reshape",
        "squeeze", "unsqueeze", "mul", "add", "sub", "div", "matmul", "norm", "clamp", "float",
        "half", "double", "to", "cuda", "cpu", "contiguous", "permute", "transpose", "flatten",
        "softmax", "log_softmax", "sigmoid", "tanh", "relu", "max", "min", "gather", "expand",
        "repeat", "chunk", "split", "type_as", "masked_fill", "index_select", "scale", "neg",
        "std", "var", "prod", "t", "flip", "roll", "narrow", "select", "long", "int", "bool",
    }
)  # fmt: skip
CONSTANTS = (
    cst.Integer,
    cst.Float,
    cst.Imaginary,
    cst.SimpleString,
    cst.ConcatenatedString,
    cst.FormattedString,
    cst.Ellipsis,
)


def optimizer_modules(call: cst.Call, function: FunctionModel) -> frozenset[str] | None:
    """Modules whose parameters an optimizer built by ``call`` steps (None: unknown)."""
    params = next(
        (arg.value for arg in call.args if arg.keyword is None or arg.keyword.value == "params"),
        None,
    )
    if params is None:
        return None
    return parameter_modules(params, function)


def parameter_modules(params: cst.BaseExpression, function: FunctionModel) -> frozenset[str] | None:
    """Modules whose parameters ``params`` holds (``m.parameters()``, sums, lists, chains
    and param-group dicts of them, and tensors the function makes, each its own module;
    None: unknown)."""
    modules: set[str] = set()
    bound: set[str] = set()  # comprehension variables: `[p for m in nets for p in ...]`
    stack: list[tuple[cst.CSTNode, int]] = [(params, 0)]
    while stack:
        node, depth = stack.pop()
        if type(node) is cst.CompFor:
            bound.update(n.value for n in _names(node.target))
        if (
            type(node) is cst.Call
            and type(node.func) is cst.Attribute
            and node.func.attr.value in ("parameters", "named_parameters")
        ):
            module = key_of(node.func.value)
            if module is not None:
                modules.add(module)
            continue
        if type(node) is cst.Name and depth < 2:
            values = function.assignments.get(node.value, ())
            if values and all(tensor_factory(value) for value in values):
                modules.add(node.value)  # a tensor made here (``SGD([lam])``): its own
                continue
            for value in values:
                stack.append((value, depth + 1))
            continue
        if type(node) not in LEAVES:
            stack.extend((child, depth) for child in subnodes(node))
    if not modules or any(module.split(".", 1)[0] in bound for module in modules):
        return None
    return frozenset(modules)


# One expression to follow: the node, the function whose names it reads, and the point it
# is read at (source order, branch depth; None: anywhere, a class attribute's value).
_Item = tuple[cst.CSTNode, "FunctionModel | None", "ValuePlace | None"]


class ReachTracer:
    """What a loss expression was computed from, in one file."""

    def __init__(self, model: ModuleModel, bound: FunctionModel | None = None) -> None:
        self.model = model
        self.module_functions = model.body.nested
        # a function of the file whose returned value is traced for one call of it
        # (``_returned``): its parameters are that call's arguments, followed there
        self.bound = bound
        self._origins: dict[tuple[str, int], frozenset[str]] = {}
        # ``values`` per (key, id of scope, read point): traces of a file's losses and
        # the ``_instance`` checks ask for the same names again and again. The model does
        # not change while it is traced, and callers only read the lists.
        self._values: dict[tuple[str, int, ValuePlace | None], tuple[list[_Item], bool] | None] = {}

    def reach(self, loss: cst.BaseExpression, function: FunctionModel) -> Reach:
        modules: set[str] = set()
        stack: list[_Item] = [(loss, function, function.value_order.get(id(loss)))]
        complete = self._trace(stack, modules)
        return Reach(self._with_origins(modules, function), complete)

    def _trace(self, stack: list[_Item], modules: set[str]) -> bool:
        """Follow ``stack`` to its leaves, adding the modules called on the way to
        ``modules``; whether every leaf was followed."""
        complete = True
        seen: set[int] = set()
        while stack:
            item = stack.pop()
            node = item[0]
            if id(node) in seen:
                continue
            seen.add(id(node))
            if len(seen) > MAX_TRACE_NODES:
                return False
            kind = type(node)
            if kind in CONSTANTS:
                continue
            if kind is cst.Call:
                complete &= self._call(item, modules, stack)
                continue
            if kind is cst.Attribute and node.attr.value in CUT_ATTRIBUTES:  # type: ignore[attr-defined]
                continue
            if kind in (cst.Name, cst.Attribute, cst.Subscript):
                complete &= self._value(item, stack, modules)
                continue
            if kind in (cst.Lambda, cst.Await, cst.Yield, cst.NamedExpr) or "Comp" in kind.__name__:
                complete = False
                if _cut_elements(node):
                    continue  # ``{k: v.detach() for k, v in net.named_parameters()}``
            stack.extend(_children(item))
        return complete

    def reach_of_inputs(self, inputs: cst.BaseExpression, function: FunctionModel) -> Reach:
        """A backward restricted to ``inputs=`` (``loss.backward(inputs=list(g.parameters()))``)
        writes the gradients of those parameters only: their modules, complete when every
        one is known."""
        modules = parameter_modules(inputs, function)
        if modules is None:
            return Reach(frozenset(), False)
        return Reach(self._with_origins(modules, function), True)

    def _with_origins(self, modules: Iterable[str], function: FunctionModel) -> frozenset[str]:
        """``modules`` and every module each was derived from (``origins``)."""
        expanded = set(modules)
        for module in list(expanded):
            expanded |= self._all_origins(module, function)
        return frozenset(expanded)

    def _all_origins(self, module: str, function: FunctionModel) -> frozenset[str]:
        key = (module, id(function))
        found = self._origins.get(key)
        if found is None:
            found = self._origins[key] = frozenset(self.origins(module, function))
        return found

    def _value(self, item: _Item, stack: list[_Item], modules: set[str]) -> bool:
        """Follow what a name holds where it is read; whether its leaves are all known. A
        name bound to a new tensor (``w = torch.rand(..., requires_grad=True)``) is a
        parameter of its own, like a module: added to ``modules``."""
        node, scope, at = item
        key = key_of(node)
        if key is not None:
            values = self.values(key, scope, at)
            if values is not None:
                found, exact = values
                stack.extend(found)
                if any(self._new_tensor(value) for value, _, _ in found):
                    modules.add(key)
                return exact
        if type(node) is not cst.Name:  # ``out.logits`` / ``outputs[0]``: a read of ``out``
            stack.append((node.value, scope, at))  # type: ignore[attr-defined]
            return True
        return self._leaf_known(node.value, scope)  # type: ignore[attr-defined]

    def _new_tensor(self, value: cst.BaseExpression) -> bool:
        factory = tensor_factory(value)
        if not factory:  # a copy of another tensor reaches what that one reaches
            return False
        return from_torch(factory, self.model.imports)

    def _leaf_known(self, name: str, scope: FunctionModel | None) -> bool:
        """A name nothing in the file assigns: data (a loop target, an import, a global
        the file uses without defining), or unknown (a parameter: the caller's tensor;
        one of the helper traced for a call, ``bound``, is the call's argument, which
        the caller follows)."""
        if scope is not None and scope is self.bound and name in scope.params:
            return True
        while scope is not None:
            if name in scope.params:
                return False
            if name in scope.loop_targets:
                return True
            scope = scope.parent
        return True

    def values(
        self, key: str, scope: FunctionModel | None, at: ValuePlace | None = None
    ) -> tuple[list[_Item], bool] | None:
        """The expressions assigned to ``key`` that a read at ``at`` sees, and whether
        that choice is exact; None when nothing assigns ``key``. The read sees the latest
        assignment before it; one made in a branch the read is not in may not have run,
        so the earlier ones count too (not exact). Values computed under
        ``torch.no_grad()`` are cut. Without a position every value counts."""
        memo = (key, id(scope), at)
        if memo in self._values:
            return self._values[memo]
        found = self._values[memo] = self._values_of(key, scope, at)
        return found

    def _values_of(
        self, key: str, scope: FunctionModel | None, at: ValuePlace | None
    ) -> tuple[list[_Item], bool] | None:
        if key.startswith("self.") and key.count(".") == 1:
            cls = self._class_of(scope)
            if cls is None or key[5:] not in cls.attributes:
                return None
            found: list[_Item] = []
            for value in cls.attributes[key[5:]]:
                target = value.value if isinstance(value, TupleElement) else value
                found.append((target, None, None))
            return found, True
        while scope is not None:
            added = scope.augmented.get(key, ())
            values = [*scope.assignments.get(key, ()), *added]
            if key in scope.tuple_assignments:
                values.append(_element_value(*scope.tuple_assignments[key]))
            if values:
                # a value of a plain local name lives for one call: one assigned in the
                # other arm of an ``if`` was not assigned in this call
                local = "." not in key and "[" not in key and key not in scope.shared_names
                return self._seen_at(values, scope, at, frozenset(map(id, added)), local)
            if key in scope.params:
                return None
            scope, at = scope.parent, None
        return None

    @staticmethod
    def _seen_at(
        values: list[cst.BaseExpression],
        scope: FunctionModel,
        at: ValuePlace | None,
        augmented: frozenset[int] = frozenset(),
        local: bool = False,
    ) -> tuple[list[_Item], bool]:
        """The values a read at ``at`` sees (see ``values``). A value of a ``local``
        name assigned in the other arm of an ``if`` the read is in is not seen, unless a
        loop runs both (from an earlier iteration); such a value never hides the values
        before it (it may not have run). An augmented one (``loss /= k``: ``augmented``
        holds their ids) adds to what the name held before it, which the read sees too."""
        order = scope.value_order
        placed = sorted(
            ((order.get(id(value), _NOWHERE), value) for value in values), key=lambda p: p[0][0]
        )
        if local and at is not None and at[2]:
            placed = [pair for pair in placed if not _other_arm(pair[0][2], at[2], False)]
        chosen = placed
        exact = at is None
        if at is not None:
            before = [pair for pair in placed if pair[0][0] < at[0]]
            if before:
                chosen, exact = [before[-1]], True
                for pair in reversed(before[:-1]):
                    latest = chosen[-1]
                    if id(latest[1]) in augmented:
                        chosen.append(pair)  # the value it adds to
                        continue
                    if latest[0][1] <= at[1] and not _other_arm(latest[0][2], at[2], None):
                        break  # the latest ran whenever the read did
                    chosen.append(pair)
                    exact = False
            else:
                exact = False  # assigned only later: a value carried over a loop's back edge
        found = [
            (value, scope, place) for place, value in chosen if id(value) not in scope.cut_values
        ]
        return found, exact

    def _call(self, item: _Item, modules: set[str], stack: list[_Item]) -> bool:
        """A call in the loss's graph: a module call adds its module; its arguments are
        followed. Returns whether its own result is known to come from them only."""
        node, scope, at = item
        func = node.func  # type: ignore[attr-defined]
        name = callee_name(func) or ""
        if name in CUT_METHODS:
            return True
        args = [(arg.value, scope, at) for arg in node.args]  # type: ignore[attr-defined]
        key = key_of(func)
        if type(func) is cst.Attribute:
            receiver = func.value
            root = (key or "").split(".", 1)[0]
            if root in PURE_PACKAGES or self.model.imports.get(root, "").startswith("torch"):
                stack.extend(args)  # ``torch.cat(...)``, ``F.mse_loss(...)``
                return True
            stack.extend(args)
            receiver_key = key_of(receiver)
            method = (
                self._method_of(receiver_key, name, scope)
                if receiver_key is not None and self.bound is None
                else None
            )
            if method is not None:  # ``g.get_comb_pred(x, c)``: what that method returns
                return self._returned(method, node, scope, modules, receiver=receiver)  # type: ignore[arg-type]
            stack.append((receiver, scope, at))
            if name in TENSOR_METHODS:
                return True
            known = False
            submodule = None
            if key is not None and receiver_key is not None:
                submodule = self._submodule(receiver_key, name, scope)
            if submodule is not None:
                known = submodule  # ``ac.pi(obs)``: the submodule runs, not ``ac.v``
            elif receiver_key is not None and receiver_key not in ("self", "cls"):
                modules.add(receiver_key)  # ``model.forward(x)``, ``dist.log_prob(a)``
                known = self._instance(receiver_key, scope)
            elif type(receiver) is cst.Call:
                # ``accelerator.unwrap_model(vae).decode(z)``: a method of the wrapped module
                for wrapped in _same_parameters(receiver):
                    modules.add(wrapped)
                    known = known or self._instance(wrapped, scope)
            if key is not None:
                modules.add(key)  # ``self.netD(x)``
                known = known or self._instance(key, scope)
            return known
        stack.extend(args)
        if type(func) is not cst.Name:
            if key is not None:
                modules.add(key)  # ``models[0](x)``
            stack.append((func, scope, at))
            return False
        if name in BUILTIN_FUNCTIONS:
            return True
        helper = self._helper(name, scope)
        if helper is not None and self.bound is None:
            return self._returned(helper, node, scope, modules)  # type: ignore[arg-type]
        if helper is not None or name in self.model.classes or local_class(name, scope) is not None:
            return False  # a function of this file may use any module
        if name in self.model.imports:
            return self.model.imports[name].split(".", 1)[0] in PURE_PACKAGES
        modules.add(name)  # ``model(x)``, ``criterion(out, y)``
        return self._instance(name, scope)

    def _submodule(self, receiver: str, attribute: str, scope: FunctionModel | None) -> bool | None:
        """Whether ``receiver.attribute(...)`` calls a module the receiver holds, not a
        method of it: ``receiver`` holds instances of classes of the file only, each of
        which assigns ``self.attribute`` and defines no method of that name (its bases'
        in the file included). Then only that submodule's parameters run (an actor-critic's
        ``ac.pi(obs)`` does not reach ``ac.v``). Returns whether every value assigned to
        the attribute is built by a call (the answer's completeness); None: not known to
        be a submodule."""
        if receiver in ("self", "cls"):
            return None
        values = self.values(receiver, scope)
        if values is None or not values[0]:
            return None
        built = True
        for value, _, _ in values[0]:
            if type(value) is not cst.Call:
                return None
            info = self.model.classes.get(callee_name(value.func) or "")
            if info is None:
                return None
            assigned = self._attribute_values(info, attribute)
            if assigned is None:
                return None
            built = built and all(type(v) is cst.Call for v in assigned)
        return built

    def _method_of(
        self, receiver: str, name: str, scope: FunctionModel | None
    ) -> FunctionModel | None:
        """The method ``name`` (not ``forward``: a call runs hooks around it) that
        ``receiver.name(...)`` runs when ``receiver`` holds instances of one class of the
        file only, which (or a base of the file) defines it; None otherwise."""
        if receiver in ("self", "cls") or name in ("forward", "__call__"):
            return None
        values = self.values(receiver, scope)
        if values is None or not values[0]:
            return None
        found: FunctionModel | None = None
        for value, _, _ in values[0]:
            if type(value) is not cst.Call or type(value.func) is not cst.Name:
                return None
            method = self._defined_method(self.model.classes.get(value.func.value), name)
            if method is None or (found is not None and method is not found):
                return None
            found = method
        return found

    def _defined_method(self, info: ClassInfo | None, name: str) -> FunctionModel | None:
        seen: set[str] = set()
        while info is not None and info.name not in seen:
            seen.add(info.name)
            if name in info.methods:
                return info.methods[name]
            bases = [c for base in info.bases if (c := self.model.classes.get(base))]
            if len(bases) != 1:
                return None
            info = bases[0]
        return None

    def _attribute_values(self, info: ClassInfo, attribute: str) -> list[cst.BaseExpression] | None:
        """What the class (and its bases of the file) assigns to ``self.attribute``; None
        when a method of that name is defined or nothing assigns it."""
        values: list[cst.BaseExpression] = []
        pending, seen = [info], set()
        while pending:
            current = pending.pop()
            if current.name in seen:
                continue
            seen.add(current.name)
            if attribute in current.methods:
                return None
            for value in current.attributes.get(attribute, ()):
                values.append(value.value if isinstance(value, TupleElement) else value)
            pending.extend(c for base in current.bases if (c := self.model.classes.get(base)))
        return values or None

    def _helper(self, name: str, scope: FunctionModel | None) -> FunctionModel | None:
        """The function of this file ``name`` calls from ``scope`` (None: another)."""
        while scope is not None:
            if name in scope.nested:
                return scope.nested[name]
            scope = scope.parent
        return self.module_functions.get(name)

    def _returned(
        self,
        helper: FunctionModel,
        call: cst.Call,
        scope: FunctionModel | None,
        modules: set[str],
        receiver: cst.BaseExpression | None = None,
    ) -> bool:
        """A call of ``helper``, a function of this file: what it returns is traced
        through its ``return`` values with its parameters bound to the call's arguments
        (``compute_gradient_penalty(discriminator, real)`` reaches ``discriminator``; the
        arguments themselves are followed by the caller). A module it calls through a
        parameter is the argument's; one of its own (a copy it makes, a global) is not
        named here, so the answer is then incomplete, as it is for a generator, a
        ``*args`` call, or a parameter left to its default. Followed one call deep.
        ``receiver``: ``helper`` is a method called on it, which its first parameter
        (``self``) names."""
        returned = return_values(helper.node)
        arguments = bound_arguments(helper.node, call, receiver)
        if not returned or arguments is None:
            return False
        tracer = ReachTracer(self.model, bound=helper)
        tracer._values = self._values  # the same model: what names hold is shared
        inner: set[str] = set()
        order = helper.value_order
        complete = tracer._trace(
            [(value, helper, order.get(id(value))) for value in returned], inner
        )
        for module in inner:
            root = root_of(module)
            argument = arguments.get(root) if root in helper.params else None
            key = key_of(argument) if argument is not None else None
            if key is None:
                complete = False  # the helper's own module, or an argument that names none
                continue
            mapped = key + module[len(root) :]
            modules.add(mapped)
            complete = complete and self._instance(root_of(mapped), scope)
        return complete

    def contained(self, key: str, scope: FunctionModel, depth: int = 0) -> set[str]:
        """The modules ``key`` holds as a container (``nn.ModuleDict({"G": netG})``,
        ``nn.ModuleList([a, b])``, ``nn.Sequential(a, b)``): clearing it clears them."""
        found: set[str] = set()
        values = self.values(key, scope)
        if values is None or depth > MAX_ORIGIN_DEPTH:
            return found
        for value, value_scope, _ in values[0]:
            if type(value) is not cst.Call or callee_name(value.func) not in CONTAINERS:
                continue
            for arg in value.args:
                items: list[cst.BaseExpression] = [arg.value]
                if type(arg.value) is cst.Dict:
                    items = [e.value for e in arg.value.elements if type(e) is cst.DictElement]
                elif type(arg.value) in (cst.List, cst.Tuple):
                    items = [e.value for e in arg.value.elements]
                for item in items:
                    item_key = key_of(item)
                    if item_key is not None:
                        found.add(item_key)
                        found |= self.contained(item_key, value_scope or scope, depth + 1)
        return found

    def _instance(self, key: str, scope: FunctionModel | None) -> bool:
        """Whether ``key`` holds an object this file builds (``Net()``, ``nn.MSELoss()``,
        ``copy.deepcopy(model)``): calling it runs that object's own parameters. A
        parameter, a global the file does not assign, an alias or a lambda may be any
        callable, which may use any module. A parameter of the helper traced for a call
        (``bound``) holds the call's argument: the caller asks about that."""
        if self.bound is not None and scope is self.bound and root_of(key) in scope.params:
            return True
        values = self.values(key, scope)
        return values is not None and all(
            type(value[0]) is cst.Call and not self._built_around(value[0]) for value in values[0]
        )

    def _built_around(self, call: cst.Call) -> bool:
        """Whether ``call`` (not a copy, not a wrapper of the same parameters) is handed a
        module some optimizer of the file steps (``ModelWithLoss(model, criterion)``,
        ``Wrapper(net)``): what it builds may run that module's parameters, which it
        holds under names no trace follows."""
        name = callee_name(call.func) or ""
        if name in COPIES or _same_parameters(call):
            return False
        handed = {key_of(arg.value) for arg in call.args} - {None}
        return any(tie is not None and handed & tie for tie in self.model.ties.values())

    def _class_of(self, scope: FunctionModel | None) -> ClassInfo | None:
        while scope is not None:
            if scope.class_name is not None:
                return self.model.classes.get(scope.class_name)
            scope = scope.parent
        return None

    def origins(self, module: str, function: FunctionModel | None) -> Iterator[str]:
        """The modules ``module`` was derived from with the same parameters (a wrapper,
        a move, an alias), ``module`` itself first."""
        seen = {module}
        pending = [(module, function, 0)]
        while pending:
            name, scope, depth = pending.pop()
            yield name
            if depth >= MAX_ORIGIN_DEPTH:
                continue
            values = self.values(name, scope)
            for value, value_scope, _ in values[0] if values else ():
                for source in _same_parameters(value):
                    if source not in seen:
                        seen.add(source)
                        pending.append((source, value_scope or scope, depth + 1))
            root, _, rest = name.partition(".")
            if not rest or root == "self":
                continue
            # a submodule of an alias (``cur_model.head`` with ``cur_model = model``) is
            # the same submodule of what the alias names (``model.head``)
            values = self.values(root, scope)
            for value, value_scope, _ in values[0] if values else ():
                for source in _same_parameters(value):
                    derived = f"{source}.{rest}"
                    if derived not in seen:
                        seen.add(derived)
                        pending.append((derived, value_scope or scope, depth + 1))


def _cut_elements(node: cst.CSTNode) -> bool:
    """Whether every element a comprehension builds is cut from the autograd graph at
    its top (``v.detach()``, ``p.data``): what it iterates over reaches no gradient."""
    element = (
        getattr(node, "value", None) if type(node) is cst.DictComp else getattr(node, "elt", None)
    )
    if type(element) is cst.Call and type(element.func) is cst.Attribute:
        return element.func.attr.value in CUT_METHODS
    if type(element) is cst.Attribute:
        return element.attr.value in CUT_ATTRIBUTES
    return False


_NOWHERE: ValuePlace = (0, 0, ())


def _other_arm(
    arms: tuple[tuple[int, int, bool], ...],
    read: tuple[tuple[int, int, bool], ...],
    in_loop: bool | None,
) -> bool:
    """Whether ``arms`` (where a value is assigned) and ``read`` (where it is read) take
    different arms of one ``if`` that is (``in_loop``) or is not in a loop (None: either)."""
    taken = {node: arm for node, arm, _ in read}
    return any(
        in_loop in (None, looped) and taken.get(node, arm) != arm for node, arm, looped in arms
    )


def _children(item: _Item) -> list[_Item]:
    node, scope, at = item
    return [(child, scope, at) for child in subnodes(node)]


def bound_arguments(
    node: cst.CSTNode, call: cst.Call, receiver: cst.BaseExpression | None = None
) -> dict[str, cst.BaseExpression | None] | None:
    """Each parameter of the function ``node`` defines -> the argument ``call`` passes
    it (None: left to its default); None when that is not known (``*args``, ``**kw``).
    With ``receiver``, a method called on it: its first parameter is bound to it."""
    if type(node) is not cst.FunctionDef or node.asynchronous is not None:
        return None  # a coroutine function's call returns no such value
    params = node.params
    positional = [p.name.value for p in (*params.posonly_params, *params.params)]
    first: dict[str, cst.BaseExpression | None] = {}
    if receiver is not None:
        if not positional:
            return None
        first = {positional.pop(0): receiver}
    keywords = {p.name.value for p in params.params} | {p.name.value for p in params.kwonly_params}
    bound: dict[str, cst.BaseExpression | None] = dict.fromkeys(
        [*positional, *(p.name.value for p in params.kwonly_params)]
    )
    index = 0
    for arg in call.args:
        if arg.star:
            return None
        if arg.keyword is None:
            if index >= len(positional):
                return None
            bound[positional[index]] = arg.value
            index += 1
        elif arg.keyword.value in keywords:
            bound[arg.keyword.value] = arg.value
        else:
            return None
    return {**first, **bound}


def _same_parameters(value: cst.CSTNode) -> list[str]:
    """The module names ``value`` hands on with their parameters."""
    if type(value) in (cst.Name, cst.Attribute):
        key = key_of(value)
        return [key] if key is not None else []
    if type(value) is cst.IfExp:  # ``model.module if hasattr(model, "module") else model``
        return [*_same_parameters(value.body), *_same_parameters(value.orelse)]
    if type(value) is not cst.Call:
        return []
    name = callee_name(value.func) or ""
    if name in COPIES:
        return []
    if name in MOVES and type(value.func) is cst.Attribute:
        return _same_parameters(value.func.value)  # ``model.to(device)``: the receiver
    if name not in WRAPPERS:
        return []
    positional = [arg.value for arg in value.args if arg.keyword is None]
    if name in PREPARE_CALLS:  # each element keeps what its argument held
        return [key for arg in positional for key in _same_parameters(arg)]
    return _same_parameters(positional[0]) if positional else []  # ``DDP(model, ...)``


def _element_value(index: int, value: cst.BaseExpression) -> cst.BaseExpression:
    """What element ``index`` of a tuple unpacked from ``value`` holds: for
    ``accelerator.prepare(a, b, ...)`` (or ``prepare_model``) the argument at that position,
    prepared (accelerate returns its arguments in order); else the whole value."""
    if (
        type(value) is cst.Call
        and (callee_name(value.func) or "") in PREPARE_CALLS
        and all(arg.keyword is None and not arg.star for arg in value.args)
        and 0 <= index < len(value.args)
    ):
        return value.args[index].value
    return value


def _names(target: cst.BaseExpression) -> list[cst.Name]:
    if type(target) is cst.Name:
        return [target]
    if type(target) in (cst.Tuple, cst.List):
        return [name for element in target.elements for name in _names(element.value)]
    return []
