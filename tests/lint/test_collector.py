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
