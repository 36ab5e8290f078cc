"""The text a linted file is indexed from (a notebook's cells as one program)."""

from __future__ import annotations

import hashlib
from pathlib import Path

from zerograd_guard.lint.legacy_syntax import mask_legacy_syntax
from zerograd_guard.lint.sourcefile import (
    SourceError,
    decode_notebook,
    decode_python,
    read_bytes,
)


def module_text(path: Path, raw: bytes) -> str:
    """The program text of ``raw`` (read from ``path``); SourceError when it has none."""
    if path.suffix != ".ipynb":
        return mask_legacy_syntax(decode_python(raw).text)
    from zerograd_guard.lint.notebooks import NotebookError, read_notebook

    try:
        return read_notebook(decode_notebook(raw).text).source
    except NotebookError as error:
        raise SourceError(str(error)) from None


def digest_of(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def current_text(path: Path, digest: str) -> str | None:
    """``path``'s text if the file still has content ``digest`` (what was indexed), else
    None: a file edited since, or unreadable, is read as unknown."""
    try:
        raw = read_bytes(path)
    except (OSError, SourceError):
        return None
    if digest_of(raw) != digest:
        return None
    try:
        return module_text(path, raw)
    except SourceError:
        return None
