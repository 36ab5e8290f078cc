"""One cheap pass per file: what a module defines and imports (the C ``ast`` parser).

Nothing here builds the event model; the index only decides which calls may resolve
into another linted module and which files need the full analysis at all.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

# Text that marks a definition as possibly touching gradients: it may run a backward,
# clear or step, or hand an optimizer on. A definition without any of these (and that
# references no definition with them) cannot change a caller's verdict.
GRADIENT_MARKERS = re.compile(r"backward|zero_grad|\.step\b|\.grad\b|optimizer|optim")
BACKWARD_MARKER = "backward"


@dataclass(frozen=True)
class Definition:
    """A top-level function or class: whether its text mentions gradient work
    (``touches`` / ``backward``) and the module-level names it refers to."""

    touches: bool
    backward: bool
    refs: frozenset[str]


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
    imports: dict[str, str] = field(default_factory=dict)
    star: tuple[str, ...] = ()
    definitions: dict[str, Definition] = field(default_factory=dict)
    references: frozenset[str] = frozenset()  # every name the module's text uses

    @property
    def name(self) -> str | None:
        return self.names[0] if self.names else None


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
    for node in ast.walk(tree):
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


def _names_in(node: ast.AST) -> frozenset[str]:
    return frozenset(
        child.id if isinstance(child, ast.Name) else child.attr
        for child in ast.walk(node)
        if isinstance(child, (ast.Name, ast.Attribute))
    )


def _segment(lines: list[str], node: ast.stmt) -> str:
    end = getattr(node, "end_lineno", None) or node.lineno
    return "".join(lines[node.lineno - 1 : end])


_IMPORT_LINE = re.compile(r"^[ \t]*(?:from[ \t]+\.*[\w.]*[ \t]+)?import[ \t][^\n]*", re.MULTILINE)


def _import_statements(text: str) -> ast.Module:
    """Only the import statements of ``text`` (each parsed alone, dedented; a
    parenthesised name list may span lines). For files with no gradient marker: their
    definitions cannot touch gradients, but their imports may re-export ones that do."""
    body: list[ast.stmt] = []
    for match in _IMPORT_LINE.finditer(text):
        statement = match.group().strip()
        if "(" in statement and ")" not in statement:
            close = text.find(")", match.end())
            if close < 0:
                continue
            statement += text[match.end() : close + 1]
        statement = statement.split("#", 1)[0] if "(" not in statement else statement
        try:
            body.extend(ast.parse(statement.replace("\\\n", " ")).body)
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
    """Index ``text``; a file that does not parse is indexed as defining nothing (its own
    analysis reports the syntax error)."""
    from zerograd_guard.lint.project.layout import package_of

    package = package_of(names[0], is_package) if names else None
    if not backward and not markers and GRADIENT_MARKERS.search(text) is None:
        imports, star = _imports(_import_statements(text), package)
        return ModuleEntry(
            path=path,
            names=names,
            digest=digest,
            is_package=is_package,
            imports=imports,
            star=star,
            references=frozenset(name for name in imports if text.count(name) > 1),
        )
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return ModuleEntry(
            path=path, names=names, digest=digest, is_package=is_package, backward=backward
        )
    imports, star = _imports(tree, package)
    lines = text.splitlines(keepends=True)
    definitions: dict[str, Definition] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            segment = _segment(lines, node)
            extra = any(marker in segment for marker in markers)
            definitions[node.name] = Definition(
                touches=extra or GRADIENT_MARKERS.search(segment) is not None,
                backward=extra or BACKWARD_MARKER in segment,
                refs=_names_in(node),
            )
    return ModuleEntry(
        path=path,
        names=names,
        digest=digest,
        is_package=is_package,
        backward=backward,
        imports=imports,
        star=star,
        definitions=definitions,
        references=_names_in(tree),
    )
