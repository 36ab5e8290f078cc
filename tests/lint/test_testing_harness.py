"""``zerograd_guard.lint.testing``: the example harness shipped for plugin authors."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from zerograd_guard.lint.findings import Edit, Finding, Fix
from zerograd_guard.lint.rules.base import Rule
from zerograd_guard.lint.testing import (
    Example,
    Invalid,
    check_example,
    example_params,
    expected,
)


class NoPrint(Rule):
    """A plugin-style rule: reports ``print(`` lines, fix: comment them out."""

    code = "XP001"
    name = "toy-print"
    summary = "A toy plugin rule."
    explanation = "Reports prints."
    VALID = ("x = 1\nloss.backward()\n",)
    INVALID = (
        Invalid(
            "loss.backward()\nprint(x)  # expect: XP001\n",
            fixed="loss.backward()\n# print(x)  # expect: XP001\n",
        ),
        "print(1)  # expect: XP001\nloss.backward()\n",
    )

    def check(self, model: object) -> Iterable[Finding]:
        source: str = getattr(model, "source", "")
        offset = 0
        for number, line in enumerate(source.splitlines(keepends=True), start=1):
            if line.startswith("print("):
                fix = Fix("comment out", (Edit(offset, offset, "# "),))
                yield Finding(self.code, "prints", number, 1, number, 6, fix)
            offset += len(line)


def test_expect_grammar_takes_any_letters_then_digits():
    assert expected("a  # expect: XP001, ZG101\nb\nc  #expect:ABC12\n") == [
        (1, "XP001"),
        (1, "ZG101"),
        (3, "ABC12"),
    ]


@pytest.mark.parametrize("example", example_params(NoPrint))
def test_a_plugin_rule_passes_its_own_examples(example):
    check_example(NoPrint, example)


def test_param_ids_name_the_rule_and_kind():
    assert [param.id for param in example_params(NoPrint)] == [
        "XP001-valid-0",
        "XP001-invalid-0",
        "XP001-invalid-1",
    ]


@pytest.mark.parametrize(
    ("example", "complaint"),
    [
        (Example("print(1)\nloss.backward()\n", valid=True), "a VALID example is reported"),
        (Example("loss.backward()  # expect: XP001\n", valid=False), "reported \\[\\]"),
        (Example("print(1)\nloss.backward()\n", valid=False), "without '# expect:' marks"),
        (
            Example("print(1)  # expect: XP001\nloss.backward()\n", valid=False, fixed="x"),
            "the fix gives",
        ),
    ],
    ids=["valid-reported", "mark-missed", "no-marks", "wrong-fix"],
)
def test_the_harness_fails_what_is_wrong(example, complaint):
    with pytest.raises(AssertionError, match=complaint):
        check_example(NoPrint, example)
