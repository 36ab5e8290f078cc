"""Every rule code's name, summary, fix hint and documentation URL, in one place.

The linter's rules, the runtime guard's messages, the SARIF and JSON outputs and
the docs pages read this module. It imports nothing (no torch, no libcst), so any
half of the package can use it.
"""

from __future__ import annotations

from dataclasses import dataclass

DOCS_ROOT = "https://zerograd-guard.readthedocs.io/en/latest"


@dataclass(frozen=True)
class Code:
    """One rule code as users see it everywhere."""

    code: str  # "ZG101"
    name: str  # kebab-case, stable: "gradients-not-cleared"
    summary: str  # one line
    help: str  # the fix hint apart from the message (ruff's ``help:``), one sentence

    @property
    def url(self) -> str:
        # Rule pages are generated lowercase (docs/_hooks/rule_pages.py).
        return docs_url(self.code)


CODES: dict[str, Code] = {
    entry.code: entry
    for entry in (
        Code(
            "ZG101",
            "gradients-not-cleared",
            "Gradients are not cleared between optimizer steps",
            "Clear once per step: call `optimizer.zero_grad()` before `backward()`, or right "
            "after `optimizer.step()`",
        ),
        Code(
            "ZG102",
            "step-without-fresh-gradients",
            "The optimizer step sees no fresh gradients",
            "Move the clear out of the gap between `backward()` and `step()`: right after the "
            "step, or before `backward()`",
        ),
        Code(
            "ZG103",
            "clear-breaks-accumulation",
            "Clearing on every micro-batch breaks gradient accumulation",
            "Clear once per accumulation window: call `zero_grad()` right after the step that "
            "ends it, under the same condition",
        ),
        Code(
            "ZG104",
            "gradients-leak-across-models",
            "Another model's backward leaks gradients into this optimizer's step",
            "Clear the other optimizer right before its own backward, or freeze that model "
            "(`requires_grad_(False)`) or detach its input during this backward",
        ),
    )
}


def help_for(code: str) -> str | None:
    """The fix hint of a built-in code; None for a plugin's code."""
    entry = CODES.get(code)
    return entry.help if entry is not None else None


def docs_url(code: str) -> str:
    """The documentation page of a rule code (also of a plugin's code: its page may not exist)."""
    return f"{DOCS_ROOT}/rules/{code.lower()}/"
