"""A rule's documentation as markdown, built from the rule class itself.

Used by ``zerograd-lint --explain`` and by the docs build (``docs/hooks``), so
the examples users read are the examples the test suite runs.
"""

from __future__ import annotations

import re
import textwrap

from zerograd_guard.lint.rules.base import Rule
from zerograd_guard.lint.testing import source_of

_EXPECT = re.compile(
    r"[ \t]*# expect: (?P<codes>[A-Z]+[0-9]+(?:[ ,]+[A-Z]+[0-9]+)*)[ \t]*$", re.MULTILINE
)


def clean_example(code: str, mark_findings: bool = False) -> str:
    """An example without its test markers (``# expect: ZG101``), dedented and trimmed.

    With ``mark_findings`` the markers become ``# <- ZG101`` so readers see where
    the finding is reported.
    """
    replacement = (lambda m: f"  # <- {m.group('codes')}") if mark_findings else ""
    return textwrap.dedent(_EXPECT.sub(replacement, code)).strip("\n") + "\n"


def expected_lines(code: str) -> list[int]:
    """1-based lines of an INVALID example that carry a ``# expect:`` marker."""
    return [n for n, line in enumerate(code.splitlines(), 1) if _EXPECT.search(line)]


def rule_markdown(rule: type[Rule]) -> str:
    parts = [
        f"# {rule.code}: {rule.name}\n",
        f"**{rule.summary}**\n",
        f"Default level: `{rule.level}`.\n",
        rule.explanation.strip() + "\n",
    ]
    if rule.fix_description:
        parts.append("## Fix\n")
        parts.append(rule.fix_description.strip() + "\n")
    else:
        parts.append("## Fix\n")
        parts.append("No automatic fix: the finding says what to change.\n")
    sections = (("Flagged", rule.INVALID, True), ("Not flagged", rule.VALID, False))
    for title, examples, mark in sections:
        if not examples:
            continue
        parts.append(f"## {title}\n")
        for number, example in enumerate(examples, start=1):
            if len(examples) > 1:
                parts.append(f"### {title} example {number}\n")
            code = clean_example(source_of(example), mark_findings=mark)
            parts.append(f"```python\n{code}```\n")
    parts.append(
        f"Suppress one finding with `# noqa: {rule.code}` on the reported line, or switch the "
        f'rule off with `ignore = ["{rule.code}"]` in `[tool.zerograd-guard]`.\n'
    )
    return "\n".join(parts)
