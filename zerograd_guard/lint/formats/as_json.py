"""``--format json``: an array of findings, sorted like the text output.

Each finding carries its rule's ``name`` and docs ``url``, and ``help`` (ruff's
``message`` / ``help`` split): the finding's own hint, else its fix's description, else
its code's generic hint (:mod:`zerograd_guard.lint.formats.help`); null only for a
plugin's finding that has none of them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from zerograd_guard.codes import docs_url
from zerograd_guard.lint.formats.help import help_text
from zerograd_guard.lint.formats.paths import lossless_text
from zerograd_guard.lint.runner import Reported


def finding_object(item: Reported, names: Mapping[str, str] | None = None) -> dict[str, Any]:
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
        "name": (names or {}).get(item.code),
        "url": docs_url(item.code),
        "help": help_text(item),
        "cell": item.cell,
        "fix": fix,
    }


def render(items: Sequence[Reported], names: Mapping[str, str] | None = None) -> str:
    return json.dumps([finding_object(item, names) for item in items], indent=2) + "\n"
