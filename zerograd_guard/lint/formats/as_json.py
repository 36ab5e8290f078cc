"""``--format json``: an array of findings, sorted like the text output."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from zerograd_guard.lint.formats.paths import lossless_text
from zerograd_guard.lint.runner import Reported


def finding_object(item: Reported) -> dict[str, Any]:
    fix = None
    if item.fix is not None:
        fix = {
            "description": item.fix.description,
            "safe": item.fix.safe,
            "edits": [
                {
                    "line": edit.line,
                    "column": edit.column,
                    "end_line": edit.end_line,
                    "end_column": edit.end_column,
                    "content": edit.content,
                    "cell": edit.cell,
                }
                for edit in item.fix_edits
            ],
        }
    return {
        "path": lossless_text(item.path),
        "line": item.line,
        "column": item.column,
        "end_line": item.end_line,
        "end_column": item.end_column,
        "code": item.code,
        "message": item.message,
        "cell": item.cell,
        "fix": fix,
    }


def render(items: Sequence[Reported]) -> str:
    return json.dumps([finding_object(item) for item in items], indent=2) + "\n"
