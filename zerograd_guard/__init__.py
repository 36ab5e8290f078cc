"""zerograd-guard: catch training loops whose gradients are not cleared.

Two halves share this package:

* ``zerograd_guard.lint`` — the static analyzer behind ``zerograd-lint``. It
  never imports torch.
* ``zerograd_guard.runtime`` — the runtime guard (``guard()``, ``accumulate()``)
  used by ``pytest --zerograd-guard``. It needs torch.

Importing this package imports neither half: the runtime names below are
resolved lazily so that the linter and the pytest plugin stay torch-free until
the guard is actually used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from zerograd_guard._version import __version__

if TYPE_CHECKING:  # what type checkers and editors see; at run time: __getattr__ below
    from zerograd_guard.runtime import (
        GradientGuardError,
        GradientGuardWarning,
        GuardReport,
        accumulate,
        discard,
        guard,
    )

_RUNTIME_EXPORTS = (
    "guard",
    "accumulate",
    "discard",
    "GradientGuardError",
    "GradientGuardWarning",
    "GuardReport",
)

__all__ = [
    "GradientGuardError",
    "GradientGuardWarning",
    "GuardReport",
    "__version__",
    "accumulate",
    "discard",
    "guard",
]


def __getattr__(name: str) -> Any:
    if name in _RUNTIME_EXPORTS:
        from zerograd_guard import runtime

        return getattr(runtime, name)
    raise AttributeError(f"module 'zerograd_guard' has no attribute {name!r}")


def __dir__() -> list[str]:
    """Tab completion lists the public names without importing the runtime (and torch)."""
    return sorted({*globals(), *__all__})
