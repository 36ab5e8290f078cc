"""IPython syntax in a notebook cell, replaced so the cell parses as Python.

What is IPython is decided per logical line, by Python's tokenizer, as IPython's own
input transformers do: only a line that *starts a statement* can be a line magic
(``%time f()``), a shell escape (``!pip install ...``), a help request (``?obj``) or
an assigned magic (``files = !ls``), and its backslash continuation lines belong to
it. A line inside brackets or a string (``(1\\n % 7)``, ``(a\\n != b)``, a docstring)
is never IPython. Help at the end (``obj?``, ``obj??``) is a ``?`` token that ends a
logical line; a ``?`` in a comment or a string is not one.

A cell magic (``%%bash`` ...) masks its whole cell, except the magics whose body is
Python (``%%time`` ...), which mask only their first line.

Masking keeps one line per cell line: a masked statement's first line becomes
``pass`` at its indentation, its continuation lines become empty.
"""

from __future__ import annotations

import re
import tokenize

PYTHON_BODY_CELL_MAGICS = frozenset({"time", "timeit", "capture", "prun", "debug"})
_ASSIGNED_MAGIC = re.compile(r"\s*[A-Za-z_][\w.,\s]*=\s*[%!]")
_INSIGNIFICANT = frozenset(
    {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT}
)


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]


def _continued_to(lines: list[str], first: int) -> int:
    """The last line of the backslash-continued IPython line starting at ``first``."""
    last = first
    while last + 1 < len(lines) and lines[last].endswith("\\"):
        last += 1
    return last


def _python_statement(lines: list[str], first: int) -> tuple[int, bool]:
    """(last line index, ends with a ``?`` help token) of the logical line at ``first``."""
    feed = iter(line + "\n" for line in lines[first:])
    last_significant: tokenize.TokenInfo | None = None
    try:
        for token in tokenize.generate_tokens(lambda: next(feed, "")):
            if token.type == tokenize.NEWLINE or token.type == tokenize.ENDMARKER:
                last = first + token.start[0] - 1
                help_request = last_significant is not None and last_significant.string == "?"
                return min(last, len(lines) - 1), help_request
            if token.type not in _INSIGNIFICANT:
                last_significant = token
    except tokenize.TokenError:  # an unterminated string or bracket: the rest of the cell
        return len(lines) - 1, False
    except SyntaxError:  # a tokenizer that rejects '?' itself: judge the one line
        return first, lines[first].rstrip().endswith("?")
    return len(lines) - 1, False  # pragma: no cover - the tokenizer always ends


def mask_cell(lines: list[str]) -> list[str | None]:
    """For each line of a cell (without its ending): its replacement, or None to keep it."""
    masks: list[str | None] = [None] * len(lines)
    first = 0
    if lines and lines[0].lstrip().startswith("%%"):
        magic = lines[0].lstrip()[2:].split(maxsplit=1)
        if not magic or magic[0] not in PYTHON_BODY_CELL_MAGICS:
            return ["pass"] * len(lines)
        masks[0] = "pass"
        first = 1
    index = first
    while index < len(lines):
        line = lines[index]
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            index += 1
            continue
        if stripped[0] in "%!?" or _ASSIGNED_MAGIC.match(line):
            last, ipython = _continued_to(lines, index), True
        else:
            last, ipython = _python_statement(lines, index)
        if ipython:
            masks[index] = _indent(line) + "pass"
            for continuation in range(index + 1, last + 1):
                masks[continuation] = ""
        index = last + 1
    return masks
