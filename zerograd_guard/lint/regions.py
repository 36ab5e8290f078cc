"""The fast path: parse with libcst only the top-level statements that can contribute.

``analysed_text(text, options)`` returns ``None`` when no statement can contribute a
finding, else the text the analysis should parse: the file with every other top-level
statement blanked (each of its characters but line breaks replaced by a space). Every
kept character keeps its offset, line and column, so findings, ``# noqa``, fixes and
notebook cells are those of the whole file; blank lines cost libcst next to nothing.
Statement boundaries come from ``ast`` (the C parser, ~12x faster than libcst); what a
statement holds is over-approximated from its text (every identifier-like word, strings
and comments included), which can only keep more.

Why a blanked statement can never change a result. The analysis of one file sees other
top-level statements only through these channels (``extract`` and ``flow``):

1. the module body is one function (``<module>``): its statements' events interleave;
2. names resolved in module scope: module-level assignments, annotations, top-level
   functions (a call's callee, a ``step(closure)``);
3. classes by name anywhere in the file (first definition wins), and method names of
   every class (``x.m()`` is kept if some class defines ``m``, duck typing by a method
   only one class defines, overrides, subclass dispatch, inherited loops by base name);
4. imports, recorded file-wide from any depth (last wins);
5. the optimizer ties of a name (which modules' parameters it steps), shared by every
   function that resolves an optimizer of that name;
6. every function is judged from an unknown entry state, with the in-file functions it
   calls analysed in place; only a run that reaches a backward observes anything;
7. facts the model keeps file-wide and every judged function reads: a module frozen
   anywhere (``requires_grad_(False)``, ``requires_grad = False``, any call whose name
   says it freezes: ``freeze_bn()``, ``set_requires_grad(net, False)``), and the
   framework the file trains with, decided from every import of a framework package at
   any depth (``lint.frameworks``).

Names are compared as words of the text and, where a text is not ASCII, also in the
NFKC form Python (and ``ast``) gives identifiers.

A statement is *seeded* when it holds a backward call (a ``Name``/``Attribute`` of a
backward name in the ``ast``), or, in a file a framework may drive through hook methods
around its own backward (``prefilter.may_drive_hooks``), when it may clear (its text
names ``grad`` or ``step``: a clear's spelling can hide from any marker) or is a star
import (the last one decides whether a class's base is the framework's): the
framework's backward is in no statement, and without a clear of the file such a class
observes nothing that is reported. Starting from the seeds, a statement is kept when

* it provides (binds at module level, defines as function / class / method at any
  depth, imports at any depth, declares ``global``) a word a kept statement uses
  (channels 2-4); a kept statement's own definitions are words it uses, so a second
  definition of a kept name, whose order decides which one counts, is kept too;
* it may reach a backward: it uses a function, class or method name that a seed, or a
  statement that may reach one, defines, or a value that may hold an instance of a
  class whose ``__call__`` or ``forward`` may reach one (calling it runs that method, a
  name no text writes) (channel 6; a run that reaches no backward observes nothing);
* it may name an optimizer (an optimizer-like word, an optimizer class or factory name,
  ``optimizers``, ``deepspeed``, something both cleared and stepped (an optimizer known
  by its use), or a value a statement that may name one binds or, returning, hands on):
  its resolution may write a tie a kept function reads (channel 5);
* it runs in the module body and the module body can observe, i.e. some module-level
  statement may reach a backward, or a kept one may step or clear (channel 1): then
  all of them are kept;
* it uses a name a kept statement that may step or clear (or uses such a name) defines:
  every run of a function is judged, whether it reaches a backward or not, and what a
  step in a kept function sees is read by every run that reaches it (ZG102 needs all
  of them to see no fresh gradients), so a caller of ``k()`` that never backpropagates
  still counts (channel 6's "observes nothing" holds for backwards, not for steps);
* it may freeze a module (``freeze``, ``requires_grad`` or ``toggle_optimizer`` in its
  text, any case) or imports a framework package, PyTorch's family or another
  (channel 7).

So a blanked statement's run reaches no backward (it would use a reaching definition),
resolving it writes no tie, it provides nothing a kept statement can look up, and its
module-body events are in a run that observes nothing: every observation, and so every
finding, is the same. What libcst or the extractor alone rejects (syntax libcst does
not know, nesting too deep for either: a 3,000-term ``x and x and ...`` that ``ast``
reads flat) in a blanked statement is not reported: the file's findings do not depend
on it. A file ``ast`` cannot parse (or with lone ``\\r`` line ends, where line numbers
are not plain) is analysed whole, and so is every file when a plugin contributes rules
(``runner``): the proof covers the built-in rules only.

Inside a kept class, the methods that cannot contribute are blanked too, by the same
channels read per method (``class_members``, which states the argument for methods).

Project-wide analysis (another module calling into this one) extends the seeds:
``select_statements(..., extra_seed=...)`` keeps whatever ``extra_seed`` says may
contribute, with everything the rules above then pull in. That includes a top-level
function whose callers in other files may pass it an instance of a class whose methods
run a backward (``project.call_sites`` types such a parameter): nothing in its own text
says so.
"""

from __future__ import annotations

import ast
import bisect
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import lru_cache
from typing import Protocol

from zerograd_guard.lint.frameworks import FOREIGN_FRAMEWORKS, OUTSIDE_PROJECT, PYTORCH_FAMILY
from zerograd_guard.lint.options import AnalysisOptions
from zerograd_guard.lint.prefilter import (
    MAY_FREEZE,
    backward_names,
    has_backward_call,
    may_drive_hooks,
    may_step,
)

# Each pattern starts with a literal (a keyword, its "not inside a word" lookbehind after
# it): ``re`` scans for a literal prefix at C speed, and tries a pattern that starts with
# a lookbehind at every position. ``\w*+`` does not give back the characters of a word
# that cannot be followed by what comes next. Same matches as the plain patterns
# (``tests/lint/fastpath/test_statement_patterns.py``).
WORD = re.compile(r"[^\W\d]\w*")
WORD_CHARACTER = re.compile(r"\w")
CLASS = re.compile(r"class(?<!\wclass)\s+([^\W\d]\w*)")
DEFINED = re.compile(r"(?:def(?<!\wdef)|class(?<!\wclass))\s+([^\W\d]\w*)")
GLOBAL = re.compile(
    r"(?:global(?<!\wglobal)|nonlocal(?<!\wnonlocal))\s+([^\W\d]\w*(?:\s*,\s*[^\W\d]\w*)*)"
)
WALRUS = re.compile(r"([^\W\d]\w*+)\s*:=")
LINE_BREAK = re.compile(r"\r\n|\r|\n")
# ``a.b.c``: an attribute chain on a name, however it is spaced or broken across lines
# (``SPACE`` taken out, it is the dotted name ``ast`` reads)
CHAIN = re.compile(r"(?<![\w.])[^\W\d]\w*+(?:[\s\\]*\.[\s\\]*[^\W\d]\w*+)+")
SPACE = re.compile(r"[\s\\]+")
NOT_LINE_BREAK = re.compile(r"[^\r\n]+")
# Below this many characters a file is analysed whole: libcst takes at most ~50 ms on
# it, while splitting costs ~20% of a libcst parse on every such file (``ast.parse`` and
# the scan) and saves much only where much can be skipped. Files of training loops are
# mostly small, so this also keeps the fast path from slowing them down.
SPLIT_MIN_CHARS = 16_384
# A kept class shorter than this is kept whole: describing its methods one by one costs
# more than the parse it saves (``class_members``).
MEMBER_SPLIT_MIN_CHARS = 8_192
# words besides optimizer-like names through which the resolver finds an optimizer:
# Lightning's ``self.optimizers()``, ``deepspeed.initialize(...)``'s tuple (a copy made
# by ``prepare(x)`` or a move is found through ``x``: a word of the same statement, or one
# carried from another)
OPTIMIZER_SOURCES = frozenset({"optimizers", "deepspeed"})
# Methods a call of an instance runs (``updater(batch)``, ``model(x)``): no text names them.
INSTANCE_CALLS = frozenset({"__call__", "forward"})
# A function may hand on what it names only through these (or a ``global``).
RETURNS = frozenset({"return", "yield"})


@dataclass
class Statement:
    """One top-level statement (or several sharing a line), lines ``first``..``last``
    (0-based, inclusive), and what its text may use and provide."""

    first: int
    last: int
    module_body: bool  # holds statements the module body runs (not only defs/imports)
    words: frozenset[str]
    callables: frozenset[str]  # function / class / method names it defines
    provides: frozenset[str]
    carriers: frozenset[str]  # what it provides that can hold or return a value
    seeded: bool
    # (alias, what it names) of its imports; what ``import a.b`` binds names ``a`` only
    imports: tuple[tuple[str, str], ...] = ()
    nodes: tuple[ast.stmt, ...] = field(default=(), repr=False, compare=False)
    classes: frozenset[str] = frozenset()  # the classes it defines, at any depth
    freezes: bool = False  # its text may freeze a model (``prefilter.MAY_FREEZE``)
    steps: bool = False  # its text may step or clear (``prefilter.may_step``)


def _target_words(node: ast.AST) -> set[str]:
    found: set[str] = set()
    for item in ast.walk(node):
        if isinstance(item, ast.Name):
            found.add(item.id)
        elif isinstance(item, ast.Attribute):
            found.add(item.attr)
    return found


def _module_bindings(node: ast.stmt, out: set[str]) -> None:
    """Names a module-level statement binds in module scope (nested blocks included)."""
    if isinstance(node, ast.Assign):
        for target in node.targets:
            out |= _target_words(target)
    elif isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.For, ast.AsyncFor)):
        out |= _target_words(node.target)
    elif isinstance(node, (ast.With, ast.AsyncWith)):
        for item in node.items:
            if item.optional_vars is not None:
                out |= _target_words(item.optional_vars)
    elif isinstance(node, ast.Match):
        out |= _target_words(node)  # capture patterns bind anywhere in the cases
    elif isinstance(node, (ast.Try, getattr(ast, "TryStar", ast.Try))):
        for handler in node.handlers:
            if handler.name:
                out.add(handler.name)
    for block in ("body", "orelse", "finalbody", "handlers"):
        for child in getattr(node, block, ()):
            if isinstance(child, ast.ExceptHandler):
                for inner in child.body:
                    _module_bindings(inner, out)
            elif isinstance(child, ast.stmt):
                _module_bindings(child, out)


def statements_in(node: ast.stmt) -> Iterator[ast.stmt]:
    """``node`` and every statement nested in it (bodies, branches, handlers, cases):
    no expression holds a statement, so imports are found without walking expressions."""
    pending = [node]
    while pending:
        statement = pending.pop()
        yield statement
        for block in ("body", "orelse", "finalbody", "handlers", "cases"):
            for child in getattr(statement, block, ()):
                if isinstance(child, ast.stmt):
                    pending.append(child)
                else:  # an except handler or a match case: its body holds statements
                    pending.extend(child.body)


def imported_names(node: ast.stmt) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for item in statements_in(node):
        if isinstance(item, ast.Import):
            for alias in item.names:
                top = alias.name.split(".", 1)[0]
                found.append((alias.asname, alias.name) if alias.asname else (top, top))
        elif isinstance(item, ast.ImportFrom):
            for alias in item.names:
                found.append((alias.asname or alias.name, f"{item.module or ''}.{alias.name}"))
    return found


def holds_name(
    nodes: Sequence[ast.AST], names: frozenset[str], segment: str | None = None, first: int = 1
) -> bool:
    """Whether ``nodes`` hold a ``Name`` or an ``Attribute`` of a word in ``names``.

    With ``segment``, the text of ``nodes`` starting at line ``first``, only the subtrees
    whose lines have such a word in their text are searched (a large class has one
    method with a backward): such a node is written within its own lines (an
    attribute's name on its last), and a node's lines hold its children's (a
    definition's counted from its first decorator). An f-string on such a line is searched
    whole (before Python 3.12 its expressions are placed by a second parse of their
    text: not relied on), and so is a text that is not ASCII (``ast`` gives identifiers
    their NFKC forms)."""
    lines = _lines_naming(segment, first, names) if segment is not None else None
    pending = list(nodes)
    while pending:
        node = pending.pop()
        if (isinstance(node, ast.Name) and node.id in names) or (
            isinstance(node, ast.Attribute) and node.attr in names
        ):
            return True
        if lines is not None:
            start = getattr(node, "lineno", None)
            if start is not None:
                if isinstance(node, _DEFINITIONS):
                    start = first_line(node)  # type: ignore[arg-type]
                index = bisect.bisect_left(lines, start)
                if index == len(lines) or lines[index] > (node.end_lineno or start):  # type: ignore[attr-defined]
                    continue  # no line of this node names one
            if isinstance(node, ast.JoinedStr):
                if holds_name([node], names):
                    return True
                continue
        pending.extend(ast.iter_child_nodes(node))
    return False


_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _lines_naming(segment: str, first: int, names: frozenset[str]) -> list[int] | None:
    """The lines (sorted, counted from ``first``) on which ``segment`` holds a word of
    ``names`` as text; None when it is not ASCII."""
    if not segment.isascii():
        return None
    found: set[int] = set()
    for name in names:
        line, counted = first, 0
        start = segment.find(name)
        while start >= 0:
            line += segment.count("\n", counted, start)
            counted = start
            found.add(line)
            start = segment.find(name, start + len(name))
    return sorted(found)


def identifiers(found: Iterable[str], segment: str) -> frozenset[str]:
    """Names found in ``segment``'s text, with their NFKC forms where it is not ASCII:
    Python (and so ``ast``) normalises identifiers, the text and libcst do not."""
    names = frozenset(found)
    if segment.isascii():
        return names
    return names | {unicodedata.normalize("NFKC", name) for name in names}


def _describe(nodes: list[ast.stmt], segment: str, names: frozenset[str]) -> Statement:
    words = identifiers(WORD.findall(segment), segment)
    callables = identifiers(DEFINED.findall(segment), segment)
    classes = identifiers(CLASS.findall(segment), segment)
    provides = set(classes)  # classes are values too (instances)
    for declared in GLOBAL.findall(segment):
        provides.update(identifiers(WORD.findall(declared), segment))
    imports = [pair for node in nodes for pair in imported_names(node)] if "import" in words else []
    module_body = False
    for node in nodes:
        if not isinstance(
            node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom)
        ):
            module_body = True
            _module_bindings(node, provides)
    if module_body and ":=" in segment:
        provides.update(identifiers(WALRUS.findall(segment), segment))
    return Statement(
        first=first_line(nodes[0]) - 1,
        last=max(node.end_lineno or node.lineno for node in nodes) - 1,
        module_body=module_body,
        words=words,
        callables=callables,
        provides=frozenset(provides | callables | {alias for alias, _ in imports}),
        # a function may return what it names (``def build(): return Adam(...)``)
        carriers=frozenset(provides | _returned(nodes, callables, words)),
        seeded=has_backward_call(segment, names)
        and holds_name(nodes, names, segment, first_line(nodes[0])),
        imports=tuple(imports),
        nodes=tuple(nodes),
        classes=classes,
        freezes=MAY_FREEZE.search(segment) is not None,
    )


def _returned(
    nodes: Sequence[ast.stmt], callables: frozenset[str], words: frozenset[str]
) -> frozenset[str]:
    """What other statements may call to get a value these statements name: a function
    (its own name; what it nests is its own), a class's methods, when it returns or
    yields at all."""
    if words.isdisjoint(RETURNS):
        return frozenset()
    if any(isinstance(node, ast.ClassDef) for node in nodes):
        return callables
    return frozenset(
        node.name for node in nodes if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
    )


def first_line(node: ast.stmt) -> int:
    decorators = getattr(node, "decorator_list", None) or ()
    return min([node.lineno, *(decorator.lineno for decorator in decorators)])


def split_statements(
    text: str, tree: ast.Module, options: AnalysisOptions
) -> tuple[list[Statement], list[int]]:
    """The module's top-level statements (those sharing a line merged) and the offset
    at which each line starts (one past the end for the last)."""
    starts = [0, *(match.end() for match in LINE_BREAK.finditer(text))]
    if starts[-1] != len(text):
        starts.append(len(text))
    names = backward_names(options)
    groups: list[list[ast.stmt]] = []
    last_line = 0
    for node in tree.body:
        if groups and first_line(node) <= last_line:
            groups[-1].append(node)
        else:
            groups.append([node])
        last_line = max(last_line, node.end_lineno or node.lineno)
    hooked = may_drive_hooks(text, options)
    statements = []
    for group in groups:
        first = first_line(group[0])
        last = max(node.end_lineno or node.lineno for node in group)
        segment = text[starts[first - 1] : starts[min(last, len(starts) - 1)]]
        statement = _describe(group, segment, names)
        statement.steps = may_step(segment, options)
        if hooked and (statement.steps or _star_import(group)):
            statement.seeded = True
        statements.append(statement)
    return statements, starts


def _star_import(nodes: Sequence[ast.stmt]) -> bool:
    """Whether ``nodes`` hold an ``import *`` (at any depth): the file's last one decides
    whether a hook class's base is the framework's (``flow.hooks``)."""
    return any(
        isinstance(item, ast.ImportFrom) and any(alias.name == "*" for alias in item.names)
        for node in nodes
        for item in ast.walk(node)
    )


def seed_flags(
    statements: Sequence[Statement], extra_seed: Callable[[Statement], bool] | None = None
) -> list[bool]:
    """Which statements are seeds; ``extra_seed`` adds some (project-wide analysis)."""
    return [s.seeded or (extra_seed is not None and extra_seed(s)) for s in statements]


def select_statements(statements: Sequence[Statement], seeds: Sequence[bool]) -> list[bool]:
    """Which statements can contribute (see the module docstring for why the others
    cannot), starting from the ``seeds``."""
    if not any(seeds):
        return list(seeds)
    kept = reaching_units(statements, seeds)
    chosen = [s for s, is_kept in zip(statements, kept, strict=True) if is_kept]
    module_observes = any(s.module_body for s in chosen)
    names_optimizers = naming_optimizers(statements)
    writes_file_wide = file_wide(statements)
    used = {word for s in chosen for word in s.words}
    stepping: set[str] = set()
    changed = True
    while changed:
        changed = False
        for index, s in enumerate(statements):
            if kept[index]:
                if s.steps or not s.words.isdisjoint(stepping):
                    if not s.callables <= stepping:
                        stepping |= s.callables
                        changed = True
                    if s.module_body and not module_observes:
                        # the module body's run reaches a step: it may be judged
                        module_observes = changed = True
                continue
            if (
                names_optimizers[index]
                or writes_file_wide[index]
                or not s.provides.isdisjoint(used)
                or (module_observes and s.module_body)
                or not s.words.isdisjoint(stepping)
            ):
                kept[index] = changed = True
                used |= s.words
    return kept


class Use(Enum):
    """Which uses of an imported name (or chain) may reach a backward elsewhere."""

    ANY = "any"  # any use: a function
    RUNS = "runs"  # a call, a base class, an attribute read: a class (or its method)


class ProjectSeeds(Protocol):
    """The analysed file's imports, asked how a use may reach a backward in another
    linted module (``project.seeds.ImportSeeds``)."""

    @property
    def imported(self) -> frozenset[str]: ...  # names bound to linted definitions

    @property
    def modules(self) -> frozenset[str]: ...  # names bound to linted modules

    def use(self, name: str) -> Use | None: ...

    def chain(self, dotted: str) -> Use | None: ...

    @property
    def fed(self) -> frozenset[str]: ...  # definitions callers may pass such an instance


def uses_project_imports(
    statements: Sequence[Statement],
    seeds: ProjectSeeds | None = None,
    text: str = "",
    starts: Sequence[int] = (),
) -> Callable[[Statement], bool]:
    """Project mode's extra seeds: a statement that uses a name imported from a module
    that may be linted may reach a backward in another module. ``seeds``: which uses of
    which imports may (the project index says so), and which top-level functions
    callers may pass an instance whose methods run a backward (``seeds.fed``: the
    analysis types such a parameter, ``project.call_sites``); without it, any use of a name
    imported from neither the standard library nor a framework package (relative
    imports included). ``text`` and ``starts`` (its line offsets): where a statement's
    chains on imported modules are read (the ``ast`` is walked only where one of them,
    or an imported class, may run code reaching a backward: most chains resolve to
    nothing that does)."""
    if seeds is None:
        aliases = frozenset(
            alias
            for s in statements
            for alias, named in s.imports
            if named.split(".", 1)[0] not in OUTSIDE_PROJECT
        )
        return lambda statement: not statement.words.isdisjoint(aliases)
    imported, modules, fed = seeds.imported, seeds.modules, seeds.fed

    def seeded(statement: Statement) -> bool:
        if fed and any(
            type(node) in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef) and node.name in fed
            for node in statement.nodes
        ):
            return True  # what its callers pass it may run a backward (``call_sites``)
        walk = False
        for name in statement.words & imported:
            use = seeds.use(name)
            if use is Use.ANY:
                return True
            walk = walk or use is Use.RUNS
        heads = statement.words & modules
        if heads:
            end = starts[min(statement.last + 1, len(starts) - 1)]
            for found in _chains_on(text, starts[statement.first], end, heads):
                chain = SPACE.sub("", found)
                if chain.partition(".")[0] not in seeds.modules:
                    continue
                use = seeds.chain(chain)
                if use is Use.ANY:
                    return True
                walk = walk or use is Use.RUNS
        return walk and any(_reaches_through(node, seeds) for node in statement.nodes)

    return seeded


def _chains_on(text: str, start: int, end: int, heads: set[str] | frozenset[str]) -> set[str]:
    """What ``set(CHAIN.findall(text, start, end))`` holds of the chains that start with
    one of ``heads`` (and perhaps more chains), found at those names instead of by
    running the pattern, which starts with a lookbehind (so ``re`` tries it at every
    position), over the whole statement. A name after a dot (spaces between) may lie
    inside a chain that starts before it: then the pattern reads the statement."""
    found = set()
    for head in heads:
        position = text.find(head, start, end)
        while position >= 0:
            if _after_a_dot(text, position, start):
                return set(CHAIN.findall(text, start, end))
            match = CHAIN.match(text, position, end)
            if match is not None:
                found.add(match.group())
            position = text.find(head, position + len(head), end)
    return found


def _after_a_dot(text: str, position: int, start: int) -> bool:
    before = position
    while before > start and (text[before - 1].isspace() or text[before - 1] == "\\"):
        before -= 1  # what ``CHAIN`` allows around its dots
    return before > start and text[before - 1] == "."


def _reaches_through(statement: ast.stmt, seeds: ProjectSeeds) -> bool:
    """Whether ``statement`` uses an imported class, or a chain on an imported module,
    in a way that may run code reaching a backward (``project.seeds``)."""
    inner: set[int] = set()  # the value of an attribute read: not a chain's end
    runs: set[int] = set()  # called, or a class's base
    nodes = list(ast.walk(statement))
    for node in nodes:
        if isinstance(node, ast.Attribute):
            inner.add(id(node.value))
        elif isinstance(node, ast.Call):
            runs.add(id(node.func))
        elif isinstance(node, ast.ClassDef):
            runs.update(id(base) for base in node.bases)
    for node in nodes:
        if isinstance(node, ast.Name):
            if (id(node) in runs or id(node) in inner) and (
                node.id in seeds.imported and seeds.use(node.id) is Use.RUNS
            ):
                return True
        elif isinstance(node, ast.Attribute) and id(node) not in inner:
            dotted = dotted_name(node)
            if dotted is None or dotted.partition(".")[0] not in seeds.modules:
                continue
            use = seeds.chain(dotted)
            if use is Use.ANY or (use is Use.RUNS and (id(node) in runs or id(node) in inner)):
                return True
    return False


def dotted_name(node: ast.Attribute) -> str | None:
    """``a.b.c`` for an attribute chain on a name, else None."""
    parts = [node.attr]
    value = node.value
    while isinstance(value, ast.Attribute):
        parts.append(value.attr)
        value = value.value
    if not isinstance(value, ast.Name):
        return None
    parts.append(value.id)
    return ".".join(reversed(parts))


def file_wide(statements: Sequence[Statement]) -> list[bool]:
    """Statements that may write a file-wide fact (channel 7): a freeze (any call the
    extractor reads as one: ``freeze_bn()``, ``set_requires_grad(net, False)``), or an
    import of a framework package."""
    packages = FOREIGN_FRAMEWORKS | PYTORCH_FAMILY
    return [
        s.freezes or any(named.split(".", 1)[0] in packages for _, named in s.imports)
        for s in statements
    ]


def reaching_units(
    units: Sequence[Statement],
    seeds: Sequence[bool],
    parents: Sequence[int | None] = (),
) -> list[bool]:
    """The seeds and the units that may call into them, however indirectly: they use a
    function, class or method name a reaching unit defines, or a value that may hold an
    instance of a class whose ``__call__`` or ``forward`` may reach a backward (calling
    it runs that method, a name no text writes: ``u = Updater()`` then ``u(batch)``).
    ``units``: statements, or ``class_members``' parts, whose ``parents`` say which class
    header holds each (a reaching member makes its class reaching)."""
    reaching = list(seeds)
    defined: set[str] = set()
    # classes whose ``__call__`` or ``forward`` may reach, and what may hold one
    instances: set[str] = set()
    pending = [index for index, seed in enumerate(reaching) if seed]
    changed = True
    while changed:
        while pending:
            index = pending.pop()
            reaching[index] = True
            unit = units[index]
            defined |= unit.callables
            parent = parents[index] if parents else None
            if not unit.callables.isdisjoint(INSTANCE_CALLS):  # its instances run it
                instances |= unit.classes
                if parent is not None:
                    instances |= units[parent].classes
            if parent is not None and not reaching[parent]:
                reaching[parent] = True
                pending.append(parent)
        changed = False
        for index, unit in enumerate(units):
            if not unit.words.isdisjoint(instances) and not unit.carriers <= instances:
                instances |= unit.carriers  # ``u = Updater()``, ``self.u = ...``
                defined |= unit.carriers
                changed = True
            if not reaching[index] and not unit.words.isdisjoint(defined):
                reaching[index] = True
                pending.append(index)
                changed = True
    return reaching


@lru_cache(maxsize=65_536)
def optimizer_word(word: str) -> bool:
    """Whether ``word`` may name an optimizer, its class or factory, or a source of one."""
    # imported here: the names module pulls in libcst, which a file without a seeded
    # statement never needs
    from zerograd_guard.lint.extract.names import (
        OPTIMIZER_CLASSES,
        OPTIMIZER_FACTORY,
        looks_like_optimizer,
        matches,
    )

    return (
        word in OPTIMIZER_CLASSES
        or word in OPTIMIZER_SOURCES
        or "Adam" in word
        or "SGD" in word
        or looks_like_optimizer(word)
        or matches(OPTIMIZER_FACTORY, word)
    )


def names_optimizer(words: frozenset[str]) -> bool:
    """Whether text with ``words`` may name an optimizer itself: an optimizer-like word,
    or something both cleared and stepped (an optimizer known by its use, whose name's
    tie is then written: ``resolve._used_as_optimizer``)."""
    return any(map(optimizer_word, words)) or ("zero_grad" in words and "step" in words)


def naming_optimizers(
    statements: Sequence[Statement],
    carried_by: Callable[[Statement, set[str]], frozenset[str]] | None = None,
) -> list[bool]:
    """Statements that may name an optimizer: an optimizer-like word, or a value a
    statement that may name an optimizer binds (an alias, a prepared copy, a class whose
    instances hold one, an import of one). ``carried_by``: what a statement that may name
    one binds, given what is carried so far (default: its ``carriers``)."""
    naming = [names_optimizer(s.words) for s in statements]
    # an import carries an optimizer only if what it names says so (``from torch.optim
    # import SGD as Maker``); ``import torch`` does not: a use must spell ``optim``
    carried = {
        alias
        for s in statements
        for alias, named in s.imports
        if any(map(optimizer_word, WORD.findall(named)))
    }
    changed = True
    while changed:
        changed = False
        for index, s in enumerate(statements):
            if not naming[index] and not s.words.isdisjoint(carried):
                naming[index] = True
                changed = True
            if not naming[index]:
                continue
            new = s.carriers if carried_by is None else carried_by(s, carried)
            if not new <= carried:
                carried |= new
                changed = True
    return naming


def blanked(
    text: str,
    statements: Sequence[Statement],
    kept: Sequence[bool],
    starts: list[int],
    members: Sequence[tuple[int, int, int, int]] = (),
) -> str:
    """``text`` with the statements not kept blanked, and the class ``members`` (first
    line, last line, and where their ``pass`` goes: line and column), line breaks and
    offsets unchanged."""
    ranges = [
        (statement.first, statement.last, -1, 0)
        for statement, is_kept in zip(statements, kept, strict=True)
        if not is_kept
    ]
    parts: list[str] = []
    position = 0
    for first, last, line, column in sorted([*ranges, *members]):
        begin, end = starts[first], starts[min(last + 1, len(starts) - 1)]
        parts.append(text[position:begin])
        blank = NOT_LINE_BREAK.sub(_spaces, text[begin:end])
        if line >= 0:  # a member of a kept class: its block keeps a statement
            at = starts[line] - begin  # its indentation kept as written (tabs)
            indent = text[starts[line] : starts[line] + column]
            blank = f"{blank[:at]}{indent}pass{blank[at + column + 4 :]}"
        parts.append(blank)
        position = end
    parts.append(text[position:])
    return "".join(parts)


def _odd_identifiers(text: str) -> bool:
    """Whether ``text`` holds a character Python allows in a name that the word pattern
    does not match (``fix·up``, combining marks, ``℘``): names are then compared wrongly,
    so the file is analysed whole."""
    if text.isascii():
        return False
    return any(
        ("a" + char).isidentifier() and WORD_CHARACTER.fullmatch(char) is None
        for char in set(text)
        if not char.isascii()
    )


def _hands_functions(text: str, options: AnalysisOptions) -> bool:
    """Whether a framework that runs the function a call hands it (ignite's
    ``Engine(update)``, maybe under an alias) may be used: methods are not split there
    (hooks, and functions found by the names handed, run without their names)."""
    return any(spec.method is None and spec.package in text for spec in options.iteration_functions)


def _spaces(match: re.Match[str]) -> str:
    return " " * (match.end() - match.start())


def analysed_text(
    text: str,
    options: AnalysisOptions,
    extra_seed: Callable[[Statement], bool] | None = None,
    min_chars: int = SPLIT_MIN_CHARS,
    project_mode: bool = False,
    project_seeds: ProjectSeeds | None = None,
    member_min_chars: int = MEMBER_SPLIT_MIN_CHARS,
) -> str | None:
    """The text to analyse for the same findings as ``text`` (``text`` itself when it
    cannot or need not be split: shorter than ``min_chars``), or None when no statement
    can contribute a finding. ``project_mode``: calls into other linted modules are
    followed, so what uses an import of such a module is a seed too
    (``project_seeds``: only the uses the project index says may lead to a backward).
    A text with identifier characters the word pattern does not match is analysed
    whole.
    Inside a kept class at least ``member_min_chars`` long, the methods that cannot
    contribute are blanked too (``class_members``)."""
    if len(text) < min_chars or re.search(r"\r(?!\n)", text) or _odd_identifiers(text):
        return text
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return text  # the whole-file parse reports what is wrong
    statements, starts = split_statements(text, tree, options)
    if project_mode and extra_seed is None:
        extra_seed = uses_project_imports(statements, project_seeds, text, starts)
    seeds = seed_flags(statements, extra_seed)
    kept = select_statements(statements, seeds)
    if not any(kept):
        return None
    members: list[tuple[int, int, int, int]] = []
    if not may_drive_hooks(text, options) and not _hands_functions(text, options):
        from zerograd_guard.lint.class_members import blanked_members

        members = blanked_members(
            text, starts, statements, kept, seeds, options, extra_seed, member_min_chars
        )
    if all(kept) and not members:
        return text
    return blanked(text, statements, kept, starts, members)
