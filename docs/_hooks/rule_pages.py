"""mkdocs hook: add the rule pages and the runtime pages to the navigation.

The rule pages (``docs/rules/*.md``) are generated from the rule classes and
``zerograd_guard/code_notes.py`` by ``python -m zerograd_guard.lint.rule_docs docs``
and committed; ``tests/test_docs_snippets.py`` fails when they are out of date, so the
examples readers see are the ones the test suite runs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from zerograd_guard.lint.rule_docs import rule_page
from zerograd_guard.lint.rules import BUILTIN_RULES


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
