"""The result cache under abuse: truncated and garbage entries, concurrent runs with
different configurations sharing one cache folder."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from cli_helpers import BUGGY, CORRECT, write


def _entry(cache: Path) -> Path:
    [entry] = sorted(cache.glob("v*/*/*.json"))
    return entry


def test_truncated_entries_are_ignored(tmp_path, lint):
    write(tmp_path, "bad.py", BUGGY)
    expected = lint("bad.py")
    entry = _entry(tmp_path / ".zerograd_cache")
    complete = entry.read_bytes()
    assert json.loads(complete)["findings"]  # the entry holds the finding
    for cut in range(0, len(complete), max(1, len(complete) // 40)):
        entry.write_bytes(complete[:cut])
        again = lint("bad.py")
        assert (again.code, again.out, again.err) == (expected.code, expected.out, expected.err)
        assert entry.read_bytes() == complete  # rewritten whole


def test_well_formed_json_with_wrong_shapes_is_ignored(tmp_path, lint):
    write(tmp_path, "bad.py", BUGGY)
    expected = lint("bad.py")
    entry = _entry(tmp_path / ".zerograd_cache")
    key = json.loads(entry.read_text())["key"]
    finding = json.loads(entry.read_text())["findings"][0]
    shapes = [
        None,
        [],
        {"key": key},
        {"key": key, "findings": None},
        {"key": key, "findings": {"code": "ZG101"}},
        {"key": key, "findings": ["ZG101"]},
        {"key": key, "findings": [{**finding, "line": "ten"}]},
        {"key": key, "findings": [{**finding, "fix": {"edits": [[1]]}}]},
        {"key": key, "findings": [{**finding, "fix": "insert"}]},
        {"key": [key], "findings": []},
    ]
    for garbage in shapes:
        entry.write_text(json.dumps(garbage))
        again = lint("bad.py")
        assert (again.code, again.out, again.err) == (expected.code, expected.out, expected.err)


def test_concurrent_runs_with_different_configs_share_a_cache(tmp_path):
    for index in range(40):
        write(tmp_path, f"m{index:02d}.py", BUGGY if index % 2 else CORRECT)
    base = [sys.executable, "-m", "zerograd_guard.lint", "-j", "1", "--cache-dir", "shared"]
    commands = [
        [*base, "--select", "ZG101", "."],
        [*base, "--ignore", "ZG101", "."],
        [*base, "--format", "json", "."],
        [*base, "--select", "ZG101", "."],
    ]
    runs = [
        subprocess.Popen(command, cwd=tmp_path, stdout=subprocess.PIPE, text=True)
        for command in commands
    ]
    outputs = [(run.communicate(timeout=120)[0], run.returncode) for run in runs]
    serial = [
        subprocess.run(
            [arg for arg in command if arg not in ("--cache-dir", "shared")] + ["--no-cache"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            check=False,
        )
        for command in commands
    ]
    assert outputs == [(run.stdout, run.returncode) for run in serial]
    assert outputs[0][0].count("ZG101") == 20
    assert "ZG101" not in outputs[1][0]
    assert not list((tmp_path / "shared").rglob("*.tmp"))


# --- issue 12: entries that do not match their key, plugin versions, --cache-dir ---


def test_an_entry_whose_content_does_not_match_its_key_is_distrusted(tmp_path, lint):
    write(tmp_path, "bad.py", BUGGY)
    expected = lint("bad.py")
    entry = _entry(tmp_path / ".zerograd_cache")
    data = json.loads(entry.read_text())
    data["findings"] = []  # well formed, right key, wrong content: a clean verdict
    entry.write_text(json.dumps(data))
    again = lint("bad.py")
    assert (again.code, again.out) == (expected.code, expected.out)


def test_plugin_versions_are_part_of_the_key():
    from zerograd_guard.lint.options import AnalysisOptions
    from zerograd_guard.lint.runner import FileSettings

    old = FileSettings(AnalysisOptions(), (), plugin_key="acme-zerograd==1.0")
    new = FileSettings(AnalysisOptions(), (), plugin_key="acme-zerograd==1.1")
    assert old.config_key != new.config_key


def test_plugin_key_names_each_distribution_and_version(tmp_path):
    from zerograd_guard.lint.plugins.manager import load

    class InProcess:
        pass

    contributions = load([InProcess()], entry_points=False)
    assert "InProcess" in contributions.plugin_key


def test_cache_dir_in_a_source_folder_does_not_hide_it_from_git(tmp_path, lint):
    write(tmp_path, "src/train.py", BUGGY)
    lint("--cache-dir", "src", "src/train.py")
    assert not (tmp_path / "src" / ".gitignore").exists()
    assert list((tmp_path / "src").glob("v*/*/*.json"))  # the cache still works
    lint("--cache-dir", "fresh", "src/train.py")
    assert (tmp_path / "fresh" / ".gitignore").read_text().splitlines()[-1] == "*"
