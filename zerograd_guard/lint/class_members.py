"""The fast path inside a kept class: blank the methods that cannot contribute.

``regions`` keeps or blanks whole top-level statements, so a file whose one large class
holds a backward (a test suite's ``TestCase``, a framework's ``Trainer``) was parsed
whole. This module looks inside each kept top-level class (and, recursively, inside the
classes it nests) at its *members*, the ``def`` and ``class`` statements of its body,
and blanks those that cannot contribute. A blanked member is replaced by ``pass`` on
its ``def`` (or ``class``) line, at its column, every other character but line breaks
by a space: offsets, lines and the index of every statement of the class body stay
those of the file. The class's other statements (its *header*: decorators, bases,
class-level assignments) are never blanked.

Why a blanked member can never change a result. Besides the channels ``regions`` lists
for top-level statements, the analysis sees a method from the rest of its file only
through these (``extract.walker`` / ``extract.resolve`` / ``flow``):

1. its name: ``self.m()`` / ``x.m()`` calls, overrides and subclass dispatch, duck typing
   by a method only one class defines, inherited loops that a subclass does not
   override (``flow._inherited_loops``), all keyed by the method's name; and the
   attribute it stores a function of its own in (``self.train_step = train_step``),
   called by that name;
2. the instance attributes it assigns (``self.x = ...``, tuple targets, subscripted
   ones), which other methods resolve ``self.x`` through;
3. methods no text calls by name: dunders (construction runs ``__init__``, an instance
   call ``__call__``), a module's ``forward``, methods a framework drives
   (``IterationFunction.method``, ``HookedIteration`` hooks, Lightning's
   ``training_step``), functions handed to a framework (``Engine(update)``), and
   class-wide flags (``automatic_optimization``); calling an
   instance runs its class's ``__call__`` or ``forward``, so a method using a value
   that may hold such an instance (``self.updater``, assigned from the class) may reach
   what that method reaches;
4. what every statement can write file-wide (``regions``' channels 4, 5 and 7): imports,
   ``global`` names, optimizer ties, freezes and framework imports;
5. every function is judged on its own, so a method whose run may reach a backward is
   observed even if nothing calls it.

A member is kept when it holds a backward (or, in project mode, a use of an import
that may lead to one), may reach one through a name a reaching member or statement
defines or an instance of a class whose call may reach one (3, 5), may name an
optimizer (4: a word, something cleared and stepped, a value its assignments bind from
one, or what it returns) or write a file-wide fact (4: any call whose name says it
freezes), is called without its name (3), or provides a word a kept statement or
member uses: its name, the names it defines, imports or declares ``global``, the
attributes it assigns (1, 2); a kept member keeps its class. Words are compared in
their NFKC form too where the text is not ASCII (``ast`` normalises names).

Nothing is split in a file a framework may drive through hook methods
(``prefilter.may_drive_hooks``) or that names a framework running the functions a call
hands it (ignite's ``Engine(update)``, perhaps imported under an alias): there hooks, and
functions found by the names handed, run without their names. A class
whose own lines may reach a backward (a base class of another linted module that
holds one, in project mode) is kept whole: any ``self.m()`` may run that base's code.
So a blanked member is never called, judged to observe nothing, and writes nothing a
kept part reads: every observation, and so every finding, is the same (what only a
blanked member makes libcst or the extractor reject is not reported, as in ``regions``).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from zerograd_guard.lint.options import AnalysisOptions
from zerograd_guard.lint.prefilter import MAY_FREEZE, backward_names, has_backward_call, may_step
from zerograd_guard.lint.regions import (
    CLASS,
    GLOBAL,
    MEMBER_SPLIT_MIN_CHARS,
    RETURNS,
    WORD,
    Statement,
    file_wide,
    first_line,
    holds_name,
    identifiers,
    imported_names,
    naming_optimizers,
    optimizer_word,
    reaching_units,
    statements_in,
)

# an assignment of a part: the names and the attribute names it binds, and the expressions
# whose value it binds
Store = tuple[frozenset[str], frozenset[str], tuple[ast.expr, ...]]
# methods run without their name being written (besides dunders)
IMPLICIT_METHODS = frozenset({"forward", "training_step"})
# words whose presence makes a member run or matter without its name: attributes set by
# name (``setattr``), Lightning's class-wide flag
KEEP_WORDS = frozenset({"setattr", "__dict__", "automatic_optimization"})


@dataclass(kw_only=True)
class Part(Statement):
    """A class's header (its lines without its split members; ``first``..``last`` are
    the whole class) or one of its members, described like a top-level statement."""

    name: str
    parent: int | None  # the index of the enclosing class's header; None: a top-level class
    line: int  # where ``pass`` goes when it is blanked: the ``def`` / ``class`` line
    column: int
    # each assignment: the local names and the attribute names it binds, its lines
    stores: tuple[Store, ...] = ()
    file: _File | None = field(default=None, repr=False)

    @cached_property
    def assignments(self) -> list[tuple[frozenset[str], frozenset[str], frozenset[str]]]:
        """Each assignment's names, attributes and the words of the values it binds (read
        only for a part that may name an optimizer)."""
        assert self.file is not None
        file = self.file
        return [
            (
                names,
                attributes,
                frozenset(word for value in values for word in WORD.findall(file.source(value))),
            )
            for names, attributes, values in self.stores
        ]

    @cached_property
    def optimizer_params(self) -> frozenset[str]:
        """The parameters of its functions that may hold an optimizer: named or annotated
        as one, or any where something may be cleared and stepped (an optimizer known by
        its use, ``resolve._used_as_optimizer``). A lambda's cannot: its body assigns
        nothing, and no use makes one an optimizer."""
        every = "zero_grad" in self.words and "step" in self.words
        found: set[str] = set()
        for node in self.nodes:
            for item in statements_in(node):
                if not isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    continue
                arguments = item.args
                for argument in (
                    *arguments.posonlyargs,
                    *arguments.args,
                    *arguments.kwonlyargs,
                    arguments.vararg,
                    arguments.kwarg,
                ):
                    if argument is not None and (
                        every
                        or optimizer_word(argument.arg)
                        or (
                            argument.annotation is not None
                            and any(map(optimizer_word, _expression_words(argument.annotation)))
                        )
                    ):
                        found.add(argument.arg)
        return frozenset(found)


def blanked_members(
    text: str,
    starts: list[int],
    statements: Sequence[Statement],
    kept_top: Sequence[bool],
    seeds: Sequence[bool],
    options: AnalysisOptions,
    extra_seed: Callable[[Statement], bool] | None,
    min_chars: int = MEMBER_SPLIT_MIN_CHARS,
) -> list[tuple[int, int, int, int]]:
    """The members of the kept top-level classes of ``statements`` to blank, as (first
    line, last line, ``pass`` line, ``pass`` column), 0-based. ``seeds``: which
    statements ``regions`` found to be seeds (``extra_seed`` included)."""
    file = _File(text, starts, backward_names(options), extra_seed, min_chars, options)
    implicit = (
        IMPLICIT_METHODS
        | {spec.method for spec in options.iteration_functions if spec.method}
        | {hook for spec in options.hooked_iterations for hook in spec.order}
    )

    parts: list[Part] = []
    split = [False] * len(statements)
    for index, statement in enumerate(statements):
        node = statement.nodes[0] if len(statement.nodes) == 1 else None
        if kept_top[index] and isinstance(node, ast.ClassDef) and _span(node, starts) >= min_chars:
            split[index] = _split(node, None, file, parts)
    if not parts:
        return []
    # the rest of the file: every other top-level statement may define what reaches a
    # backward (the blanked ones too: more reaching can only keep more)
    others = [s for s, is_split in zip(statements, split, strict=True) if not is_split]
    other_seeds = [seed for seed, is_split in zip(seeds, split, strict=True) if not is_split]
    other_words = {
        word
        for s, is_kept, is_split in zip(statements, kept_top, split, strict=True)
        if is_kept and not is_split
        for word in s.words
    }
    members = [index for index, part in enumerate(parts) if part.parent is not None]
    part_seeds = [part.seeded or (extra_seed is not None and extra_seed(part)) for part in parts]
    reaching = _reaching(parts, part_seeds, others, other_seeds)
    naming = _naming(others, parts)
    writes_file_wide = file_wide([*others, *parts])[len(others) :]
    kept = [part.parent is None for part in parts]
    used = set(other_words)
    for part, is_kept in zip(parts, kept, strict=True):
        if is_kept:
            used |= part.words
    # what a kept statement or part that may step or clear defines (``regions``: every
    # run reaching such a step counts, whether it backpropagates or not)
    kept_others = [
        s
        for s, is_kept, is_split in zip(statements, kept_top, split, strict=True)
        if is_kept and not is_split
    ]
    stepping = _stepping(kept_others, set())
    forced = [
        reaching[index]
        or naming[index]
        or writes_file_wide[index]
        or not parts[index].words.isdisjoint(KEEP_WORDS)
        for index in range(len(parts))
    ]
    changed = True
    while changed:
        changed = False
        for index in members:
            if kept[index]:
                continue
            part = parts[index]
            called = part.name.startswith("__") or part.name in implicit
            if (
                forced[index]
                or (called and kept[part.parent])  # type: ignore[index]
                or not part.provides.isdisjoint(used)
                or not part.words.isdisjoint(stepping)
            ):
                changed = True
                at: int | None = index
                while at is not None and not kept[at]:
                    kept[at] = True
                    used |= parts[at].words
                    at = parts[at].parent
        grown = _stepping(
            [part for part, is_kept in zip(parts, kept, strict=True) if is_kept], stepping
        )
        if grown != stepping:
            stepping = grown
            changed = True
    return _ranges(parts, kept)


def _stepping(units: Sequence[Statement], stepping: set[str]) -> set[str]:
    """``stepping`` with the names ``units`` define that may step or clear, or that use
    such a name, to a fixpoint."""
    found = set(stepping)
    changed = True
    while changed:
        changed = False
        for unit in units:
            if (unit.steps or not unit.words.isdisjoint(found)) and not unit.callables <= found:
                found |= unit.callables
                changed = True
    return found


def _naming(others: Sequence[Statement], parts: list[Part]) -> list[bool]:
    """``regions.naming_optimizers`` over the top-level statements and the parts, where
    a part carries only the attributes its assignments of a possible optimizer bind: a
    method that builds an optimizer and also sets ``self.rank`` does not make every
    method reading ``self.rank`` name one."""

    def carried_by(unit: Statement, carried: set[str]) -> frozenset[str]:
        return _carried_by(unit, carried) if isinstance(unit, Part) else unit.carriers

    return naming_optimizers([*others, *parts], carried_by)[len(others) :]


def _carried_by(part: Part, carried: set[str]) -> frozenset[str]:
    """The attributes (and ``global`` names) ``part`` may bind to an optimizer: those its
    assignments bind from a value naming one, a carried name, or a local name that may
    hold one."""
    local = set(part.optimizer_params)
    bound: set[str] = set()
    changed = True
    while changed:
        changed = False
        for names, attributes, words in part.assignments:
            if (names <= local and attributes <= bound) or not (
                not words.isdisjoint(carried)
                or not words.isdisjoint(local)
                or any(map(optimizer_word, words))
            ):
                continue
            local |= names
            bound |= attributes
            changed = True
    # what a method returns may be one too (``self.make_optimizer()``)
    returned = part.callables if not part.words.isdisjoint(RETURNS) else frozenset()
    return frozenset(bound | (local & part.carriers) | returned)


def _ranges(parts: list[Part], kept: list[bool]) -> list[tuple[int, int, int, int]]:
    """The blanked members, outermost only (a blanked nested class holds its members)."""
    found = []
    for index, part in enumerate(parts):
        if kept[index] or part.parent is None or not kept[part.parent]:
            continue
        found.append((part.first, part.last, part.line, part.column))
    return sorted(found)


def _reaching(
    parts: list[Part],
    seeds: list[bool],
    others: Sequence[Statement],
    other_seeds: Sequence[bool],
) -> list[bool]:
    """The parts that may run a backward (``regions.reaching_units`` over the other
    top-level statements and the parts: a reaching member makes its class reaching)."""
    offset = len(others)
    parents = [None] * offset + [
        None if part.parent is None else offset + part.parent for part in parts
    ]
    return reaching_units([*others, *parts], [*other_seeds, *seeds], parents)[offset:]


def _span(node: ast.stmt, starts: list[int]) -> int:
    first, last = first_line(node), node.end_lineno or node.lineno
    return starts[min(last, len(starts) - 1)] - starts[first - 1]


@dataclass
class _File:
    """What splitting a class reads of its file and options."""

    text: str
    starts: list[int]
    names: frozenset[str]  # backward names
    extra_seed: Callable[[Statement], bool] | None
    min_chars: int
    options: AnalysisOptions

    def lines(self, first: int, last: int) -> str:
        """Lines ``first``..``last`` (1-based, inclusive)."""
        return self.text[self.starts[first - 1] : self.starts[min(last, len(self.starts) - 1)]]

    def source(self, node: ast.expr) -> str:
        """The text of ``node`` (``ast`` columns count UTF-8 bytes)."""
        last = node.end_lineno or node.lineno
        text = self.lines(node.lineno, last)
        end_line = text[self.starts[last - 1] - self.starts[node.lineno - 1] :]
        end = _characters(end_line, node.end_col_offset or 0)
        start = _characters(text, node.col_offset)
        return text[start : len(text) - len(end_line) + end]


def _split(node: ast.ClassDef, parent: int | None, file: _File, parts: list[Part]) -> bool:
    """Add ``node``'s header and members to ``parts``; False (nothing added) when the
    class must be kept whole: its own lines may reach a backward."""
    members = [
        child
        for child in node.body
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
    ]
    if not members:
        return False
    taken = [(first_line(child), child.end_lineno or child.lineno) for child in members]
    pieces: list[tuple[int, int]] = []  # the header's own lines, 1-based
    line = first_line(node)
    for first, last in taken:
        if first > line:
            pieces.append((line, first - 1))
        line = last + 1
    if line <= (node.end_lineno or node.lineno):
        pieces.append((line, node.end_lineno or node.lineno))
    own = [child for child in node.body if child not in members]
    segments = [file.lines(first, last) for first, last in pieces]
    header_text = "".join(segments)
    shell = ast.ClassDef(
        name=node.name,
        bases=node.bases,
        keywords=node.keywords,
        body=own or [ast.Pass()],
        decorator_list=node.decorator_list,
        type_params=getattr(node, "type_params", []),
    )
    if has_backward_call(header_text, file.names) and holds_name([shell], file.names):
        return False
    if file.extra_seed is not None and any(
        file.extra_seed(_piece(first - 1, last - 1, frozenset(WORD.findall(segment)), shell))
        for (first, last), segment in zip(pieces, segments, strict=True)
    ):
        return False
    header_index = len(parts)
    span = (first_line(node), node.end_lineno or node.lineno)
    parts.append(_part(node, parent, header_text, span, own, (shell,), file, header=True))
    for child, span in zip(members, taken, strict=True):
        if (
            isinstance(child, ast.ClassDef)
            and _span(child, file.starts) >= file.min_chars
            and _split(child, header_index, file, parts)
        ):
            continue
        segment = file.lines(*span)
        part = _part(child, header_index, segment, span, [child], (child,), file)
        part.seeded = has_backward_call(segment, file.names) and holds_name(
            [child], file.names, segment, span[0]
        )
        parts.append(part)
    return True


def _part(
    node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef,
    parent: int | None,
    segment: str,
    span: tuple[int, int],
    statements: Sequence[ast.stmt],
    nodes: tuple[ast.stmt, ...],
    file: _File,
    header: bool = False,
) -> Part:
    """A class's ``header`` (``statements``: its own, not its members) or a member."""
    inner = [item for statement in statements for item in statements_in(statement)]
    nested = {
        item.name
        for item in inner
        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
    }
    # a method's nested functions are its own: only its name is called from elsewhere; a
    # class's are methods (a header's: those in an ``if`` of its body; a member class
    # kept whole: all of them)
    defined = {node.name} | (nested if header or isinstance(node, ast.ClassDef) else set())
    stores = _stores(inner)
    # ... unless it stores one in an attribute (deepxde's ``self.train_step = train_step``):
    # calling that attribute runs it
    defined |= {
        attribute
        for _, attributes, values in stores
        if any(isinstance(value, ast.Name) and value.id in nested for value in values)
        for attribute in attributes
    }
    if header:  # a class-level name is a class attribute (``self.optimizer_class``)
        stores = [(frozenset(), names | attributes, values) for names, attributes, values in stores]
    imports = (
        [
            pair
            for item in inner
            if isinstance(item, (ast.Import, ast.ImportFrom))
            for pair in imported_names(item)
        ]
        if "import" in segment
        else []
    )
    declared = _globals(segment)
    words = identifiers(WORD.findall(segment), segment)
    attributes = {name for _, bound, _ in stores for name in bound}
    classes = {node.name} if isinstance(node, ast.ClassDef) else set()
    classes |= {item.name for item in inner if isinstance(item, ast.ClassDef)}
    classes |= identifiers(CLASS.findall(segment), segment)
    return Part(
        name=node.name,
        parent=parent,
        module_body=False,
        first=span[0] - 1,
        last=span[1] - 1,
        line=node.lineno - 1,
        column=node.col_offset,
        words=words,
        callables=frozenset(defined),
        provides=frozenset(
            defined | nested | attributes | declared | classes | {alias for alias, _ in imports}
        ),
        # what it binds: ``global`` names, attributes, what it may return
        carriers=frozenset(
            declared | attributes | (defined if not words.isdisjoint(RETURNS) else set())
        ),
        imports=tuple(imports),
        seeded=False,
        nodes=nodes,
        classes=frozenset(classes),
        freezes=MAY_FREEZE.search(segment) is not None,
        steps=may_step(segment, file.options),
        stores=tuple(stores),
        file=file,
    )


def _piece(first: int, last: int, words: frozenset[str], shell: ast.ClassDef) -> Statement:
    """A contiguous run of a class header's lines, as ``regions``' project seeds read a
    statement (only its lines, words and nodes are read)."""
    return Statement(
        first=first,
        last=last,
        module_body=False,
        words=words,
        callables=frozenset(),
        provides=frozenset(),
        carriers=frozenset(),
        seeded=False,
        nodes=(shell,),
    )


def _stores(statements: Sequence[ast.stmt]) -> list[Store]:
    """Each assignment (or deletion) of ``statements``: the names and the attribute names
    it binds (``self.x = ...``, ``self.a, self.b = ...``, ``self.d[k] = v``, ``for self.i
    in``, ``with ... as self.f``), and the expressions whose value it binds (the value,
    an annotation, the iterable, the context managers)."""
    found: list[Store] = []
    for statement in statements:
        values: list[ast.expr | None]
        if isinstance(statement, ast.Assign):
            targets: list[ast.AST] = list(statement.targets)
            values = [statement.value]
        elif isinstance(statement, (ast.AugAssign, ast.AnnAssign)):
            targets = [statement.target]
            values = [statement.value, getattr(statement, "annotation", None)]
        elif isinstance(statement, (ast.For, ast.AsyncFor)):
            targets, values = [statement.target], [statement.iter]
        elif isinstance(statement, (ast.With, ast.AsyncWith)):
            targets = [item.optional_vars for item in statement.items if item.optional_vars]
            values = [item.context_expr for item in statement.items]
        elif isinstance(statement, ast.Delete):
            targets, values = list(statement.targets), []
        else:
            continue
        names: set[str] = set()
        attributes: set[str] = set()
        for target in targets:
            _bound(target, names, attributes)
        if names or attributes:
            kept = tuple(value for value in values if value is not None)
            found.append((frozenset(names), frozenset(attributes), kept))
    return found


def _characters(line: str, byte_offset: int) -> int:
    """The character offset of ``byte_offset`` in ``line``'s UTF-8 encoding."""
    if line.isascii():
        return byte_offset
    return len(line.encode("utf-8")[:byte_offset].decode("utf-8", "ignore"))


def _bound(target: ast.AST, names: set[str], attributes: set[str]) -> None:
    """What assigning to ``target`` binds: a name, an attribute, or (a subscript) what
    holds the container."""
    if isinstance(target, ast.Name):
        names.add(target.id)
    elif isinstance(target, ast.Attribute):
        attributes.add(target.attr)
    elif isinstance(target, (ast.Tuple, ast.List)):
        for element in target.elts:
            _bound(element, names, attributes)
    elif isinstance(target, (ast.Starred, ast.Subscript)):
        _bound(target.value, names, attributes)


def _expression_words(node: ast.AST) -> set[str]:
    found: set[str] = set()
    for item in ast.walk(node):
        if isinstance(item, ast.Name):
            found.add(item.id)
        elif isinstance(item, ast.Attribute):
            found.add(item.attr)
        elif isinstance(item, ast.Constant) and isinstance(item.value, str):
            found.update(WORD.findall(item.value))
    return found


def _globals(segment: str) -> set[str]:
    declared: set[str] = set()
    for names in GLOBAL.findall(segment):
        declared.update(WORD.findall(names))
    return declared
