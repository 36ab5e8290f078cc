"""One cheap pass per file: what a module defines and imports.

No parse of the whole file: import statements are found line by line and each parsed
alone by the C ``ast`` parser; top-level definitions are found at column 0
(``index_source``, for every file of the run). What a definition's text says, its
gradient markers (comments and strings left out: ``definition_marks``) and the names it
refers to (``definition_links``), is read only for the definitions a question reaches
(``graph.Project``). What the pass gets wrong only over-approximates (a definition's
text may run into module code) or leaves a name unknown (a definition nested under an
``if`` is not indexed), so it can cost analysis time, never a false finding: every call
it resolves is analysed from the other module's real model.

Nothing here builds the event model; the index only decides which calls may resolve
into another linted module and which files need the full analysis at all.
"""

from __future__ import annotations

import ast
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import NamedTuple

# Text that marks a definition as possibly touching gradients: it may run a backward,
# clear or step. A definition without any of these (and that references no definition
# with them) cannot change a caller's verdict: handing an optimizer on to code that never
# clears or steps it does nothing to the gradients. A backward is a call or an attribute
# (``backward(``, ``.backward``), not a method defined with that name (``def backward(``
# of an autograd ``Function`` runs no loss's backward), not any word that contains it
# (``backward_prefetch``,
# ``register_full_backward_hook``, "the backward pass" in a docstring): loading such a
# definition costs a parse and can only end unknown.
#
# Every alternative starts with a literal character (the word start of ``backward(`` is
# checked by a lookbehind after the word, not by ``\b`` before it): Python's ``re`` then
# scans for those first characters at C speed instead of trying the whole pattern at
# every position, ~9x faster on real trees. Same matches as ``\bbackward\s*\(|...``
# (``tests/lint/project/test_index_markers.py``).
_BACKWARD = (
    r"backward(?<!\wbackward)(?<!def backward)\s*\(|\.backward\b"
    r"|manual_backward(?<!\wmanual_backward)\b"
)
# Text that may clear, step or update by hand (every finding needs a step); the
# gradient markers without the backward (``has_step_marker``).
_STEP = r"zero_grad\b|\.step\b|\.grad\b|\.(?:optimizer|first|second)_step\b"
GRADIENT_MARKERS = re.compile(rf"{_BACKWARD}|{_STEP}")
BACKWARD_MARKERS = re.compile(_BACKWARD)
# A literal each alternative of the patterns above needs. Python's ``re`` tries every
# position for a pattern that does not start with a literal; a substring test first
# (C speed) rules out most texts and definitions without running the regex at all.
_GRADIENT_LITERALS = ("backward", "zero_grad", ".step", ".grad", "_step")
_BACKWARD_LITERAL = "backward"


def touches_gradients(text: str) -> bool:
    """``GRADIENT_MARKERS`` occurs in ``text``."""
    if not any(literal in text for literal in _GRADIENT_LITERALS):
        return False
    return GRADIENT_MARKERS.search(text) is not None


# Comments and string literals (prefixes need no match: the quotes start the literal), in
# the order a tokenizer meets them, so a quote inside a comment or a ``#`` inside a string
# is consumed by the token that holds it. An f-string's replacement fields go with it:
# that only hides a marker (the definition is then left unknown, never judged wrongly).
_NON_CODE = re.compile(
    r"#[^\r\n]*"
    r'|"""(?:[^"\\]|\\.|"(?!""))*"""'
    r"|'''(?:[^'\\]|\\.|'(?!''))*'''"
    r'|"(?:[^"\\\r\n]|\\.)*"'
    r"|'(?:[^'\\\r\n]|\\.)*'",
    re.DOTALL,
)


def code_only(text: str) -> str:
    """``text`` with its comments and string literals blanked (each replaced by a space):
    the gradient markers of a docstring or a comment are not code."""
    return _NON_CODE.sub(" ", text)


# ``_STEP`` as one pattern per alternative, each starting with a literal (and each
# tried only where its literal occurs): an alternation of them starts with no literal, so
# ``re`` would try it at every position.
_STEP_SCANS = (
    ("zero_grad", re.compile(r"zero_grad\b")),
    (".step", re.compile(r"\.step\b")),
    (".grad", re.compile(r"\.grad\b")),
    ("_step", re.compile(r"_step(?:(?<=\.optimizer_step)|(?<=\.first_step)|(?<=\.second_step))\b")),
)


def has_step_marker(text: str) -> bool:
    """``_STEP`` occurs in ``text``."""
    return any(
        literal in text and pattern.search(text) is not None for literal, pattern in _STEP_SCANS
    )


def has_backward_marker(text: str) -> bool:
    """``BACKWARD_MARKERS`` occurs in ``text``."""
    return _BACKWARD_LITERAL in text and BACKWARD_MARKERS.search(text) is not None


@dataclass(frozen=True)
class Definition:
    """A top-level function or class of a module: where its text is."""

    start: int  # the definition's text: [start, end) of the file, from line ``line``
    end: int
    line: int
    is_class: bool = False
    bases: tuple[str, ...] = ()  # a class: the bases its header names (``_class_bases``)


@dataclass(frozen=True)
class Marks:
    """Whether a definition's own text mentions gradient work (``definition_marks``):
    ``touches`` any, ``backward``, ``steps`` (a clear, step or hand-written update)."""

    touches: bool
    backward: bool
    steps: bool
    # a class: its methods whose own text has a backward (None: not a class)
    backward_methods: frozenset[str] | None = None


@dataclass(frozen=True)
class Links:
    """The names a definition's text refers to (``definition_links``)."""

    refs: frozenset[str]
    # its ``name.attr...`` chains on imported names (``(`` appended: called, or a base): an
    # imported module refers to the definitions its chains reach, not to all of them
    import_uses: frozenset[str] = frozenset()
    # the imported names and the module's classes among ``refs`` that it calls (``name(``)
    # or, a class, derives from
    calls: frozenset[str] = frozenset()
    # names of ``calls`` it only reads attributes of (``Cls.apply(...)``: no ``Cls(``,
    # no base), with those attributes: only what they name runs
    read_only: tuple[tuple[str, frozenset[str]], ...] = ()


@dataclass(frozen=True)
class ModuleEntry:
    """What one linted file contributes to the project.

    ``imports`` maps each module-level name bound by an import to the absolute dotted
    name it refers to (relative imports resolved against ``package``); ``star`` lists
    modules imported with ``*``; ``definitions`` are the top-level functions and classes.
    """

    path: str
    names: tuple[str, ...]
    digest: str
    is_package: bool = False
    backward: bool = False  # the text may hold a backward call (the per-file pre-filter)
    steps: bool = False  # the text has a step marker (``has_step_marker``)
    marked: bool = False  # the text may hold any marker: its definitions' may
    imports: dict[str, str] = field(default_factory=dict)
    star: tuple[str, ...] = ()
    definitions: dict[str, Definition] = field(default_factory=dict)
    # What the bodies of the module's loops use (a finding needs a loop that calls the
    # other module): imported names, names called as ``.name(``, ``alias.attr...`` chains.
    # Only a candidate needs them (``graph.Project._context``): a file without a backward
    # of its own that imports something; they are left empty in any other file.
    loop_references: frozenset[str] = frozenset()
    has_loop: bool = False
    method_calls: frozenset[str] = frozenset()
    dotted_uses: frozenset[str] = frozenset()
    # ``alias.Cls(`` chains anywhere in a file with loops and no backward: a class built
    # through an imported module (``policy = agents.Agent(net)``), its methods called in
    # a loop
    built_classes: frozenset[str] = frozenset()

    @property
    def name(self) -> str | None:
        return self.names[0] if self.names else None

    @cached_property
    def folder(self) -> str:
        """The folder of its file."""
        return os.path.dirname(self.path)

    @cached_property
    def classes(self) -> frozenset[str]:
        """The names of its top-level classes."""
        return frozenset(name for name, found in self.definitions.items() if found.is_class)


def _absolute(node: ast.ImportFrom, package: str | None) -> str | None:
    if not node.level:
        return node.module
    if package is None:
        return None
    parts = package.split(".") if package else []
    if node.level - 1 > len(parts):
        return None
    base = parts[: len(parts) - (node.level - 1)]
    if node.module:
        base.append(node.module)
    return ".".join(base) or None


def _imports(tree: ast.Module, package: str | None) -> tuple[dict[str, str], tuple[str, ...]]:
    imports: dict[str, str] = {}
    star: list[str] = []
    for node in tree.body:  # ``_import_statements``: import statements only, none nested
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    imports[alias.asname] = alias.name
                else:
                    head = alias.name.split(".", 1)[0]
                    imports.setdefault(head, head)
        elif isinstance(node, ast.ImportFrom):
            origin = _absolute(node, package)
            if origin is None:
                continue
            for alias in node.names:
                if alias.name == "*":
                    star.append(origin)
                else:
                    imports[alias.asname or alias.name] = f"{origin}.{alias.name}"
    return imports, tuple(star)


# Line patterns (matched at a line start) and a keyword each of their lines contains.
_LOOP_LINE = re.compile(r"([ \t]*)(?:async[ \t]+)?(?:for|while)\b")
# The keywords where they may start a loop's line (after a line break, or a space or tab
# that follows one, or ``async``'s ``c``): rules out, at C speed, a keyword inside a line
# (comprehensions, prose in docstrings), most of their occurrences. One pattern per
# keyword, each starting with its literal (the lookbehinds follow it): ``re`` scans for a
# literal prefix several times faster than for the first characters of alternatives. The
# first line of a text is always tried (``_line_matches``).
_LOOP_KEYWORDS = tuple(
    re.compile(rf"{word}(?:(?<=\n{word})|(?<=[ \t\n][ \t]{word})|(?<=c[ \t]{word}))\b")
    for word in ("for", "while")
)
_METHOD = re.compile(r"^[ \t]+(?:async[ \t]+)?def[ \t]+(\w+)", re.MULTILINE)
_DOTTED = re.compile(r"(?<![\w.])[A-Za-z_]\w*+(?:\.[A-Za-z_]\w*+)+")
_METHOD_CALL = re.compile(r"\.([A-Za-z_]\w*)\(")
# ``.Cls(``: the end of a chain that builds a class (its start is read backwards)
_CLASS_CALL = re.compile(r"\.[A-Z]\w*\s*\(")
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
# A dotted chain at a position, and whether it is called.
_CHAIN_AT = re.compile(r"([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)(\s*\()?")
_CLASS_HEADER = re.compile(r"class[ \t]+\w+[ \t]*\(([^)]*)\)")
# A top-level definition: ``def`` / ``async def`` / ``class`` at column 0.
_TOP_DEFINITION = re.compile(r"(?:async[ \t]+)?def[ \t]+(\w+)|class[ \t]+(\w+)")
_DEFINITION_AFTER_BREAK = re.compile(r"\n(?:(?:async[ \t]+)?def[ \t]+(\w+)|class[ \t]+(\w+))")


_IMPORT_LINE = re.compile(r"[ \t]*(?:from[ \t]+\.*[\w.]*[ \t]+)?import[ \t][^\n]*")
_IMPORT_KEYWORDS = (re.compile(r"import[ \t]"),)


def _line_matches(
    text: str, keywords: tuple[re.Pattern[str], ...], line: re.Pattern[str]
) -> Iterator[re.Match[str]]:
    """The matches of ``line`` at the starts of the lines of ``text``, in order (what
    ``re.finditer`` of ``^`` + ``line`` in multiline mode finds), trying the first line
    and the lines where one of ``keywords`` occurs (a match on any other line has one):
    a pattern that starts with ``^`` is tried at every position of the text, a literal
    keyword is scanned for at C speed."""
    first = line.match(text)
    if first is not None:
        yield first
    tried = 0
    found = sorted(match.start() for keyword in keywords for match in keyword.finditer(text))
    for position in found:
        start = text.rfind("\n", 0, position) + 1
        if start <= tried:
            continue  # the line of an earlier keyword
        tried = start
        match = line.match(text, start)
        if match is not None:
            yield match


def _import_statements(text: str) -> ast.Module:
    """Only the import statements of ``text`` (each parsed alone, dedented; a
    parenthesised name list, or lines joined by a backslash, may span lines)."""
    statements: list[str] = []
    for match in _line_matches(text, _IMPORT_KEYWORDS, _IMPORT_LINE):
        statement = match.group().strip()
        end = match.end()
        while statement.endswith("\\") and end < len(text):  # continued on the next line
            following = text.find("\n", end + 1)
            following = len(text) if following < 0 else following
            statement = statement[:-1] + " " + text[end + 1 : following].strip()
            end = following
        if "(" in statement and ")" not in statement:
            close = text.find(")", match.end())
            if close < 0:
                continue
            statement += text[match.end() : close + 1]
        statement = statement.split("#", 1)[0] if "(" not in statement else statement
        statements.append(statement.replace("\\\n", " "))
    try:  # all at once; one that does not parse alone is dropped below
        return ast.parse("\n".join(statements))
    except (SyntaxError, ValueError):
        pass
    body: list[ast.stmt] = []
    for statement in statements:
        try:
            body.extend(ast.parse(statement).body)
        except (SyntaxError, ValueError):
            continue
    return ast.Module(body=body, type_ignores=[])


def index_source(
    text: str,
    path: str,
    names: tuple[str, ...],
    digest: str,
    is_package: bool,
    markers: tuple[str, ...] = (),
    backward: bool = False,
) -> ModuleEntry:
    """Index ``text`` (see the module docstring for what the cheap pass can miss): its
    imports, its loops and where its definitions are; what they say is ``definition_marks``
    and ``definition_links``."""
    from zerograd_guard.lint.project.layout import package_of

    package = package_of(names[0], is_package) if names else None
    imports, star = _imports(_import_statements(text), package)
    # a loop may call what the file imports, or what its callers pass it (``call_sites``)
    loops = _loop_bodies(text) if not backward else ""
    definitions: dict[str, Definition] = {}
    # ``touches_gradients`` in two parts: the step part is needed anyway
    step_marker = has_step_marker(text)
    marked = bool(backward or markers or step_marker or has_backward_marker(text))
    # Without a marker of its own, a definition still reaches gradient work through the
    # names it imports (a wrapper calling an imported step).
    if marked or imports or star or loops:
        found = _definitions(text)
        line, counted = 1, 0
        for match, (start, end) in zip(found, _spans(text, found), strict=True):
            line += text.count("\n", counted, start)
            counted = start
            name = match.function or match.cls or ""
            is_class = match.cls is not None
            bases = tuple(_class_bases(text, start, end)) if is_class else ()
            definitions[name] = Definition(start, end, line, is_class, bases)
    return ModuleEntry(
        path=path,
        names=names,
        digest=digest,
        is_package=is_package,
        backward=backward,
        steps=bool(markers) or step_marker,
        marked=marked,
        imports=imports,
        star=star,
        definitions=definitions,
        loop_references=frozenset(imports).intersection(_IDENTIFIER.findall(loops)),
        has_loop=bool(loops),
        method_calls=frozenset(_METHOD_CALL.findall(loops)),
        dotted_uses=frozenset(
            use for use in _DOTTED.findall(loops) if use.partition(".")[0] in imports
        ),
        built_classes=_built_classes(text, imports) if loops else frozenset(),
    )


def _built_classes(text: str, imports: dict[str, str]) -> frozenset[str]:
    """The ``alias.a.Cls`` chains called in ``text`` whose head is an imported name."""
    found = set()
    for match in _CLASS_CALL.finditer(text):
        end = match.end() - 1  # the call's ``(``
        chain = text[_chain_start(text, match.start()) : end].rstrip()
        if chain.partition(".")[0] in imports and chain[:1].isidentifier():
            found.add(chain)
    return frozenset(found)


def _chain_start(text: str, end: int) -> int:
    """Where the run of word characters and dots that ends at ``end`` starts (at most
    200 characters back)."""
    start, low = end, max(0, end - 200)
    while start > low and (text[start - 1].isalnum() or text[start - 1] in "_."):
        start -= 1
    return start


class TopDefinition(NamedTuple):
    """A ``def`` / ``async def`` / ``class`` line at column 0: [start, end) of its
    header's name, and the name (``function`` or ``cls``)."""

    start: int
    end: int
    function: str | None
    cls: str | None


def _definitions(text: str) -> list[TopDefinition]:
    """The top-level definitions: ``_TOP_DEFINITION`` at the start of a line, found by
    one scan for a line break followed by the keyword (a literal first character)."""
    found = []
    first = _TOP_DEFINITION.match(text)
    if first is not None:
        found.append(TopDefinition(0, first.end(), first[1], first[2]))
    found.extend(
        TopDefinition(match.start() + 1, match.end(), match[1], match[2])
        for match in _DEFINITION_AFTER_BREAK.finditer(text)
    )
    return found


def definition_marks(text: str, entry: ModuleEntry, name: str, markers: tuple[str, ...]) -> Marks:
    """What definition ``name`` of ``entry`` (indexed from ``text``) says of gradients."""
    definition = entry.definitions[name]
    segment = text[definition.start : definition.end] if entry.marked else ""
    extra = any(marker in segment for marker in markers)
    if not extra and touches_gradients(segment):
        segment = code_only(segment)  # not "call ``Tensor.backward()``" in a docstring
    return Marks(
        touches=extra or touches_gradients(segment),
        backward=extra or has_backward_marker(segment),
        steps=extra or has_step_marker(segment),
        backward_methods=_backward_methods(segment, extra) if definition.is_class else None,
    )


def definition_links(text: str, entry: ModuleEntry, name: str) -> Links:
    """The names definition ``name`` of ``entry`` (indexed from ``text``) refers to."""
    definition = entry.definitions[name]
    start, end = definition.start, definition.end
    imports = entry.imports
    if entry.marked or entry.star:
        refs = frozenset(_IDENTIFIER.findall(text, start, end))
    else:
        refs = _shared_names(text, start, end, imports)
    # what the definition runs is read from its code: a module or class a docstring
    # names (``torch.utils.checkpoint``) runs nothing
    code = code_only(text[start:end])
    calls, read_only = _calls(
        code, 0, len(code), definition.is_class, refs & (frozenset(imports) | entry.classes)
    )
    return Links(
        refs=refs,
        import_uses=_import_uses(code, 0, len(code), imports),
        calls=calls,
        read_only=read_only,
    )


def _spans(text: str, found: list[TopDefinition]) -> list[tuple[int, int]]:
    """Each top-level definition's text: up to the next one (which may include module
    code between them: that only over-approximates, more touches and references),
    without the next one's decorators."""
    spans = []
    for index, match in enumerate(found):
        end = found[index + 1].start if index + 1 < len(found) else len(text)
        spans.append((match.start, _before_decorators(text, match.start, end)))
    return spans


def _shared_names(text: str, start: int, end: int, imports: dict[str, str]) -> frozenset[str]:
    """For a file without gradient markers, which of its imported names a definition's
    text (``start``..``end``) uses (by substring: a name inside a longer identifier only
    over-approximates): the way it reaches gradient work. Calls between the module's own
    definitions are not followed (neither has a marker; a chain of such wrappers stays
    unknown)."""
    return frozenset(name for name in imports if text.find(name, start, end) >= 0)


def _calls(
    text: str, start: int, end: int, is_class: bool, among: frozenset[str]
) -> tuple[frozenset[str], tuple[tuple[str, frozenset[str]], ...]]:
    """Which of the names ``among`` (those that may name a class: imported, or a class
    of the module) a definition's text runs code of: calls (``name(``), reads an
    attribute of (``name.method(...)``), or, a class, derives from. Only capitalised
    names are searched for; any other is taken as run (a class named in lower case,
    like ``no_grad``, spreads its marks as if it were called: that only costs time).
    Second, those of them it only reads attributes of (never ``name(``, not a base),
    each with the attributes read (``Links.read_only``)."""
    bases: set[str] = set()
    if is_class:
        header = _CLASS_HEADER.match(text, start, end)
        if header is not None:
            bases.update(_IDENTIFIER.findall(header[1]))
    called, read_only = set(bases), []
    for name in sorted(among):
        if not name[:1].isupper() or text.find(f"{name}(", start, end) >= 0:
            called.add(name)
        elif text.find(f"{name}.", start, end) >= 0:
            called.add(name)
            if name not in bases:
                pattern = re.compile(rf"(?<![\w.]){re.escape(name)}\s*\.\s*([A-Za-z_]\w*)")
                read = frozenset(match[1] for match in pattern.finditer(text, start, end))
                read_only.append((name, read))
    return frozenset(called), tuple(read_only)


def _import_uses(text: str, start: int, end: int, imports: dict[str, str]) -> frozenset[str]:
    """A definition's (``start``..``end``) ``name.attr...`` chains on imported names,
    ``(`` appended to one it calls or that its class header names as a base
    (``Links.import_uses``; one in a comment or string only over-approximates). Each
    imported name's occurrences are found by a substring search, much cheaper than
    matching every identifier."""
    header = text.find(":", start, end) if text.startswith("class", start) else -1
    uses: set[str] = set()
    for name in imports:
        prefix = f"{name}."
        position = text.find(prefix, start, end)
        while position >= 0:
            before = text[position - 1] if position else " "
            if not (before.isalnum() or before in "_.") and not text.endswith(
                ("import ", "from "), 0, position
            ):
                chain = _CHAIN_AT.match(text, position)
                if chain is not None:
                    called = chain[2] or position < header  # a call, or a base class
                    uses.add(chain[1] + ("(" if called else ""))
            position = text.find(prefix, position + len(prefix), end)
    return frozenset(uses)


def _loop_bodies(text: str) -> str:
    """The text of every ``for`` / ``while`` loop (header and the more indented lines
    after it), by indentation: what a loop may call."""
    parts: list[str] = []
    reached = 0
    for header in _line_matches(text, _LOOP_KEYWORDS, _LOOP_LINE):
        if header.start() < reached:
            continue  # a loop nested in one already taken
        end = text.find("\n", header.end())
        if end < 0:
            parts.append(text[header.start() :])
            break
        dedent = _dedent(len(header[1])).search(text, end)
        reached = dedent.start() + 1 if dedent else len(text)
        parts.append(text[header.start() : reached])
    return "".join(parts)


@lru_cache(maxsize=64)
def _dedent(indent: int) -> re.Pattern[str]:
    """The line break before a line indented at most ``indent`` columns that holds code
    (the end of a block opened at that indentation); it starts with the line break, a
    literal ``re`` scans for, not with ``^``, which it would try at every position."""
    return re.compile(rf"\n[ \t]{{0,{indent}}}(?=[^ \t\r\n#])")


def reduced_class_text(segment: str) -> str | None:
    """A class's text (``segment``) cut down for a subclass that inherits from it when it
    is too long to load whole (nnU-Net's ``nnUNetTrainer``, 70,000 characters: its
    ``run_training`` loop calls the ``train_step`` a subclass overrides). Kept: the
    methods holding a loop or gradient work (``touches_gradients``), and those calling
    a kept one on ``self``. Every other method becomes a stub doing nothing, at its
    ``def`` line (what it did touches no gradient and calls no kept method), its other
    lines left empty, so every kept line stays where it was. None when no method loops
    (nothing a subclass's loop runs)."""
    found = list(_METHOD.finditer(segment))
    if not found:
        return None
    indent = min(len(match[0]) - len(match[0].lstrip()) for match in found)
    methods = [match for match in found if len(match[0]) - len(match[0].lstrip()) == indent]
    spans: dict[str, tuple[int, int]] = {}
    for index, match in enumerate(methods):
        start = _decorators_start(segment, segment.rfind("\n", 0, match.start()) + 1)
        end = methods[index + 1].start() if index + 1 < len(methods) else len(segment)
        spans[match[1]] = (
            start,
            _before_decorators(segment, start, segment.rfind("\n", 0, end) + 1 or end),
        )
    looping = {name for name, (start, end) in spans.items() if _LOOP.search(segment, start, end)}
    if not looping:
        return None
    working = {
        name for name, (start, end) in spans.items() if touches_gradients(segment[start:end])
    }
    kept = _with_self_callers(segment, spans, looping | working)
    pieces: list[str] = []
    cursor = 0
    for name, (start, end) in sorted(spans.items(), key=lambda item: item[1]):
        if name in kept:
            continue
        lines = segment[start:end].count("\n")
        margin = " " * indent
        stub = f"{margin}def {name}(self, *args, **kwargs):\n{margin}    pass\n"
        pieces += [segment[cursor:start], stub + "\n" * max(lines - 2, 0)]
        cursor = end
    pieces.append(segment[cursor:])
    return "".join(pieces)


_LOOP = re.compile(r"^[ \t]+(?:async[ \t]+)?(?:for|while)[ \t(]", re.MULTILINE)


def _decorators_start(text: str, start: int) -> int:
    """``start`` (a line's start) moved back over the decorator lines above it."""
    while start > 0:
        previous = text.rfind("\n", 0, start - 1) + 1
        if not text[previous:start].strip().startswith("@"):
            return start
        start = previous
    return start


def _before_decorators(text: str, start: int, end: int) -> int:
    """``end`` moved back over the decorator lines (and blank lines and comments) that
    belong to the next definition."""
    while end > start:
        line_start = text.rfind("\n", start, end - 1) + 1
        line = text[line_start:end].strip()
        if line and not line.startswith(("@", "#")):
            return end
        if line_start <= start:
            return end
        end = line_start
    return end


def _class_bases(text: str, start: int, end: int) -> list[str]:
    """The base classes the header of the class at ``start`` names (``Net``,
    ``nn.Module``; keywords such as ``metaclass=`` left out)."""
    header = _CLASS_HEADER.match(text, start, end)
    if header is None:
        return []
    bases = (part.strip() for part in header[1].split(","))
    return [base for base in bases if base and "=" not in base and _DOTTED_NAME.fullmatch(base)]


_DOTTED_NAME = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")


def _backward_methods(segment: str, extra: bool) -> frozenset[str]:
    """The methods of a class (its text ``segment``) whose own text has a backward, and
    those that call one of them on ``self`` (``optimize_parameters`` calling
    ``self.backward_G()``, pytorch-CycleGAN's layout): calling either runs a backward."""
    if not extra and _BACKWARD_LITERAL not in segment:
        return frozenset()  # no method's text can hold a backward marker
    spans = _method_spans(segment)
    names = {
        name
        for name, (start, end) in spans.items()
        if extra or BACKWARD_MARKERS.search(segment, start, end) is not None
    }
    return _with_self_callers(segment, spans, names)


def calling_methods(segment: str, called: frozenset[str]) -> frozenset[str]:
    """The methods of a class (its text ``segment``) that call one of ``called`` on
    ``self``, directly or through another of its methods: a base's ``train_step`` that
    calls ``self.update``, which a subclass overrides with a backward (rlkit's
    ``TorchTrainer.train`` over ``SACTrainer.train_from_torch``)."""
    return _with_self_callers(segment, _method_spans(segment), set(called)) - called


def _method_spans(segment: str) -> dict[str, tuple[int, int]]:
    """Each ``def`` of a class's text (its methods and what they nest) -> its text, up to
    the next ``def``."""
    found = list(_METHOD.finditer(segment))
    spans = {}
    for index, match in enumerate(found):
        end = found[index + 1].start() if index + 1 < len(found) else len(segment)
        spans[match[1]] = (match.start(), end)
    return spans


def _with_self_callers(
    segment: str, spans: dict[str, tuple[int, int]], names: set[str]
) -> frozenset[str]:
    """``names`` and the methods (``spans``: each one's text in ``segment``) that call one
    of them on ``self``, transitively."""
    changed = bool(names)
    while changed:
        changed = False
        for name, (start, end) in spans.items():
            if name not in names and any(
                segment.find(f"self.{called}(", start, end) >= 0 for called in names
            ):
                names.add(name)
                changed = True
    return frozenset(names)
