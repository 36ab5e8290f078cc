"""Whether the script's writes to stdout/stderr left a progress bar's line open.

A progress bar redraws one line with ``\\r`` and no newline; a report written after it
would start at the end of the bar. While the script runs, ``sys.stdout`` and
``sys.stderr`` are wrapped by a pass-through that only remembers whether a ``\\r`` was
written since the last ``\\n`` (every other attribute is the stream's own). Other text
left without a newline (``print(..., end="")``) is not a bar and gets no blank line.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TextIO


class _Tail:
    """Whether a ``\\r`` was written through either wrapped stream since the last ``\\n``."""

    def __init__(self) -> None:
        self.bar_open = False

    def saw(self, text: str) -> None:
        newline = text.rfind("\n")
        if newline >= 0:
            self.bar_open = "\r" in text[newline + 1 :]
        elif "\r" in text:
            self.bar_open = True


class _TrackedStream:
    def __init__(self, stream: TextIO, tail: _Tail) -> None:
        self._zerograd_stream = stream
        self._zerograd_tail = tail

    def write(self, text: str) -> int:
        # Remember before writing: once the text is out (an unbuffered pipe), a reader may
        # answer with Ctrl-C at once, and a KeyboardInterrupt between the write and the
        # bookkeeping would leave a stale "mid-line" behind (a blank line before the report).
        if isinstance(text, str):
            self._zerograd_tail.saw(text)
        return self._zerograd_stream.write(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._zerograd_stream, name)

    def __iter__(self) -> Iterator[str]:
        return iter(self._zerograd_stream)


class TerminalTail:
    """``mid_line``: a progress bar's line (``\\r`` since the last ``\\n``) is still open."""

    def __init__(self) -> None:
        self._tail = _Tail()

    @property
    def mid_line(self) -> bool:
        return self._tail.bar_open

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
