"""``lint.forked.map_forked``: the results of the serial loop, in order, from forked
workers; the work stays in this process where it cannot fork or a worker dies."""

from __future__ import annotations

import os

import pytest

from zerograd_guard.lint import forked

pytestmark = pytest.mark.skipif(not forked.can_fork(), reason="workers are not forked here")


@pytest.fixture(autouse=True)
def few_items_are_enough(monkeypatch):
    monkeypatch.setattr(forked, "MIN_ITEMS", 2)


def test_results_come_back_in_order_from_the_workers():
    parent = os.getpid()
    items = [f"item {index}" for index in range(50)]  # inherited, never sent
    results = forked.map_forked(lambda index: (items[index], os.getpid()), len(items), jobs=2)
    assert [item for item, _ in results] == items
    assert {pid for _, pid in results} - {parent}  # the work was done elsewhere


def test_one_job_or_one_item_runs_here():
    parent = os.getpid()
    assert forked.map_forked(lambda index: os.getpid(), 5, jobs=1) == [parent] * 5
    assert forked.map_forked(lambda index: os.getpid(), 1, jobs=4) == [parent]


def test_below_the_threshold_the_work_runs_here(monkeypatch):
    monkeypatch.setattr(forked, "MIN_ITEMS", 11)
    parent = os.getpid()
    assert forked.map_forked(lambda index: os.getpid(), 10, jobs=2) == [parent] * 10


def test_without_fork_the_work_runs_here(monkeypatch):
    monkeypatch.setattr(forked, "can_fork", lambda: False)
    parent = os.getpid()
    assert forked.map_forked(lambda index: os.getpid(), 10, jobs=2) == [parent] * 10


def test_a_worker_that_dies_leaves_the_work_to_this_process():
    parent = os.getpid()

    def work(index: int) -> int:
        if os.getpid() != parent:
            os._exit(1)  # as if killed
        return index * index

    assert forked.map_forked(work, 20, jobs=2) == [index * index for index in range(20)]
