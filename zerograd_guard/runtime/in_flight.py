"""Optimizer steps running on this thread, to tell a nested step from a new one.

SAM's ``step(closure)`` ends in ``base_optimizer.step()``; Lookahead's step calls its
inner optimizer's; a Hugging Face-style ``step`` runs the closure then
``super().step()``, which fires the step hooks a second time once the base class's
step was patched (torch patches a class when its first instance is built). Those inner
steps are part of the outer step: the outer one is judged and counted, once.

A step is known by the frame of torch's step wrapper that called the hook. A step whose
body raised never reaches its post hook; its entry is recognised as stale (its frame is
no longer on the stack) and dropped at the next nested-looking call.
"""

from __future__ import annotations

import threading
from types import FrameType

MAX_DEPTH = 64  # frames walked looking for an outer step (only when one is in flight)


class StepsInFlight:
    def __init__(self) -> None:
        self.local = threading.local()

    def stack(self) -> list[tuple[int, object]]:
        """This thread's steps in flight, outermost first, as ``(id(frame), code)``; the
        monitor reads and appends to it directly on the usual path."""
        try:
            return self.local.stack  # type: ignore[no-any-return]
        except AttributeError:
            stack: list[tuple[int, object]] = []
            self.local.stack = stack
            return stack

    def nested(self, wrapper: FrameType) -> bool:
        """Whether the step whose wrapper frame is ``wrapper`` runs inside another step."""
        stack = getattr(self.local, "stack", None)
        if not stack:  # nothing in flight on this thread: the usual case, one read
            return False
        outer = _enclosing_frames(wrapper)
        stack[:] = [entry for entry in stack if entry in outer]
        return bool(stack)

    def enter(self, wrapper: FrameType) -> None:
        self.stack().append((id(wrapper), wrapper.f_code))

    def leave(self, wrapper: FrameType) -> bool:
        """End the step of ``wrapper``; False if it was not entered (a nested step)."""
        stack = getattr(self.local, "stack", None)
        if stack:
            top_id, top_code = stack[-1]
            if top_id == id(wrapper) and top_code is wrapper.f_code:
                stack.pop()
                return True
        return not self.nested(wrapper)

    def clear(self) -> None:
        self.local = threading.local()


def _enclosing_frames(frame: FrameType) -> set[tuple[int, object]]:
    found: set[tuple[int, object]] = set()
    current = frame.f_back
    for _ in range(MAX_DEPTH):
        if current is None:
            break
        found.add((id(current), current.f_code))
        current = current.f_back
    return found
