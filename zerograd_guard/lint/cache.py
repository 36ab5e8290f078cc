"""Per-file result cache.

An entry holds the analyzer's findings for one analysed text. Its key is the
SHA-256 of the text, the tool version and a digest of the analyzer's source
(``_version.analyzer``), the Python version (whether a fix can be checked depends on
its grammar) and the effective configuration (analysis options and the rule set), so
any change to one of them misses. Entries are
written atomically (temporary file + rename), so concurrent runs never see a
torn entry; an entry that cannot be read, parsed, does not carry its own key, or
whose findings do not match the digest stored with them (a corrupted or edited
entry) is ignored and rewritten, never trusted.

The cache folder gets a ``.gitignore`` of ``*`` only when zerograd-lint creates it
(or it holds nothing but cache entries): ``--cache-dir src`` must not hide an
existing source folder from git.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from zerograd_guard._version import analyzer
from zerograd_guard.lint.findings import Edit, Finding, Fix

DEFAULT_DIRNAME = ".zerograd_cache"
# Bumped when an entry's layout changes ("2": findings carry their ``hint``).
_FORMAT = "2"


# Findings depend on the running Python's grammar (``fixes_apply.checkable``).
_PYTHON = "{}.{}".format(*sys.version_info[:2])


def cache_key(text: str, config_key: str) -> str:
    digest = hashlib.sha256()
    for part in (_FORMAT, analyzer(), _PYTHON, config_key, text):
        digest.update(part.encode("utf-8", "surrogatepass"))
        digest.update(b"\0")
    return digest.hexdigest()


def _digest(key: str, findings: Any) -> str:
    """A checksum binding an entry's findings to its key."""
    material = json.dumps([key, findings], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(material.encode("utf-8", "surrogatepass")).hexdigest()


def _finding_to_json(finding: Finding) -> dict[str, Any]:
    fix = finding.fix
    return {
        "code": finding.code,
        "message": finding.message,
        "line": finding.line,
        "column": finding.column,
        "end_line": finding.end_line,
        "end_column": finding.end_column,
        "hint": finding.hint,
        "fix": None
        if fix is None
        else {
            "description": fix.description,
            "safe": fix.safe,
            "edits": [[edit.start, edit.end, edit.content] for edit in fix.edits],
        },
    }


def _finding_from_json(data: dict[str, Any]) -> Finding:
    raw_fix = data["fix"]
    fix = None
    if raw_fix is not None:
        edits = tuple(Edit(int(s), int(e), str(c)) for s, e, c in raw_fix["edits"])
        fix = Fix(str(raw_fix["description"]), edits, bool(raw_fix["safe"]))
    hint = data["hint"]
    return Finding(
        code=str(data["code"]),
        message=str(data["message"]),
        line=int(data["line"]),
        column=int(data["column"]),
        end_line=int(data["end_line"]),
        end_column=int(data["end_column"]),
        fix=fix,
        hint=None if hint is None else str(hint),
    )


class ResultCache:
    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def _entry(self, key: str) -> Path:
        return self.directory / f"v{_FORMAT}" / key[:2] / f"{key}.json"

    def get(self, key: str) -> list[Finding] | None:
        try:
            data = json.loads(self._entry(key).read_text(encoding="utf-8"))
            if data["key"] != key or data["digest"] != _digest(key, data["findings"]):
                return None
            return [_finding_from_json(item) for item in data["findings"]]
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def put(self, key: str, findings: list[Finding]) -> None:
        """Store an entry; a cache that cannot be written is silently skipped."""
        entry = self._entry(key)
        items = [_finding_to_json(finding) for finding in findings]
        payload = json.dumps({"key": key, "digest": _digest(key, items), "findings": items})
        try:
            ensure_cache_dir(self.directory)
            entry.parent.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=entry.parent, suffix=".tmp")
            try:
                with os.fdopen(handle, "w", encoding="utf-8") as stream:
                    stream.write(payload)
                os.replace(temporary, entry)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(temporary)
                raise
        except OSError:
            return


def ensure_cache_dir(directory: Path) -> None:
    """Create the cache folder with a ``.gitignore`` that keeps it out of commits (not
    in a folder that holds anything else: that may be the user's source folder)."""
    created = not directory.exists()
    directory.mkdir(parents=True, exist_ok=True)
    ignore = directory / ".gitignore"
    if ignore.exists() or not (created or set(os.listdir(directory)) <= {f"v{_FORMAT}"}):
        return
    handle, temporary = tempfile.mkstemp(dir=directory, suffix=".tmp")
    with os.fdopen(handle, "w", encoding="utf-8") as stream:
        stream.write("# Created by zerograd-lint automatically.\n*\n")
    os.chmod(temporary, 0o644)
    os.replace(temporary, ignore)
