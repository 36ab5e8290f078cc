"""Whether the script's last write to stdout/stderr left the cursor mid-line.

A progress bar redraws one line with ``\\r`` and no newline; a report written after it
would start at the end of the bar. While the script runs, ``sys.stdout`` and
``sys.stderr`` are wrapped by a pass-through that only remembers the last character
written (every other attribute is the stream's own).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TextIO


class _Tail:
    """The last character written through either wrapped stream."""

    def __init__(self) -> None:
        self.last = "\n"


class _TrackedStream:
    def __init__(self, stream: TextIO, tail: _Tail) -> None:
        self._zerograd_stream = stream
        self._zerograd_tail = tail

    def write(self, text: str) -> int:
        written = self._zerograd_stream.write(text)
        if text:
            self._zerograd_tail.last = text[-1]
        return written

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._zerograd_stream, name)

    def __iter__(self) -> Iterator[str]:
        return iter(self._zerograd_stream)


class TerminalTail:
    """``mid_line``: the last write through stdout or stderr did not end a line."""

    def __init__(self) -> None:
        self._tail = _Tail()

    @property
    def mid_line(self) -> bool:
        return self._tail.last not in ("\n", "")

    @contextmanager
    def tracking(self) -> Iterator[TerminalTail]:
        saved = sys.stdout, sys.stderr
        wrapped = [
            _TrackedStream(stream, self._tail) if stream is not None else None for stream in saved
        ]
        sys.stdout, sys.stderr = wrapped  # type: ignore[assignment]
        try:
            yield self
        finally:
            # Put back what was there, unless the script replaced a stream itself.
            if sys.stdout is wrapped[0]:
                sys.stdout = saved[0]
            if sys.stderr is wrapped[1]:
                sys.stderr = saved[1]
