"""A finding's fix hint, apart from its message (ruff's ``help:``).

The hint of a fixable finding is its fix's description (what ``--fix`` would do);
otherwise its rule's hint from the code registry (:mod:`zerograd_guard.codes`). A
plugin's code without a fix has none.
"""

from __future__ import annotations

from zerograd_guard.codes import help_for
from zerograd_guard.lint.runner import Reported


def help_text(item: Reported) -> str | None:
    if item.fix is not None:
        return item.fix.description
    return help_for(item.code)
