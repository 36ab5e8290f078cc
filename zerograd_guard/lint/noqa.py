"""Suppression comments, read from the tokenizer's comment tokens.

Only real comments count: a ``# noqa`` inside a string literal suppresses nothing.
The grammar is ruff's:

* ``# noqa`` suppresses every finding reported on its line;
* ``# noqa: ZG101`` or ``# noqa: ZG101, ZG102`` (commas or spaces between codes)
  suppresses only those codes; a code also works as a prefix (``# noqa: ZG1``). A
  word that is not a code ends the list, so an explanation may follow
  (``# noqa: ZG101 warm-up loop``);
* ``# noqa ZG101`` (codes without the colon) is read as a bare ``# noqa``, as ruff
  and flake8 do, with a warning when the code is one of this tool's (``# noqa C901``
  is another tool's comment: no warning);
* a malformed code (``ZG1O2``, the letter O) gets a warning and suppresses nothing,
  so a typo never widens into a prefix (``ZG1``); a code of a known rule family that
  no rule has (``ZG109``) gets a warning too. Other tools' codes (``E501``) are
  accepted silently;
* ``# zerograd: noqa`` on a line of its own opts the whole file out;
  ``# zerograd: noqa: ZG102`` switches off only those codes for the whole file.

Lines are numbered by Python's rule (see ``lines``), as the analyzer numbers them.
"""

from __future__ import annotations

import re
import tokenize
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from zerograd_guard.lint.findings import Finding
from zerograd_guard.lint.lines import split_lines, strip_ending

ALL_CODES: frozenset[str] = frozenset({"*"})

# Cheap pre-checks on the raw text: the tokenizer runs only when one matches.
_ANY_NOQA = re.compile(r"#\s*noqa(?![\w])", re.IGNORECASE)
_ANY_FILE_NOQA = re.compile(r"#\s*zerograd\s*:\s*noqa(?![\w])", re.IGNORECASE)

_LINE_NOQA = re.compile(r"#\s*noqa(?![\w])(?P<colon>\s*:)?(?P<rest>[^\r\n]*)", re.IGNORECASE)
_FILE_NOQA = re.compile(
    r"#\s*zerograd\s*:\s*noqa(?![\w])(?P<colon>\s*:)?(?P<rest>[^\r\n]*)", re.IGNORECASE
)
_SEPARATOR = re.compile(r"[\s,]+")
_CODE = re.compile(r"[A-Za-z]+[0-9]+")
_LOOKS_LIKE_CODE = re.compile(r"[A-Za-z]+[0-9][A-Za-z0-9]*")


@dataclass(frozen=True)
class Suppressions:
    """What the comments of one source text suppress."""

    by_line: dict[int, frozenset[str]] = field(default_factory=dict)
    # Codes switched off for the whole file (``ALL_CODES``: the file is opted out).
    file_codes: frozenset[str] = frozenset()
    warnings: tuple[tuple[int, str], ...] = ()  # (1-based line, message)

    @property
    def opted_out(self) -> bool:
        return self.file_codes is ALL_CODES

    def suppresses(self, code: str, line: int) -> bool:
        if _matches(code, self.file_codes):
            return True
        codes = self.by_line.get(line)
        return codes is not None and _matches(code, codes)


def _matches(code: str, codes: frozenset[str]) -> bool:
    return codes is ALL_CODES or any(code.startswith(prefix) for prefix in codes)


def comments(source: str) -> Iterator[tuple[int, int, str]]:
    """(1-based line, 0-based column, text) of each comment token in ``source``.

    Source that stops tokenizing (a syntax error) yields the comments before it.
    """
    lines = iter(strip_ending(line) + "\n" for line in split_lines(source, keepends=True))
    try:
        for token in tokenize.generate_tokens(lambda: next(lines, "")):
            if token.type == tokenize.COMMENT:
                yield token.start[0], token.start[1], token.string
    except (tokenize.TokenError, SyntaxError):
        return


def _codes(
    rest: str, line: int, known: frozenset[str], warnings: list[tuple[int, str]]
) -> frozenset[str]:
    codes: set[str] = set()
    for word in _SEPARATOR.split(rest.strip()):
        if not word:
            continue
        if _CODE.fullmatch(word):
            code = word.upper()
            if known and not _known_code(code, known):
                warnings.append((line, f"unknown code {code} in `# noqa`"))
            codes.add(code)
        elif _LOOKS_LIKE_CODE.fullmatch(word):
            leading = re.match(r"[A-Za-z]+", word)
            if leading is not None and _in_family(leading.group().upper(), known):
                warnings.append((line, f"malformed code {word!r} in `# noqa` (ignored)"))
        else:
            break  # an explanation follows the codes
    return frozenset(codes)


def _in_family(code: str, known: frozenset[str]) -> bool:
    """Whether ``code`` has the letters of a known rule's code (``ZG``): ours, not
    another tool's (``E501``, ``C901``), whose comments are none of our business."""
    letters = code.rstrip("0123456789")
    return any(rule.rstrip("0123456789") == letters for rule in known)


def _known_code(code: str, known: frozenset[str]) -> bool:
    """Whether ``code`` names (or prefixes) a known rule, or belongs to another tool."""
    return any(rule.startswith(code) for rule in known) or not _in_family(code, known)


def _line_codes(
    match: re.Match[str], line: int, known: frozenset[str], warnings: list[tuple[int, str]]
) -> frozenset[str]:
    rest = match.group("rest")
    if match.group("colon") is not None:
        return _codes(rest, line, known, warnings)
    first = rest.split()[0].rstrip(",") if rest.split() else ""
    if _LOOKS_LIKE_CODE.fullmatch(first) and _in_family(first.upper(), known):
        warnings.append(
            (
                line,
                f"`# noqa {first}` lacks a colon: read as a bare `# noqa` "
                f"(write `# noqa: {first}`)",
            )
        )
    return ALL_CODES


def needed_before_analysis(source: str, known: Iterable[str] = ()) -> bool:
    """Whether ``source`` may opt out of rules file-wide or hold a ``# noqa`` that warns.

    A cheap look at the raw text: the tokenizer (a fifth of libcst's parse time on a
    big file) then runs only for these files, or once there are findings to filter.
    """
    if _ANY_FILE_NOQA.search(source):
        return True
    known_codes = frozenset(known)
    warnings: list[tuple[int, str]] = []
    for match in _LINE_NOQA.finditer(source):
        _line_codes(match, 0, known_codes, warnings)
        if warnings:
            return True
    return False


def read_suppressions(source: str, known: Iterable[str] = ()) -> Suppressions:
    """The suppressions in ``source``; ``known``: the rule codes, for unknown-code warnings."""
    has_line = _ANY_NOQA.search(source) is not None
    has_file = _ANY_FILE_NOQA.search(source) is not None
    if not has_line and not has_file:
        return Suppressions()
    known_codes = frozenset(known)
    warnings: list[tuple[int, str]] = []
    by_line: dict[int, frozenset[str]] = {}
    file_codes: set[str] = set()
    opted_out = False
    raw_lines = split_lines(source) if has_file else []
    for line, column, text in comments(source):
        whole = _FILE_NOQA.match(text)
        if whole is not None:
            if raw_lines[line - 1][:column].strip():
                continue  # not on a line of its own
            if whole.group("colon") is None:
                opted_out = True
            else:
                file_codes |= _codes(whole.group("rest"), line, known_codes, warnings)
            continue
        match = _LINE_NOQA.search(text)
        if match is not None:
            by_line[line] = _line_codes(match, line, known_codes, warnings)
    return Suppressions(
        by_line=by_line,
        file_codes=ALL_CODES if opted_out else frozenset(file_codes),
        warnings=tuple(warnings),
    )


def file_opted_out(source: str) -> bool:
    """Whether a ``# zerograd: noqa`` on a line of its own opts the whole file out."""
    return read_suppressions(source).opted_out


def line_suppressions(source: str) -> dict[int, frozenset[str]]:
    """1-based line -> suppressed codes (``ALL_CODES`` for a bare ``# noqa``)."""
    return read_suppressions(source).by_line


def filter_suppressed(findings: Iterable[Finding], suppressions: Suppressions) -> list[Finding]:
    """Drop the findings that ``suppressions`` covers."""
    return [item for item in findings if not suppressions.suppresses(item.code, item.line)]
