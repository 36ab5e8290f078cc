"""Tables that look like ours but are not read: ``[tool.zerograd-lint]``,
``[tool.zerograd_guard]``, ... A user who writes one believes they configured the
linter; say so instead of silently using the defaults."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

TABLE = "zerograd-guard"
_LOOKALIKE = re.compile(r"^zero[-_]?grad([-_](guard|lint|linter))?$", re.IGNORECASE)


def misnamed_tables(tool: Mapping[str, Any], path: Path) -> list[str]:
    """One warning line per ``[tool.X]`` table of ``path`` that is a misspelling of ours."""
    return [
        f"{path}: warning: [tool.{name}] is not read; the table is [tool.{TABLE}]"
        for name in sorted(tool)
        if name != TABLE and _LOOKALIKE.match(name)
    ]
