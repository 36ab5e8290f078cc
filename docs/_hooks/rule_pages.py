"""mkdocs hook: generate one page per rule from the rule classes, and complete the nav.

The pages are rendered by ``zerograd_guard.lint.rule_docs`` from each rule's own
``explanation``, ``fix_description`` and VALID / INVALID examples: the examples
readers see are the ones the test suite runs, so docs and tests cannot drift.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

from zerograd_guard.lint.rule_docs import rule_markdown
from zerograd_guard.lint.rules import BUILTIN_RULES


def rule_page(code: str) -> str:
    return f"rules/{code.lower()}.md"


def rules_index() -> str:
    lines = [
        "# Rules\n",
        "Every rule has a stable code; select or ignore them by code or prefix "
        "(`ZG1`, `ALL`). Each page below is generated from the rule's own examples, "
        "the same ones the test suite runs.\n",
        "| code | name | what is wrong | autofix |",
        "|------|------|---------------|---------|",
    ]
    for rule in BUILTIN_RULES:
        fix = "yes" if rule.fix_description else "no"
        page = rule_page(rule.code).removeprefix("rules/")
        lines.append(f"| [{rule.code}]({page}) | `{rule.name}` | {rule.summary} | {fix} |")
    return "\n".join(lines) + "\n"


def _extra_pages(docs_dir: Path) -> tuple[list[str], list[str]]:
    """Pages written elsewhere in the project, added to the nav only when present."""
    analysis = ["analysis.md"] if (docs_dir / "analysis.md").is_file() else []
    runtime = sorted(p.name for p in docs_dir.glob("runtime*.md"))
    return analysis, runtime


def on_config(config: Any) -> Any:
    nav = config["nav"]
    if nav is None:
        return config
    rules = ["rules/index.md", *(rule_page(rule.code) for rule in BUILTIN_RULES)]
    analysis, runtime = _extra_pages(Path(config["docs_dir"]))
    completed = []
    for entry in nav:
        if isinstance(entry, dict) and entry.get("Rules") == "rules/index.md":
            completed.append({"Rules": rules})
            if analysis:
                completed.append({"How the analysis works": analysis[0]})
        else:
            completed.append(entry)
    if runtime:
        completed.append({"Runtime guard": runtime if len(runtime) > 1 else runtime[0]})
    config["nav"] = completed
    return config


def on_files(files: Files, config: Any) -> Files:
    files.append(File.generated(config, "rules/index.md", content=rules_index()))
    for rule in BUILTIN_RULES:
        files.append(File.generated(config, rule_page(rule.code), content=rule_markdown(rule)))
    return files
