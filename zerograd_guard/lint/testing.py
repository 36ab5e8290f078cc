"""Example-driven tests for rules, built in or from plugins (Fixit's style).

A rule's ``VALID`` examples must be silent; each ``INVALID`` example marks every line the
rule must report with a trailing ``# expect: CODE`` comment (several: ``# expect: XP001,
XP002``; any code of letters then digits). An ``INVALID`` entry may be ``Invalid(code,
fixed=...)`` to pin the source that ``--fix --unsafe-fixes`` makes of it. In a plugin's
test suite::

    import pytest
    from zerograd_guard.lint.testing import example_params, check_example

    @pytest.mark.parametrize("example", example_params(MyRule))
    def test_my_rule(example):
        check_example(MyRule, example)

Examples are analysed with the rule alone (its code need not start with ``ZG``), through
the same pipeline as the command line: ``# noqa`` applies, fixes are applied one at a time
and kept only when they remove their finding, and a text that cannot contain a backward
call (no ``backward`` and no configured backward name) is not analysed at all — so an
example must contain one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from zerograd_guard.lint.options import AnalysisOptions
    from zerograd_guard.lint.rules.base import Rule

EXPECT = re.compile(r"#\s*expect:\s*([A-Z]+[0-9]+(?:\s*,\s*[A-Z]+[0-9]+)*)")


@dataclass(frozen=True)
class Invalid:
    """An example the rule must flag; ``fixed``: the source after its fixes (None: no pin)."""

    code: str
    fixed: str | None = None


@dataclass(frozen=True)
class Example:
    """One example of a rule, as a test parameter."""

    source: str
    valid: bool
    fixed: str | None = None


def source_of(example: str | Invalid) -> str:
    return example.code if isinstance(example, Invalid) else example


def expected(source: str) -> list[tuple[int, str]]:
    """The ``(line, code)`` pairs marked with ``# expect:`` comments, sorted."""
    marks = []
    for number, line in enumerate(source.splitlines(), start=1):
        match = EXPECT.search(line)
        if match:
            marks.extend((number, code.strip()) for code in match.group(1).split(","))
    return sorted(marks)


def examples(rule: type[Rule]) -> list[Example]:
    found = [Example(source, valid=True) for source in rule.VALID]
    for entry in rule.INVALID:
        fixed = entry.fixed if isinstance(entry, Invalid) else None
        found.append(Example(source_of(entry), valid=False, fixed=fixed))
    return found


def example_params(rule: type[Rule]) -> list[object]:
    """``pytest.param`` per example, with readable ids (``ZG101-invalid-0``)."""
    import pytest

    params, counts = [], {True: 0, False: 0}
    for example in examples(rule):
        kind = "valid" if example.valid else "invalid"
        params.append(pytest.param(example, id=f"{rule.code}-{kind}-{counts[example.valid]}"))
        counts[example.valid] += 1
    return params


def lint_example(
    source: str,
    rules: Sequence[type[Rule]],
    options: AnalysisOptions | None = None,
    fix: bool = False,
) -> tuple[list[tuple[int, str]], str]:
    """``(line, code)`` of each reported finding, and the source (fixed when ``fix``)."""
    from zerograd_guard.lint.options import AnalysisOptions
    from zerograd_guard.lint.runner import FileSettings, FileTask, RunSettings, lint_file

    task = FileTask(
        path=Path("example.py"),
        display="example.py",
        settings=FileSettings(options=options or AnalysisOptions(), rules=tuple(rules)),
        run=RunSettings(fix=fix, unsafe_fixes=fix),
        source=source.encode("utf-8"),
    )
    result = lint_file(task)
    if result.error:
        raise AssertionError(f"the example could not be analysed: {result.error}")
    fixed = result.fixed_source.decode("utf-8") if result.fixed_source is not None else source
    return sorted((item.line, item.code) for item in result.reported), fixed


def check_example(
    rule: type[Rule], example: Example, options: AnalysisOptions | None = None
) -> None:
    """Assert what the example says: silent, or exactly the marked findings, and the pinned
    fix."""
    found, _ = lint_example(example.source, [rule], options)
    if example.valid:
        assert found == [], f"{rule.code}: a VALID example is reported: {found}"
        return
    marks = expected(example.source)
    assert marks, f"{rule.code}: an INVALID example without '# expect:' marks"
    assert found == marks, f"{rule.code}: reported {found}, marked {marks}"
    if example.fixed is not None:
        _, fixed = lint_example(example.source, [rule], options, fix=True)
        assert fixed == example.fixed, f"{rule.code}: the fix gives\n{fixed}"
