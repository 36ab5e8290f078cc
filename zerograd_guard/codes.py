"""Every rule code's name, summary and documentation URL, in one place.

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

    @property
    def url(self) -> str:
        # Rule pages are generated lowercase (docs/_hooks/rule_pages.py).
        return docs_url(self.code)


CODES: dict[str, Code] = {
    entry.code: entry
    for entry in (
        Code("ZG101", "gradients-not-cleared", "Gradients are not cleared between optimizer steps"),
        Code("ZG102", "step-without-fresh-gradients", "The optimizer step sees no fresh gradients"),
        Code(
            "ZG103",
            "clear-breaks-accumulation",
            "Clearing on every micro-batch breaks gradient accumulation",
        ),
        Code(
            "ZG104",
            "gradients-leak-across-models",
            "Another model's backward leaks gradients into this optimizer's step",
        ),
    )
}


def docs_url(code: str) -> str:
    """The documentation page of a rule code (also of a plugin's code: its page may not exist)."""
    return f"{DOCS_ROOT}/rules/{code.lower()}/"
