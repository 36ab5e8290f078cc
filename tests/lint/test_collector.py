"""The linter's run leaves the garbage collector as it found it."""

from __future__ import annotations

import gc

import pytest

from zerograd_guard.lint import collector


def test_thresholds_are_raised_while_linting_and_restored_after():
    before = gc.get_threshold()
    with collector.raised_thresholds():
        assert gc.get_threshold() == collector.RUN_THRESHOLDS
    assert gc.get_threshold() == before


def test_overlapping_runs_in_threads_restore_the_thresholds_once_all_are_done():
    # thread A enters, thread B enters, A leaves first, then B: a save/restore per run
    # would leave RUN_THRESHOLDS behind (B saved A's raised values)
    import threading

    before = gc.get_threshold()
    a_in, b_in, a_out = threading.Event(), threading.Event(), threading.Event()
    seen: list[tuple[int, ...]] = []

    def run_a():
        with collector.raised_thresholds():
            a_in.set()
            b_in.wait(5)
        a_out.set()

    def run_b():
        a_in.wait(5)
        with collector.raised_thresholds():
            b_in.set()
            a_out.wait(5)
            seen.append(gc.get_threshold())  # A is done, B still runs

    threads = [threading.Thread(target=run_a), threading.Thread(target=run_b)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert seen == [collector.RUN_THRESHOLDS]
    assert gc.get_threshold() == before


def test_the_analysis_entry_point_runs_under_the_raised_thresholds(monkeypatch):
    from zerograd_guard.lint import analyze

    seen: list[tuple[int, ...]] = []
    real = analyze.parse_for_analysis

    def spy(source):
        seen.append(gc.get_threshold())
        return real(source)

    monkeypatch.setattr(analyze, "parse_for_analysis", spy)
    before = gc.get_threshold()
    analyze.analyze_source("for x in data:\n    model(x).backward()\n    opt.step()\n")
    assert seen == [collector.RUN_THRESHOLDS]
    assert gc.get_threshold() == before


def test_the_frozen_heap_is_given_back_even_when_the_run_fails():
    frozen_before = gc.get_freeze_count()
    with pytest.raises(RuntimeError), collector.frozen_heap():
        assert gc.get_freeze_count() > frozen_before
        raise RuntimeError("the run failed")
    assert gc.get_freeze_count() == 0


def test_a_project_run_leaves_the_collector_as_it_was(tmp_path, monkeypatch, capsys):
    from zerograd_guard.lint.cli import main

    (tmp_path / "train.py").write_text(
        "for x in data:\n    model(x).backward()\n    opt.step()\n", encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    before = gc.get_threshold()
    assert main(["--no-cache", "-j", "1", "."]) == 1
    assert "ZG101" in capsys.readouterr().out
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_a_host_freeze_is_left_alone():
    gc.freeze()
    frozen = gc.get_freeze_count()
    try:
        with collector.frozen_heap():
            pass
        assert gc.get_freeze_count() == frozen  # not unfrozen behind the host's back
    finally:
        gc.unfreeze()
