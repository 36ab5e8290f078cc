"""The package version, and what the linter's caches are keyed on.

Installed from a checkout or a pinned git URL, every commit carries the same version
string, so the caches (results and the project index, ``.zerograd_cache``, shared by
every pre-commit ``rev`` of a project) are keyed on the analyzer's own source too.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

__version__ = "0.1.0"

_ANALYZER: str | None = None


def source_fingerprint(package: Path) -> str:
    """A digest of every ``.py`` file under ``package``: names and contents."""
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


def analyzer() -> str:
    """The version and a fingerprint of the linter's source, read once per process."""
    global _ANALYZER
    if _ANALYZER is None:
        _ANALYZER = f"{__version__}+{source_fingerprint(Path(__file__).parent / 'lint')[:16]}"
    return _ANALYZER
