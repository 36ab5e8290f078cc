"""Children of a guarded process are guarded too and report back (zerograd_guard.children)."""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from types import ModuleType

import pytest

from zerograd_guard.children import env, start_propagation
from zerograd_guard.children.records import ChildRecord, read_records, write_record
from zerograd_guard.children.watcher import TorchImportWatcher

from .loops import child_targets
from .loops.child_targets import SCRIPT, STEPS

PROBE_IMPORTS = (
    "import sys; print(sorted(m for m in ('torch', 'zerograd_guard', "
    "'_zerograd_guard_boot_watcher') if m in sys.modules))"
)


def run_python(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, timeout=120, check=False
    )


def test_close_restores_the_environment_and_removes_the_report_dir(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PYTHONPATH", "/somewhere")
    monkeypatch.delenv(env.CHILD_MODE, raising=False)
    before = dict(os.environ)
    propagation = start_propagation("warn", accumulate=2)
    assert os.environ["PYTHONPATH"] == os.pathsep.join([env.BOOT_DIR, "/somewhere"])
    assert os.environ[env.CHILD_MODE] == "warn"
    assert os.environ[env.CHILD_ACCUMULATE] == "2"
    assert Path(os.environ[env.CHILD_REPORT_DIR]).is_dir()
    report_dir = propagation.report_dir
    propagation.close()
    assert dict(os.environ) == before
    assert not Path(report_dir).exists()


def test_mode_must_be_error_or_warn() -> None:
    with pytest.raises(ValueError, match="mode"):
        start_propagation("loud")


def test_a_child_that_never_imports_torch_loads_only_the_import_watcher() -> None:
    with start_propagation("error") as propagation:
        result = run_python("-c", PROBE_IMPORTS)
        assert result.returncode == 0, result.stderr
        assert result.stdout.strip() == "['_zerograd_guard_boot_watcher']"
        assert propagation.records() == []


def test_a_child_outside_propagation_is_untouched() -> None:
    result = run_python("-c", PROBE_IMPORTS)
    assert result.stdout.strip() == "[]"


def test_an_existing_sitecustomize_still_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "sitecustomize.py").write_text("import os\nos.environ['USER_SITE_HOOK'] = 'ran'\n")
    monkeypatch.setenv("PYTHONPATH", os.fspath(tmp_path))
    with start_propagation("error"):
        result = run_python(
            "-c",
            "import os, sitecustomize, sys; "
            "print(os.environ.get('USER_SITE_HOOK'), sitecustomize.__file__, "
            "'_zerograd_guard_boot_watcher' in sys.modules)",
        )
    hook, module_file, bootstrapped = result.stdout.split()
    assert hook == "ran"
    assert Path(module_file) == tmp_path / "sitecustomize.py"
    assert bootstrapped == "True"


def test_watcher_runs_the_callback_once_the_watched_package_is_fully_imported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "watched_pkg_for_test"
    package.mkdir()
    (package / "__init__.py").write_text("READY = False\nimport json\nREADY = True\n")
    monkeypatch.syspath_prepend(os.fspath(tmp_path))
    seen: list[bool] = []

    def callback() -> None:
        seen.append(sys.modules["watched_pkg_for_test"].READY)

    watcher = TorchImportWatcher(callback, module="watched_pkg_for_test")
    watcher.install()
    try:
        import watched_pkg_for_test  # noqa: F401

        assert seen == [True]
        assert watcher not in sys.meta_path
    finally:
        watcher.uninstall()
        sys.modules.pop("watched_pkg_for_test", None)


def test_records_round_trip_and_unreadable_files_are_skipped(tmp_path: Path) -> None:
    record = ChildRecord(pid=42, argv=["w.py"], mode="error", rank=1, steps_checked=3)
    record.violations.append({"code": "ZG101", "text": "ZG101 details"})
    write_record(tmp_path, record)
    (tmp_path / "7.json").write_text("{not json")
    assert read_records(tmp_path) == [record]
    assert sorted(path.name for path in tmp_path.iterdir()) == ["42.json", "7.json"]


@pytest.mark.slow
def test_a_buggy_subprocess_fails_and_its_violation_reaches_the_parent(
    runtime: ModuleType,
) -> None:
    with start_propagation("error") as propagation:
        result = run_python("-c", SCRIPT, "broken")
        violations = propagation.collect()
        records = propagation.records()
    assert result.returncode == 1
    assert "GradientGuardError" in result.stderr
    child_pid = int(result.stdout.split()[0])
    assert [(v.pid, v.rank, v.code) for v in violations] == [(child_pid, None, "ZG101")]
    assert "optimizer.step()" in violations[0].message
    assert violations[0].render().startswith(f"[child process pid {child_pid}] ZG101")
    assert records[0].finished
    assert records[0].steps_checked == 2  # the second step raised


@pytest.mark.slow
def test_a_correct_subprocess_ending_with_os_exit_is_guarded_silently(
    runtime: ModuleType,
) -> None:
    with start_propagation("error") as propagation:
        result = run_python("-c", SCRIPT, "correct", "os_exit")
        records = propagation.records()
    assert result.returncode == 0, result.stderr
    assert [(r.pid, r.steps_checked, r.violations, r.warnings) for r in records] == [
        (int(result.stdout), STEPS, [], [])
    ]
    assert records[0].finished


@pytest.mark.slow
def test_warn_mode_children_finish_and_report_every_violation(runtime: ModuleType) -> None:
    with start_propagation("warn") as propagation:
        result = run_python("-c", SCRIPT, "broken", "os_exit")
        violations = propagation.collect()
    assert result.returncode == 0, result.stderr
    assert "GradientGuardWarning" not in result.stderr  # the parent reports them
    assert [v.code for v in violations] == ["ZG101"] * (STEPS - 1)


@pytest.mark.slow
def test_grandchildren_report_to_the_top_parent(runtime: ModuleType) -> None:
    relay = textwrap.dedent(
        """
        import subprocess, sys
        sys.exit(subprocess.run([sys.executable, "-c", sys.argv[1], "broken"]).returncode)
        """
    )
    with start_propagation("error") as propagation:
        result = run_python("-c", relay, SCRIPT)
        violations = propagation.collect()
    assert result.returncode == 1
    assert [v.code for v in violations] == ["ZG101"]


@pytest.mark.slow
@pytest.mark.parametrize("method", ["spawn", "fork"])
def test_multiprocessing_children_report_to_the_parent(runtime: ModuleType, method: str) -> None:
    # A forked child inherits the parent's guard: the parent's guard must be active.
    context = multiprocessing.get_context(method)
    with runtime.guard(), start_propagation("error") as propagation:
        process = context.Process(target=child_targets.plain_loop_then_os_exit, args=(True,))
        process.start()
        process.join(timeout=120)
        violations = propagation.collect()
    assert process.exitcode == 1
    assert [(v.pid, v.code) for v in violations] == [(process.pid, "ZG101")]


@pytest.mark.slow
def test_a_correct_spawned_worker_is_counted(runtime: ModuleType) -> None:
    context = multiprocessing.get_context("spawn")
    with start_propagation("error") as propagation:
        process = context.Process(target=child_targets.plain_loop_then_os_exit)
        process.start()
        process.join(timeout=120)
        records = propagation.records()
    assert process.exitcode == 0
    assert [(r.pid, r.steps_checked, r.violations) for r in records] == [(process.pid, STEPS, [])]


@pytest.mark.slow
def test_a_child_importing_the_guard_package_before_torch_is_guarded(
    runtime: ModuleType,
) -> None:
    # torch then finishes importing inside zerograd_guard.runtime's own import.
    with start_propagation("error") as propagation:
        result = run_python("-c", "import zerograd_guard.runtime\n" + SCRIPT, "broken")
        violations = propagation.collect()
    assert "could not guard" not in result.stderr
    assert result.returncode == 1
    assert [v.code for v in violations] == ["ZG101"]


def test_an_in_process_pytest_run_keeps_this_process_propagation(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile("def test_nothing():\n    pass\n")
    with start_propagation("error") as propagation:
        pytester.runpytest().assert_outcomes(passed=1)  # its pytest_configure runs here
        assert os.environ[env.CHILD_REPORT_DIR] == propagation.report_dir
        assert os.environ["PYTHONPATH"].split(os.pathsep)[0] == env.BOOT_DIR


def test_close_keeps_a_pythonpath_change_made_while_it_was_open(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A session fixture extending PYTHONPATH during the first guarded test lost its
    change at that test's end (the next test saw only the guard's boot directory)."""
    monkeypatch.setenv(env.PYTHONPATH, "original")
    propagation = start_propagation("error")
    os.environ[env.PYTHONPATH] += os.pathsep + str(tmp_path)
    propagation.close()
    assert os.environ[env.PYTHONPATH] == os.pathsep.join(["original", str(tmp_path)])
    second = start_propagation("error")
    assert os.environ[env.PYTHONPATH].split(os.pathsep) == [env.BOOT_DIR, "original", str(tmp_path)]
    second.close()
    assert os.environ[env.PYTHONPATH] == os.pathsep.join(["original", str(tmp_path)])
