"""What ``zerograd-lint rules``, ``--show-files`` and ``--show-settings`` print."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from zerograd_guard.codes import docs_url
from zerograd_guard.lint.config import Config

if TYPE_CHECKING:
    from zerograd_guard.lint.rules.base import Rule


def rule_rows(rules: Sequence[type[Rule]]) -> list[dict[str, Any]]:
    return [
        {
            "code": rule.code,
            "name": rule.name,
            "fixable": rule.fix_description is not None,
            "level": rule.level,
            "summary": rule.summary,
            "url": docs_url(rule.code),
        }
        for rule in sorted(rules, key=lambda rule: rule.code)
    ]


def render_rules(rules: Sequence[type[Rule]], as_json: bool) -> str:
    """Every known rule: code, name, fixable, summary (a table, or JSON)."""
    rows = rule_rows(rules)
    if as_json:
        return json.dumps(rows, indent=2) + "\n"
    width = max((len(row["name"]) for row in rows), default=4)
    lines = [f"{'code':<7} {'name':<{width}} fix  summary"]
    for row in rows:
        fix = "yes" if row["fixable"] else "-  "
        lines.append(f"{row['code']:<7} {row['name']:<{width}} {fix}  {row['summary']}")
    return "\n".join(lines) + "\n"


def render_files(files: Sequence[Path], display: Any) -> str:
    return "".join(f"{display(path)}\n" for path in sorted(files, key=display))


def render_settings(
    path: Path,
    config: Config,
    selected: Sequence[str],
    disabled: Sequence[str],
    cache_dir: Path | None,
) -> str:
    """The settings that govern ``path``: which configuration, and what it resolves to."""
    options = config.options
    lines = [
        f"file: {path}",
        f"configuration: {config.source or 'defaults (no [tool.zerograd-guard] table found)'}",
        f"root: {config.root}",
        f"selected rules: {', '.join(selected) or '(none)'}",
        f"per-file-ignores for this file: {', '.join(sorted(disabled)) or '(none)'}",
        f"exclude: {list(config.exclude)}",
        f"per-file-ignores: {dict((p, list(c)) for p, c in config.per_file_ignores)}",
        f"extend-backward-calls: {sorted(options.extra_backward_calls)}",
        f"extend-clear-calls: {sorted(options.extra_clear_calls)}",
        f"extend-step-calls: {sorted(options.extra_step_calls)}",
        f"managed-engines: {sorted(options.managed_engines)}",
        f"cache: {cache_dir if cache_dir is not None else 'off'}",
    ]
    return "\n".join(lines) + "\n"
