"""A finding's fix hint, apart from its message (ruff's ``help:``).

The one place that decides it, for every format: the finding's own hint (the rule's
advice for this finding, ``Finding.hint``); else its fix's description (what
``--fix`` would do); else its code's generic hint from the registry
(:mod:`zerograd_guard.codes`). None only for a plugin's finding with none of them.
"""

from __future__ import annotations

from zerograd_guard.codes import help_for
from zerograd_guard.lint.runner import Reported


def help_text(item: Reported) -> str | None:
    if item.hint:
        return item.hint
    if item.fix is not None:
        return item.fix.description
    return help_for(item.code)
