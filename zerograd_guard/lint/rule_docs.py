"""A rule's documentation as markdown, built from the rule class itself.

Used by ``zerograd-lint --explain`` and for the pages in ``docs/rules/`` (written by
``python -m zerograd_guard.lint.rule_docs docs``; a test checks they are up to
date), so the examples users read are the examples the test suite runs. Each page adds
what the code means at runtime, the settings that affect it, its known limitations and
PyTorch's documentation (:mod:`zerograd_guard.code_notes`).
"""

from __future__ import annotations

import re
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path

from zerograd_guard.code_notes import COMMON_LIMITATIONS, COMMON_SETTINGS, NOTES, PYTORCH_LINKS
from zerograd_guard.codes import help_for
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
    parts.extend(_notes_sections(rule.code))
    return "\n".join(parts)


def _bullets(items: Sequence[str]) -> str:
    return "\n".join(f"* {item}" for item in items) + "\n"


def _notes_sections(code: str) -> list[str]:
    """At runtime, settings, limitations and PyTorch's docs: for built-in codes only."""
    notes = NOTES.get(code)
    if notes is None:
        return []
    hint = help_for(code)
    return [
        "## At runtime\n",
        notes.runtime + "\n",
        "## Settings\n",
        _bullets([*COMMON_SETTINGS, *notes.settings]),
        "## Limitations\n",
        _bullets([*notes.limitations, *COMMON_LIMITATIONS]),
        "## PyTorch documentation\n",
        _bullets(PYTORCH_LINKS),
        *([f"In short: {hint}.\n"] if hint else []),
    ]


def rule_page(code: str) -> str:
    """A rule page's path under ``docs/``."""
    return f"rules/{code.lower()}.md"


def rules_index(rules: Sequence[type[Rule]]) -> str:
    lines = [
        "# Rules\n",
        "Every rule has a stable code; select or ignore them by code or prefix "
        "(`ZG1`, `ALL`). Each page below is generated from the rule's own examples, "
        "the same ones the test suite runs.\n",
        "| code | name | what is wrong | autofix |",
        "|------|------|---------------|---------|",
    ]
    for rule in rules:
        fix = "yes" if rule.fix_description else "no"
        page = rule_page(rule.code).removeprefix("rules/")
        lines.append(f"| [{rule.code}]({page}) | `{rule.name}` | {rule.summary} | {fix} |")
    return "\n".join(lines) + "\n"


def rule_pages() -> dict[str, str]:
    """Every generated page of ``docs/``: its path there, and its text."""
    from zerograd_guard.lint.rules import BUILTIN_RULES

    pages = {"rules/index.md": rules_index(BUILTIN_RULES)}
    for rule in BUILTIN_RULES:
        pages[rule_page(rule.code)] = rule_markdown(rule)
    return pages


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m zerograd_guard.lint.rule_docs DOCS_DIR``: write the rule pages there."""
    args = sys.argv[1:] if argv is None else list(argv)
    if len(args) != 1:
        print("usage: python -m zerograd_guard.lint.rule_docs DOCS_DIR", file=sys.stderr)
        return 2
    docs = Path(args[0])
    for relative, text in rule_pages().items():
        path = docs / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
