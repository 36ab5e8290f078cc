"""What a function of the run may change of an object it is handed.

A loop whose branches test a configuration flag (``if train_config.use_fp16:``) pairs
a clear in one branch with the other only while nothing can change the flag; a call
handed ``train_config`` might (``flow.pairing._may_change``). Most such calls only read
it: llama-recipes hands ``train_config`` to ``profile(...)``, ``evaluation(...)`` and
its checkpoint savers, each reading attributes. This reads the callee (a top-level
function of the analysed file or of another linted module, with ``ast``) and says which
parts of the parameter it may change, as paths relative to it: ``"x"`` for
``param.x = v``, ``"amp"`` for ``update(param.amp)``, ``""`` (anything) for the
parameter handed to a call, a method called on it, or stored anywhere. None: unknown
(not a function of the run, a ``*args`` slot, a parameter used any other way).

Reading an attribute, comparing the parameter, and handing it to a builtin that only
reads (``print``, ``len``, ``getattr``, ``isinstance``...) change nothing; a string
method on one of its attributes (``param.name.split("/")``) neither.
"""

from __future__ import annotations

import ast

from zerograd_guard.lint.project.graph import Project
from zerograd_guard.lint.project.index import ModuleEntry

# Builtins that only read what they are handed.
READING_CALLS = frozenset(
    {
        "print", "len", "str", "repr", "int", "float", "bool", "isinstance", "hasattr",
        "getattr", "type", "id", "format", "sorted", "min", "max", "any", "all", "abs",
        "round", "hash", "enumerate", "zip", "range",
    }
)  # fmt: skip
# Methods of the values configurations hold (strings, dicts) that only read.
READING_METHODS = frozenset(
    {
        "split", "rsplit", "replace", "format", "join", "startswith", "endswith", "lower",
        "upper", "strip", "lstrip", "rstrip", "get", "items", "keys", "values", "copy",
        "count", "index", "find",
    }
)  # fmt: skip


def changed_parts(
    project: Project, entry: ModuleEntry, callee: str, slot: int | str
) -> frozenset[str] | None:
    """What the function ``callee`` (as written in ``entry``) may change of what it is
    handed in ``slot``; None: unknown."""
    target = project.top_definition(entry, callee, is_class=False)
    if target is None:
        return None
    from zerograd_guard.lint.project.call_sites import for_project, top_level_function

    tree = for_project(project).tree(target.entry)
    function = top_level_function(tree, target.attribute[0]) if tree is not None else None
    if function is None:
        return None
    param = _parameter(function.args, slot)
    return None if param is None else _changed(function, param)


def _parameter(args: ast.arguments, slot: int | str) -> str | None:
    positional = [a.arg for a in (*args.posonlyargs, *args.args)]
    if isinstance(slot, int):
        return positional[slot] if slot < len(positional) else None
    keyword = {a.arg for a in (*args.args, *args.kwonlyargs)}
    return slot if slot in keyword else None


def _path(node: ast.expr, param: str) -> str | None:
    """``node``'s path inside ``param`` (``"a.b"`` for ``param.a.b``, ``""`` for the
    parameter itself; a subscript ends the path), or None when it is not read from it."""
    parts: list[str] = []
    while True:
        if isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        elif isinstance(node, ast.Subscript):
            parts.clear()  # what follows an item is inside it: the item's holder changes
            node = node.value
        elif isinstance(node, ast.Name):
            return ".".join(reversed(parts)) if node.id == param else None
        else:
            return None


def _changed(function: ast.FunctionDef | ast.AsyncFunctionDef, param: str) -> frozenset[str] | None:
    changed: set[str] = set()
    accounted: set[int] = set()  # ``param`` names read in a way judged here
    for node in ast.walk(function):
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
            targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
            for target in targets:
                for part in ast.walk(target):
                    if isinstance(part, (ast.Attribute, ast.Subscript)):
                        path = _path(part, param)
                        if path is not None:
                            changed.add(path)
                            _account(part, accounted)
        elif isinstance(node, ast.Call):
            func = node.func
            receiver = _path(func.value, param) if isinstance(func, ast.Attribute) else None
            if receiver is not None:  # a method of the parameter or of a part of it
                if not (receiver and func.attr in READING_METHODS):  # type: ignore[union-attr]
                    changed.add(receiver)
                _account(func, accounted)
            reading = isinstance(func, ast.Name) and func.id in READING_CALLS
            for value in (*node.args, *(k.value for k in node.keywords)):
                value = value.value if isinstance(value, ast.Starred) else value
                path = _path(value, param)
                if path is not None:
                    if not reading:
                        changed.add(path)
                    _account(value, accounted)
        elif isinstance(node, ast.Compare):
            for value in (node.left, *node.comparators):
                if isinstance(value, ast.Name) and value.id == param:
                    accounted.add(id(value))
        elif (
            isinstance(node, (ast.Attribute, ast.Subscript))
            and isinstance(node.value, ast.Name)
            and node.value.id == param
            and isinstance(node.ctx, ast.Load)
        ):
            accounted.add(id(node.value))  # an attribute or an item read
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and node.id == param and id(node) not in accounted:
            return None  # stored, returned, rebound, aliased: anything may follow
    return frozenset(changed)


def _account(node: ast.expr, accounted: set[int]) -> None:
    """Mark the name at the root of ``node``'s chain as judged."""
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    accounted.add(id(node))
