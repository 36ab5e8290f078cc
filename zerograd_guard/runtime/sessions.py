"""Which guard sessions apply to the calling thread.

Each thread that enters a guard has its own stack of sessions: two threads with their
own guards do not share one (a warn-mode guard in one thread never makes another
thread's violation raise, and reports do not mix). A thread that entered no guard of
its own (training started in a worker thread, a guarded ``zerograd-guard run`` script
that trains in a thread) is guarded by the main thread's sessions, or, when the main
thread has none, by the only thread that has any. Otherwise it is not judged: unknown
is silent.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from zerograd_guard.runtime.guard import Guard

_NONE: list[Guard] = []  # shared, never appended to


class SessionStacks:
    def __init__(self) -> None:
        self._by_thread: dict[int, list[Guard]] = {}
        self._main = threading.main_thread().ident

    @property
    def by_thread(self) -> dict[int, list[Guard]]:
        """Each thread's own sessions (read only; the dictionary is never replaced)."""
        return self._by_thread

    def __bool__(self) -> bool:
        """Some session is active in some thread."""
        return bool(self._by_thread)

    def current(self) -> list[Guard]:
        """The calling thread's sessions, innermost last (do not modify)."""
        by_thread = self._by_thread
        own = by_thread.get(threading.get_ident())
        if own is not None:
            return own
        if not by_thread:
            return _NONE
        inherited = by_thread.get(self._main)
        if inherited is not None:
            return inherited
        if len(by_thread) == 1:
            for only in by_thread.values():
                return only
        return _NONE

    def all(self) -> list[Guard]:
        return [session for stack in list(self._by_thread.values()) for session in stack]

    def push(self, session: Guard) -> None:
        """(Under the monitor's lock.)"""
        self._by_thread.setdefault(threading.get_ident(), []).append(session)

    def pop(self, session: Guard) -> None:
        """Remove ``session``, normally from the calling thread's stack (under the lock)."""
        ident = threading.get_ident()
        order = [ident, *(key for key in self._by_thread if key != ident)]
        for key in order:
            stack = self._by_thread.get(key)
            if stack is None:
                continue
            for index in range(len(stack) - 1, -1, -1):
                if stack[index] is session:
                    del stack[index]
                    if not stack:
                        del self._by_thread[key]
                    return
