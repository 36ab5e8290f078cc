"""File names as every output format can carry them.

A file name is bytes on POSIX; Python decodes the undecodable ones with lone
surrogates (``caf\\udce9.py``), which no UTF-8 output can hold (text output raised
``UnicodeEncodeError``, JSON wrote lone ``\\udce9`` escapes). And a name may hold a
newline or a terminal escape sequence that must never reach a terminal raw.

* ``printable``: for text output and stderr messages: undecodable bytes as ``\\xe9``,
  control and line-separator characters as Python escapes (``\\n``, ``\\x1b``);
* ``lossless_text``: for JSON, SARIF messages and GitHub: only the undecodable bytes
  escaped (JSON escapes control characters itself);
* ``uri_path``: the name's real bytes, percent-encoded, for a SARIF URI.
"""

from __future__ import annotations

import os
import unicodedata
from urllib.parse import quote

_UNPRINTABLE = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


def lossless_text(name: str) -> str:
    """``name`` with undecodable bytes (lone surrogates) written as ``\\xNN``."""
    if name.isascii() or not any("\udc80" <= char <= "\udcff" for char in name):
        return name
    return os.fsencode(name).decode("utf-8", "backslashreplace")


def printable(name: str) -> str:
    """``name`` safe to print on a terminal: no control characters, no lone surrogates."""
    text = lossless_text(name)
    if text.isprintable():
        return text
    return "".join(
        char.encode("unicode_escape").decode("ascii")
        if unicodedata.category(char) in _UNPRINTABLE
        else char
        for char in text
    )


def uri_path(relative: str) -> str:
    """A POSIX relative path percent-encoded from its bytes (``caf%E9.py``)."""
    return quote(os.fsencode(relative))
