"""Reading and writing the files we lint, byte-faithfully.

Text is decoded with the encoding Python itself would use (BOM, PEP 263 cookie,
else UTF-8) and without newline translation, so fix offsets address the exact
file content and a rewrite keeps the encoding, the BOM and the line endings.

Size policy: libcst holds every token and every run of whitespace as an object,
about 2 GB of memory and tens of seconds per megabyte of dense code. Files over
``MAX_FILE_BYTES`` are not read, and a text with more than ``MAX_CODE_BYTES`` on
lines that are not blank or comments is not parsed: each gets the one-line error
"too large to analyse" (exit 2; exclude generated files in the configuration).
The largest file holding a backward call in the standard library and the
installed packages we measured has 1.4 MB of code. A notebook's file is mostly
outputs (images, tables), so its file limit is ``MAX_NOTEBOOK_BYTES``; the code
limit applies to its joined code cells.
"""

from __future__ import annotations

import contextlib
import io
import os
import stat
import tempfile
import tokenize
from dataclasses import dataclass
from pathlib import Path

from zerograd_guard.lint.lines import split_lines


class SourceError(Exception):
    """A file that cannot be read as source; ``str()`` is the one-line cause."""


@dataclass(frozen=True)
class SourceText:
    text: str
    encoding: str  # "utf-8-sig" when the file starts with a BOM

    @property
    def newline(self) -> str:
        """The file's line ending, judged by its first line break."""
        index = self.text.find("\n")
        carriage = self.text.find("\r")
        if carriage != -1 and (index == -1 or carriage < index):
            return "\r\n" if self.text.startswith("\r\n", carriage) else "\r"
        return "\n"

    def encode(self, text: str) -> bytes:
        return text.encode(self.encoding)


MAX_FILE_BYTES = 16 * 1024 * 1024
MAX_NOTEBOOK_BYTES = 256 * 1024 * 1024
MAX_CODE_BYTES = 2 * 1024 * 1024


def _megabytes(size: int) -> str:
    return f"{size / (1024 * 1024):.1f} MB"


def read_bytes(path: Path, limit: int = MAX_FILE_BYTES) -> bytes:
    """The file's bytes; a one-line ``SourceError`` for what is not a readable regular
    file of at most ``limit`` bytes (a FIFO named ``x.py`` must not block the run)."""
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):
            raise SourceError("not a regular file")
        if info.st_size > limit:
            raise SourceError(
                f"too large to analyse ({_megabytes(info.st_size)}; "
                f"the limit is {_megabytes(limit)})"
            )
        return path.read_bytes()
    except OSError as exc:
        raise SourceError(f"cannot read: {exc.strerror or exc}") from None


def check_code_size(text: str) -> None:
    """Raise ``SourceError`` when ``text`` holds more code than the parser can take."""
    if len(text) <= MAX_CODE_BYTES:
        return
    code = sum(
        len(line)
        for line in split_lines(text)
        if line.strip() and not line.lstrip().startswith("#")
    )
    if code > MAX_CODE_BYTES:
        raise SourceError(
            f"too large to analyse ({_megabytes(code)} of code; "
            f"the limit is {_megabytes(MAX_CODE_BYTES)})"
        )


def decode_python(raw: bytes) -> SourceText:
    if b"\0" in raw:
        raise SourceError("source contains NUL bytes")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(raw).readline)
    except SyntaxError as exc:
        # Also raised for undecodable bytes in the first two lines, cookie or not.
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError as undecodable:
            raise SourceError(f"cannot decode as utf-8: {undecodable}") from None
        raise SourceError(f"bad encoding declaration: {exc.msg}") from None
    try:
        return SourceText(raw.decode(encoding), encoding)
    except (UnicodeDecodeError, LookupError) as exc:
        raise SourceError(f"cannot decode as {encoding}: {exc}") from None


def decode_notebook(raw: bytes) -> SourceText:
    encoding = "utf-8-sig" if raw.startswith(b"\xef\xbb\xbf") else "utf-8"
    try:
        return SourceText(raw.decode(encoding), encoding)
    except UnicodeDecodeError as exc:
        raise SourceError(f"cannot decode notebook as UTF-8: {exc}") from None


def writable_target(path: Path) -> Path:
    """The file a fix of ``path`` would replace (a symlink's target); ``SourceError``
    for a file that must not be replaced: read-only (a rename would bypass that, even
    for root) or hard-linked (a rename would split the links silently)."""
    target = path.resolve()
    info = target.stat()
    if not info.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
        raise SourceError("read-only; not fixed")
    if info.st_nlink > 1:
        raise SourceError(
            f"has {info.st_nlink} hard links; not fixed (apply the fix with --diff and patch)"
        )
    return target


def _copy_metadata(source: os.stat_result, target: Path, temporary: str) -> None:
    """Mode, owner and extended attributes of ``target`` onto ``temporary``, where the
    OS allows (owner and attributes are best effort)."""
    os.chmod(temporary, stat.S_IMODE(source.st_mode))
    with contextlib.suppress(OSError):
        os.chown(temporary, source.st_uid, source.st_gid)
    if hasattr(os, "listxattr"):
        with contextlib.suppress(OSError):
            for name in os.listxattr(target):
                with contextlib.suppress(OSError):
                    os.setxattr(temporary, name, os.getxattr(target, name))


def write_atomic(path: Path, data: bytes, expected: bytes | None = None) -> None:
    """Replace ``path`` with ``data`` via a temporary file in the same folder.

    Readers see the old or the new content, never half of one; mode, owner and
    extended attributes are kept; a symlink's target is written, the link stays.
    With ``expected`` (the bytes the fix was computed from), a file whose content
    changed meanwhile (an editor saved it) is left alone: ``SourceError``. The check
    runs just before the rename, so only an edit in that instant can be missed.
    """
    target = writable_target(path)
    info = target.stat()
    handle, temporary = tempfile.mkstemp(
        dir=target.parent, prefix=f".{target.name}.", suffix=".tmp"
    )
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        _copy_metadata(info, target, temporary)
        if expected is not None and target.read_bytes() != expected:
            raise SourceError("changed on disk while being fixed; not written")
        os.replace(temporary, target)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise
