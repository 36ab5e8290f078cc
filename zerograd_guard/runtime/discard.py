"""``discard()``: drop the gradients of a bad batch on purpose.

``if not torch.isfinite(norm): opt.zero_grad(); continue`` discards backward passes
with no step in between, exactly like a ``zero_grad`` inside an accumulation window
(the ZG103 warning). Clearing through ``discard(opt)`` says it is deliberate: the guard
counts those passes neither as discarded nor toward an ``accumulate(k)`` contract.
Without an active guard it is a plain ``zero_grad``.
"""

from __future__ import annotations

from typing import Protocol

from zerograd_guard.runtime.monitor import MONITOR


class Clearable(Protocol):
    def zero_grad(self, set_to_none: bool = ...) -> None: ...


def discard(target: Clearable, set_to_none: bool = True) -> None:
    """Clear ``target``'s gradients (an optimizer or a module), dropping them on purpose."""
    with MONITOR.deliberate_clears():
        target.zero_grad(set_to_none=set_to_none)
