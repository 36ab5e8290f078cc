"""``--statistics``: one entry per code with its count, most frequent first.

Text: ``count<TAB>code<TAB>[*] name`` lines; JSON (``--format json``): an array of
``{"code", "name", "count", "fixable"}`` objects, as ruff prints them.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from zerograd_guard.lint.runner import Reported


def counts(items: Sequence[Reported], names: Mapping[str, str]) -> list[dict[str, Any]]:
    """Per code: its name, how many findings, and whether any has a safe fix."""
    by_code = Counter(item.code for item in items)
    fixable = Counter(item.code for item in items if item.fix is not None and item.fix.safe)
    return [
        {"code": code, "name": names.get(code, ""), "count": count, "fixable": fixable[code] > 0}
        for code, count in sorted(by_code.items(), key=lambda pair: (-pair[1], pair[0]))
    ]


def render(items: Sequence[Reported], names: Mapping[str, str]) -> str:
    lines = []
    for entry in counts(items, names):
        mark = "[*]" if entry["fixable"] else "[ ]"
        lines.append(
            f"{entry['count']:>5}\t{entry['code']}\t{mark} {entry['name']}".rstrip() + "\n"
        )
    return "".join(lines)


def render_json(items: Sequence[Reported], names: Mapping[str, str]) -> str:
    return json.dumps(counts(items, names), indent=2) + "\n"
