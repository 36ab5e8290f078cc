"""Where files are analysed: in this process when workers would not pay, biggest first
in the pool otherwise, and never with libcst when no file needs a parse."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import ClassVar

import pytest
from cli_helpers import BUGGY, write

from zerograd_guard.lint import runner
from zerograd_guard.lint.options import AnalysisOptions
from zerograd_guard.lint.rules import BUILTIN_RULES

ROOT = Path(__file__).resolve().parents[3]


def _tasks(paths: list[Path]) -> list[runner.FileTask]:
    settings = runner.FileSettings(AnalysisOptions(), BUILTIN_RULES)
    return [runner.FileTask(path, path.name, settings, runner.RunSettings()) for path in paths]


class _RecordingPool:
    """Stands in for the process pool: runs in process, records the order it was given."""

    orders: ClassVar[list[list[str]]] = []

    def __init__(self, max_workers: int, initializer=None, initargs=()) -> None:
        self.max_workers = max_workers
        if initializer is not None:  # what each worker runs first (installs the index)
            initializer(*initargs)

    def __enter__(self) -> _RecordingPool:
        return self

    def __exit__(self, *_: object) -> None:
        return None

    def map(self, function, tasks, chunksize=1):
        tasks = list(tasks)
        _RecordingPool.orders.append([task.display for task in tasks])
        return [function(task) for task in tasks]


@pytest.fixture
def pool(monkeypatch: pytest.MonkeyPatch) -> type[_RecordingPool]:
    _RecordingPool.orders = []
    monkeypatch.setattr(runner, "ProcessPoolExecutor", _RecordingPool)
    return _RecordingPool


def test_small_runs_stay_in_process(tmp_path: Path, pool: type[_RecordingPool]) -> None:
    paths = [write(tmp_path, f"m{index}.py", BUGGY) for index in range(12)]
    results = runner.run_tasks(_tasks(paths), jobs=2)
    assert pool.orders == []
    assert all(result.reported for result in results)


def test_files_without_a_backward_call_never_reach_the_pool(
    tmp_path: Path, pool: type[_RecordingPool]
) -> None:
    filler = "x = 1  # backward_hook\n" * 20_000  # large, but the pre-filter answers it
    paths = [write(tmp_path, f"big{index}.py", filler) for index in range(3)]
    paths.append(write(tmp_path, "loop.py", BUGGY))
    results = runner.run_tasks(_tasks(paths), jobs=2)
    assert pool.orders == []
    assert [bool(result.reported) for result in results] == [False, False, False, True]


def test_large_runs_use_the_pool_biggest_first(tmp_path: Path, pool: type[_RecordingPool]) -> None:
    padding = "\n".join(f"def unrelated_{index}():\n    return {index}\n" for index in range(900))
    sizes = {"small.py": 1, "large.py": 6, "medium.py": 3}
    paths = [write(tmp_path, name, BUGGY + padding * copies) for name, copies in sizes.items()]
    results = runner.run_tasks(_tasks(paths), jobs=2)
    assert pool.orders == [["large.py", "medium.py", "small.py"]]
    assert [result.path for result in results] == ["large.py", "medium.py", "small.py"]
    assert all(result.reported for result in results)


def test_a_run_needing_no_parse_does_not_import_libcst(tmp_path: Path) -> None:
    # large enough to be split (small files are parsed whole): no statement is seeded
    filler = "".join(f"def f{index}():\n    return {index}\n\n\n" for index in range(900))
    write(tmp_path, "doc.py", '"""Call ``loss.backward()`` first."""\n' + filler)
    write(tmp_path, "hooks.py", "m.register_full_backward_hook(h)\n")
    write(tmp_path, "plain.py", "print('hello')\n")
    program = (
        "import sys\n"
        "from zerograd_guard.lint.cli import main\n"
        "code = main(['--no-cache', '-j', '2', '.'])\n"
        "print(code, 'libcst' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        check=True,
    )
    assert done.stdout.split()[-2:] == ["0", "False"]
