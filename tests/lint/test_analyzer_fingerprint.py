"""Caches are keyed on the analyzer's own source, not only its version string.

Installed from a checkout or a pinned git URL, every commit is "0.1.0": a project's
``.zerograd_cache`` (shared by every pre-commit ``rev``) must not hand an upgraded
analyzer the findings or task contexts an older one computed.
"""

from __future__ import annotations

from zerograd_guard import _version
from zerograd_guard.lint import cache
from zerograd_guard.lint.project import index_cache


def test_the_fingerprint_covers_the_analyzer_source(tmp_path, monkeypatch):
    package = tmp_path / "pkg"
    (package / "lint").mkdir(parents=True)
    (package / "lint" / "a.py").write_text("x = 1\n", encoding="utf-8")
    before = _version.source_fingerprint(package)
    (package / "lint" / "a.py").write_text("x = 2\n", encoding="utf-8")
    assert _version.source_fingerprint(package) != before
    (package / "lint" / "b.py").write_text("", encoding="utf-8")
    assert len({before, _version.source_fingerprint(package)}) == 2


def test_result_and_index_keys_change_with_the_analyzer(tmp_path, monkeypatch):
    key = cache.cache_key("text", "config")
    index_file = index_cache._file(tmp_path, ())
    monkeypatch.setattr(_version, "_ANALYZER", "another analyzer")
    assert cache.cache_key("text", "config") != key
    assert index_cache._file(tmp_path, ()) != index_file
