"""Every rule's VALID examples are silent and its INVALID examples give exactly the marked
findings (Fixit style: the examples are also the docs)."""

from __future__ import annotations

import pytest
from zg_expectations import actual, expected

from zerograd_guard.lint.rules import BUILTIN_RULES, rule_by_code
from zerograd_guard.lint.testing import Example, check_example, example_params, source_of

VALID = [
    pytest.param(example, id=f"{rule.code}-valid-{index}")
    for rule in BUILTIN_RULES
    for index, example in enumerate(rule.VALID)
]
INVALID = [
    pytest.param(rule.code, source_of(example), id=f"{rule.code}-invalid-{index}")
    for rule in BUILTIN_RULES
    for index, example in enumerate(rule.INVALID)
]


@pytest.mark.parametrize("example", VALID)
def test_valid_example_is_silent(example: str) -> None:
    assert actual(example) == []


@pytest.mark.parametrize(("code", "example"), INVALID)
def test_invalid_example_gives_marked_findings(code: str, example: str) -> None:
    marks = expected(example)
    assert marks and all(mark_code == code for _, mark_code in marks)
    assert actual(example) == marks


# The same examples through the shipped harness (each rule alone, the CLI's pipeline,
# pinned fixes checked).
@pytest.mark.parametrize(
    ("rule", "example"),
    [
        pytest.param(rule, param.values[0], id=param.id)
        for rule in BUILTIN_RULES
        for param in example_params(rule)
    ],
)
def test_examples_through_the_harness(rule, example: Example) -> None:
    check_example(rule, example)


def test_some_builtin_examples_pin_their_fix() -> None:
    pinned = [e for rule in BUILTIN_RULES for e in rule.INVALID if getattr(e, "fixed", None)]
    assert len(pinned) >= 2


@pytest.mark.parametrize("rule", BUILTIN_RULES, ids=lambda rule: rule.code)
def test_rule_is_documented(rule) -> None:
    assert rule.code.startswith("ZG") and rule.name and rule.summary
    assert "**Fix**" in rule.explanation
    assert rule.VALID and rule.INVALID
    assert rule_by_code(rule.code.lower()) is rule


def test_unknown_code_has_no_rule() -> None:
    assert rule_by_code("ZG999") is None
