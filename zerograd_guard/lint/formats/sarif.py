"""``--format sarif``: SARIF 2.1.0 as GitHub code scanning accepts it.

Paths are relative to ``%SRCROOT%``: the enclosing git work tree (GitHub code
scanning resolves ``uri`` against the repository root, whatever the workflow's
``working-directory``), else the nearest folder with a ``pyproject.toml``, else
the working directory; files outside it get absolute ``file://`` URIs.
``partialFingerprints`` hash the file's URI, the code, the text of the reported
line and its occurrence number, not the line number, so alerts survive edits
above them.

Notebooks: code scanning shows the notebook's file text, so the region is the line
(and columns) of the JSON string that holds the reported cell line; the message
starts with "cell C, line L, column K" and ``properties`` carry ``cell``,
``cellLine`` and ``cellColumn``.

A result's ``message.text`` says what is wrong; its fix hint (ruff's ``help:``,
:mod:`zerograd_guard.lint.formats.help`) is the result's ``properties.help`` (SARIF
2.1.0 gives every object a property bag; the rule's ``help`` stays the generic advice).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from zerograd_guard._version import __version__
from zerograd_guard.codes import docs_url, help_for
from zerograd_guard.lint.formats.help import help_text
from zerograd_guard.lint.formats.paths import uri_path
from zerograd_guard.lint.rules.base import Rule
from zerograd_guard.lint.runner import Reported

SCHEMA_URI = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
INFORMATION_URI = "https://zerograd-guard.readthedocs.io"
FINGERPRINT_NAME = "zerogradLintHash/v1"


def help_uri(code: str) -> str:
    return docs_url(code)


def _rule_descriptor(rule: type[Rule]) -> dict[str, Any]:
    hint = help_for(rule.code)  # the fix hint first: viewers show the help's opening
    parts = [hint, rule.summary, rule.explanation.strip()]
    text = "\n\n".join(part for part in parts if part)
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": rule.explanation.strip() or rule.summary},
        "help": {"text": text, "markdown": text},
        "helpUri": help_uri(rule.code),
        "defaultConfiguration": {"level": rule.level},
        "properties": {"tags": ["correctness", "pytorch"], "precision": "high"},
    }


def source_root(start: Path) -> Path:
    """The folder ``%SRCROOT%`` stands for, looked for from ``start`` upwards."""
    start = Path(os.path.abspath(start))
    for marker in (".git", "pyproject.toml"):
        for folder in (start, *start.parents):
            if (folder / marker).exists():
                return folder
    return start


def _artifact(path: str, root: Path) -> dict[str, Any]:
    absolute = Path(os.path.abspath(path))
    try:
        relative = absolute.relative_to(root).as_posix()
    except ValueError:
        return {"uri": absolute.as_uri()}
    return {"uri": uri_path(relative), "uriBaseId": "%SRCROOT%"}


def _fixes(item: Reported, artifact: dict[str, Any]) -> list[dict[str, Any]]:
    """SARIF ``fixes`` for a finding's fix; none for notebooks, whose edits address cells
    (a SARIF region addresses the notebook's JSON text)."""
    if item.fix is None or item.cell is not None or not item.fix_edits:
        return []
    replacements = [
        {
            "deletedRegion": {
                "startLine": edit.line,
                "startColumn": edit.column,
                "endLine": edit.end_line,
                "endColumn": edit.end_column,
            },
            "insertedContent": {"text": edit.content},
        }
        for edit in item.fix_edits
    ]
    description = item.fix.description + ("" if item.fix.safe else " (unsafe)")
    return [
        {
            "description": {"text": description},
            "artifactChanges": [{"artifactLocation": artifact, "replacements": replacements}],
        }
    ]


def _fingerprint(item: Reported, uri: str, occurrence: int) -> str:
    material = "\0".join([uri, item.code, item.source_line, str(occurrence)])
    return hashlib.sha256(material.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def render(
    items: Sequence[Reported],
    rules: Sequence[type[Rule]],
    errors: Sequence[tuple[str, str]],
    root: Path,
) -> str:
    ordered_rules = sorted(rules, key=lambda rule: rule.code)
    index = {rule.code: position for position, rule in enumerate(ordered_rules)}
    levels = {rule.code: rule.level for rule in ordered_rules}
    seen: dict[tuple[str, str, str], int] = {}
    results = []
    for item in items:
        key = (item.path, item.code, item.source_line)
        seen[key] = seen.get(key, 0) + 1
        line, column, end_line, end_column = item.file_region or (
            item.line,
            item.column,
            item.end_line,
            item.end_column,
        )
        region = {
            "startLine": line,
            "startColumn": column,
            "endLine": end_line,
            "endColumn": end_column,
        }
        artifact = _artifact(item.path, root)
        text = item.message
        if item.cell is not None:
            text = f"cell {item.cell}, line {item.line}, column {item.column}: {item.message}"
        result: dict[str, Any] = {
            "ruleId": item.code,
            "level": levels.get(item.code, "error"),
            "message": {"text": text},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": artifact,
                        "region": region,
                    }
                }
            ],
            "partialFingerprints": {
                FINGERPRINT_NAME: _fingerprint(item, artifact["uri"], seen[key])
            },
        }
        if item.code in index:
            result["ruleIndex"] = index[item.code]
        fixes = _fixes(item, artifact)
        if fixes:
            result["fixes"] = fixes
        properties: dict[str, Any] = {}
        hint = help_text(item)
        if hint:
            properties["help"] = hint
        if item.cell is not None:
            properties.update(cell=item.cell, cellLine=item.line, cellColumn=item.column)
        if properties:
            result["properties"] = properties
        results.append(result)
    notifications = [
        {
            "level": "error",
            "message": {"text": message},
            "locations": [{"physicalLocation": {"artifactLocation": _artifact(path, root)}}],
        }
        for path, message in errors
    ]
    log = {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "zerograd-lint",
                        "version": __version__,
                        "semanticVersion": __version__,
                        "informationUri": INFORMATION_URI,
                        "rules": [_rule_descriptor(rule) for rule in ordered_rules],
                    }
                },
                "originalUriBaseIds": {"%SRCROOT%": {"uri": root.as_uri() + "/"}},
                "invocations": [
                    {
                        "executionSuccessful": not errors,
                        "toolExecutionNotifications": notifications,
                    }
                ],
                "results": results,
            }
        ],
    }
    return json.dumps(log, indent=2) + "\n"
