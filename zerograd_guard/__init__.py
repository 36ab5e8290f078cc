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

from typing import Any

from zerograd_guard._version import __version__

_RUNTIME_EXPORTS = ("guard", "accumulate", "discard", "GradientGuardError", "GuardReport")

__all__ = ["__version__", *_RUNTIME_EXPORTS]


def __getattr__(name: str) -> Any:
    if name in _RUNTIME_EXPORTS:
        from zerograd_guard import runtime

        return getattr(runtime, name)
    raise AttributeError(f"module 'zerograd_guard' has no attribute {name!r}")
