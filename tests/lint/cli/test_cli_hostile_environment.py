"""Bad input and bad environments: one line per problem, exit 2, the rest linted."""

from __future__ import annotations

import json
import os
import signal
import sys

import pytest
from cli_helpers import BUGGY, CORRECT, write

import zerograd_guard.lint.discovery as discovery
import zerograd_guard.lint.runner as runner
from zerograd_guard.lint.cli import main

# --- configuration value types ------------------------------------------------


@pytest.mark.parametrize("body", ["tool = 5\n", 'tool = "x"\n', "[tool]\nzerograd-guard = 3\n"])
def test_config_with_a_wrong_tool_type_is_one_line(tmp_path, lint, body):
    write(tmp_path, "c.toml", body)
    write(tmp_path, "loop.py", BUGGY)
    run = lint("--config", "c.toml", "loop.py")
    assert run.code == 2
    assert "Traceback" not in run.err and len(run.err.splitlines()) == 1
    assert "c.toml: error: " in run.err and "must be a table" in run.err


@pytest.mark.parametrize(
    "key", ["extend-clear-calls", "extend-step-calls", "extend-backward-calls", "managed-engines"]
)
def test_extended_call_names_are_validated(tmp_path, lint, key):
    write(tmp_path, "pyproject.toml", f'[tool.zerograd-guard]\n{key} = ["helpers.clear"]\n')
    write(tmp_path, "loop.py", BUGGY)
    run = lint("loop.py")
    assert run.code == 2
    assert run.err == (
        f"{tmp_path / 'pyproject.toml'}: error: [tool.zerograd-guard] {key}: "
        "'helpers.clear' is not a name (give the last part of the call, e.g. 'clear')\n"
    )


# --- file names that are not UTF-8, or hold control characters ----------------

BAD_NAME = b"caf\xe9.py"


@pytest.fixture
def undecodable_file(tmp_path):
    try:
        with open(os.path.join(os.fsencode(tmp_path), BAD_NAME), "w") as stream:
            stream.write(BUGGY)
    except OSError:
        pytest.skip("the file system refuses non-UTF-8 names")
    return tmp_path


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github"])
def test_non_utf8_file_names_in_every_format(undecodable_file, lint, fmt):
    run = lint("--format", fmt, ".")
    assert run.code == 1, run.err
    run.out.encode("utf-8")  # no lone surrogates: every format writes valid UTF-8
    if fmt in ("text", "github"):
        assert "caf\\xe9.py" in run.out
    if fmt == "json":
        assert json.loads(run.out)[0]["path"] == "caf\\xe9.py"
    if fmt == "sarif":
        (result,) = json.loads(run.out)["runs"][0]["results"]
        uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        assert uri == "caf%E9.py"


def test_non_utf8_file_name_with_a_utf8_stdout(undecodable_file, tmp_path):
    import subprocess

    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "NO_COLOR": "1"}
    env["PYTHONPATH"] = os.pathsep.join(sys.path)
    done = subprocess.run(
        [sys.executable, "-m", "zerograd_guard.lint", "--no-cache", "-j", "1", "."],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    assert b"caf\\xe9.py:10:9: ZG101" in done.stdout
    assert b"Traceback" not in done.stderr


@pytest.mark.parametrize("name", ["new\nline.py", "esc\x1b[31mred.py", "bell\x07.py"])
def test_control_characters_in_file_names_are_escaped(tmp_path, lint, name):
    write(tmp_path, name, BUGGY)
    write(tmp_path, "broken\x1b.py", "loss.backward(\n")
    run = lint(".")
    assert run.code == 2
    assert "\x1b" not in run.out + run.err and "\x07" not in run.out + run.err
    escaped = name.encode("unicode_escape").decode("ascii")
    assert f"{escaped}:10:9: ZG101" in run.out
    assert run.err.startswith("broken\\x1b.py: error: syntax error")
    assert len(run.out.splitlines()) == 4  # the finding, the summary, fixable, unchecked


# --- directories that cannot be read ---------------------------------------------


DEPTH = 2100  # "d/" 2100 times: 4200 characters, past PATH_MAX


def _deep_tree(root, depth: int, remove: bool = False) -> None:
    """Create (or remove) ``root/d/d/...`` with directory descriptors: no path is ever
    longer than one name, and no recursion (``shutil.rmtree`` would recurse too deep)."""
    descriptors = [os.open(root, os.O_RDONLY)]
    try:
        for _ in range(depth):
            if not remove:
                os.mkdir("d", dir_fd=descriptors[-1])
            descriptors.append(os.open("d", os.O_RDONLY, dir_fd=descriptors[-1]))
        if remove:
            for parent in reversed(descriptors[:-1]):
                os.rmdir("d", dir_fd=parent)
    finally:
        for descriptor in descriptors:
            os.close(descriptor)


def test_deeper_than_the_path_limit(tmp_path, lint):
    write(tmp_path, "ok.py", BUGGY)
    _deep_tree(tmp_path, DEPTH)
    try:
        run = lint(".")
    finally:
        _deep_tree(tmp_path, DEPTH, remove=True)
    assert run.code == 2
    assert "ok.py:10:9: ZG101" in run.out
    (error,) = run.err.splitlines()
    assert ": error: cannot read directory: File name too long" in error


def _unreadable(monkeypatch, folder, error):
    real = discovery.os.scandir

    def scandir(path="."):
        if os.path.abspath(path) == str(folder):
            raise error
        return real(path)

    monkeypatch.setattr(discovery.os, "scandir", scandir)


@pytest.mark.parametrize("mode", [0o000, 0o311])
def test_an_unreadable_directory_is_one_line_and_the_rest_is_linted(
    tmp_path, lint, monkeypatch, mode
):
    write(tmp_path, "a/ok.py", BUGGY)
    locked = tmp_path / "b"
    write(tmp_path, "b/hidden.py", BUGGY)
    write(tmp_path, "c/ok.py", BUGGY)
    if os.geteuid() == 0:  # root reads anything: simulate what the mode does
        _unreadable(monkeypatch, locked, PermissionError(13, "Permission denied", str(locked)))
    os.chmod(locked, mode)
    try:
        run = lint(".")
    finally:
        os.chmod(locked, 0o755)
    assert run.code == 2
    assert run.err == "b: error: cannot read directory: Permission denied\n"
    assert "a/ok.py:10:9" in run.out and "c/ok.py:10:9" in run.out


def test_a_venv_marker_that_cannot_be_checked_is_an_error_not_a_traceback(
    tmp_path, lint, monkeypatch
):
    write(tmp_path, "a/ok.py", BUGGY)
    write(tmp_path, "b/x.py", BUGGY)
    real = discovery._skipped_dir

    def denied(directory, resolver):
        if directory.name == "b":
            raise PermissionError(13, "Permission denied", str(directory / "pyvenv.cfg"))
        return real(directory, resolver)

    monkeypatch.setattr(discovery, "_skipped_dir", denied)
    run = lint(".")
    assert run.code == 2
    assert run.err == "b: error: cannot read directory: Permission denied\n"
    assert "a/ok.py:10:9" in run.out


# --- a killed -j worker -------------------------------------------------------------


def test_a_killed_worker_is_an_error_for_its_file_and_the_others_are_reported(
    tmp_path, lint, monkeypatch
):
    for index in range(6):
        write(tmp_path, f"ok{index}.py", BUGGY)
    write(tmp_path, "huge.py", BUGGY + "\n" * 2000)  # the largest: scheduled first
    write(tmp_path, "clean.py", CORRECT)
    real = runner._lint

    def oom_killer(task, cache_only=False):
        if task.path.name == "huge.py" and not cache_only:
            os.kill(os.getpid(), signal.SIGKILL)  # what the OOM killer does
        return real(task, cache_only)

    monkeypatch.setattr(runner, "_lint", oom_killer)
    run = lint("--no-cache", "-j", "2", ".")
    assert run.code == 2
    assert run.err == ("huge.py: error: the process analysing it was killed (out of memory?)\n")
    for index in range(6):
        assert f"ok{index}.py:10:9: ZG101" in run.out


def test_an_unexpected_crash_exits_2_with_one_line(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "loop.py", BUGGY)

    def broken(*_args, **_kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(discovery, "discover", broken)
    monkeypatch.setattr("zerograd_guard.lint.cli.discover", broken)
    assert main(["loop.py"]) == 2
    assert capsys.readouterr().err == "zerograd-lint: internal error: RuntimeError: boom\n"
