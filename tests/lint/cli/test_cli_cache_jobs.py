"""The result cache and parallel runs."""

from __future__ import annotations

from pathlib import Path

from cli_helpers import BUGGY, CORRECT, write


def _entries(cache: Path) -> list[Path]:
    return sorted(cache.glob("v*/*/*.json"))


def _count_analyses(monkeypatch) -> list[str]:
    from zerograd_guard.lint import analyze

    calls: list[str] = []
    real = analyze.analyze_source

    def counting(source, *args, **kwargs):
        calls.append(source)
        return real(source, *args, **kwargs)

    monkeypatch.setattr(analyze, "analyze_source", counting)
    return calls


def test_cache_is_created_with_gitignore_and_hit_on_rerun(tmp_path, lint, monkeypatch):
    write(tmp_path, "bad.py", BUGGY)
    calls = _count_analyses(monkeypatch)
    first = lint("bad.py")
    cache = tmp_path / ".zerograd_cache"
    assert (cache / ".gitignore").read_text().splitlines()[-1] == "*"
    assert len(_entries(cache)) == 1
    second = lint("bad.py")
    assert (first.out, first.code) == (second.out, second.code)
    assert len(calls) == 1
    write(tmp_path, "bad.py", BUGGY + "\n# edited\n")
    lint("bad.py")
    assert len(calls) == 2


def test_config_change_misses_the_cache(tmp_path, lint, monkeypatch):
    write(tmp_path, "bad.py", BUGGY)
    calls = _count_analyses(monkeypatch)
    lint("bad.py")
    write(tmp_path, "pyproject.toml", '[tool.zerograd-guard]\nextend-clear-calls = ["reset"]\n')
    lint("bad.py")
    assert len(calls) == 2


def test_corrupt_entry_is_ignored_and_rewritten(tmp_path, lint, monkeypatch):
    write(tmp_path, "bad.py", BUGGY)
    expected = lint("bad.py").out
    [entry] = _entries(tmp_path / ".zerograd_cache")
    for garbage in ("{not json", '{"key": "other", "findings": []}', '{"findings": [{}]}'):
        entry.write_text(garbage)
        assert lint("bad.py").out == expected
        assert entry.read_text() != garbage
    entry.write_bytes(b"\xff\x00")
    assert lint("bad.py").out == expected


def test_no_cache_and_cache_dir(tmp_path, lint):
    write(tmp_path, "bad.py", BUGGY)
    lint("--no-cache", "bad.py")
    assert not (tmp_path / ".zerograd_cache").exists()
    lint("--cache-dir", "elsewhere", "bad.py")
    assert len(_entries(tmp_path / "elsewhere")) == 1
    assert not (tmp_path / ".zerograd_cache").exists()


def test_unwritable_cache_dir_does_not_fail_the_run(tmp_path, lint):
    write(tmp_path, "bad.py", BUGGY)
    write(tmp_path, "blocker", "a file where the cache folder should be")
    result = lint("--cache-dir", "blocker", "bad.py")
    assert result.code == 1
    assert result.err == ""


def test_parallel_output_is_identical_to_serial(tmp_path, lint):
    for index in range(12):
        write(tmp_path, f"pkg{index % 3}/m{index:02d}.py", BUGGY if index % 2 else CORRECT)
    write(tmp_path, "broken.py", "loss.backward(\n")
    serial = lint("--no-cache", "-j", "1", ".")
    parallel = lint("--no-cache", "-j", "2", ".")
    assert serial.code == parallel.code == 2
    assert serial.out == parallel.out
    assert serial.err == parallel.err
    assert serial.out.count("ZG101") == 6


def test_answers_read_in_forked_workers_are_the_serial_answers(tmp_path, lint, monkeypatch):
    """A large run reads the pre-filter and the cache in forked workers (and builds its
    index there); lowered to two files here: the output, warnings and errors are those
    of ``-j 1``, cold and warm, in project and per-file mode."""
    from zerograd_guard.lint import forked

    for index in range(12):
        write(tmp_path, f"pkg{index % 3}/m{index:02d}.py", BUGGY if index % 2 else CORRECT)
    write(tmp_path, "noted.py", "x = 1  # noqa: ZG999\n")  # a warning, no backward
    write(tmp_path, "broken.py", "loss.backward(\n")
    write(tmp_path, "unreadable.py", b"\xff\xfe\x00bad")
    expected = {mode: lint("--no-cache", "-j", "1", *mode, ".") for mode in ((), ("--no-project",))}
    monkeypatch.setattr(forked, "MIN_ITEMS", 2)
    for mode, serial in expected.items():
        for cache in (("--no-cache",), (), ()):  # cold, then cold with a cache, then warm
            parallel = lint(*cache, "-j", "2", *mode, ".")
            assert (parallel.code, parallel.out) == (serial.code, serial.out)
            assert parallel.err == serial.err
    assert "ZG999" in expected[()].err
    assert expected[()].out.count("ZG101") == 6


def test_concurrent_runs_share_a_cache_safely(tmp_path):
    import subprocess
    import sys

    for index in range(30):
        write(tmp_path, f"m{index:02d}.py", BUGGY if index % 3 else CORRECT)
    # per-file mode: there an entry is keyed on the text alone (in project mode also on
    # the file's import closure, so each of these files would have its own)
    command = [sys.executable, "-m", "zerograd_guard.lint", "-j", "1", "--no-project"]
    command += ["--cache-dir", "shared", "."]
    runs = [
        subprocess.Popen(command, cwd=tmp_path, stdout=subprocess.PIPE, text=True) for _ in range(3)
    ]
    outputs = [run.communicate(timeout=120)[0] for run in runs]
    assert [run.returncode for run in runs] == [1, 1, 1]
    assert outputs[0] == outputs[1] == outputs[2]
    assert outputs[0].count("ZG101") == 20
    entries = _entries(tmp_path / "shared")
    assert len(entries) == 2  # one per distinct analysed text
    assert not list((tmp_path / "shared").rglob("*.tmp"))
    rerun = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, check=False)
    assert rerun.stdout == outputs[0]


def test_cache_lives_in_the_linted_project_root(tmp_path, lint, monkeypatch):
    write(tmp_path, "proj/pyproject.toml", "[tool.zerograd-guard]\n")
    write(tmp_path, "proj/pkg/bad.py", BUGGY)
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    assert lint("../proj").code == 1
    assert len(_entries(tmp_path / "proj" / ".zerograd_cache")) == 1
    assert not (tmp_path / "elsewhere" / ".zerograd_cache").exists()


def test_cache_falls_back_to_the_working_directory(tmp_path, lint, monkeypatch):
    write(tmp_path, "a/pyproject.toml", "[tool.zerograd-guard]\n")
    write(tmp_path, "a/bad.py", BUGGY)
    write(tmp_path, "b/bad.py", BUGGY)
    assert lint("a", "b").code == 1
    # Two projects (one of them without configuration): the shared working directory.
    assert _entries(tmp_path / ".zerograd_cache")
    assert not (tmp_path / "a" / ".zerograd_cache").exists()
