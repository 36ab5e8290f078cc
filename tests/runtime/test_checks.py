"""Each named check of the verdict on its own: the scan it reads, the finding it gives."""

from __future__ import annotations

import weakref

import pytest
import torch

from zerograd_guard.runtime import verdict
from zerograd_guard.runtime.param_state import ParamState
from zerograd_guard.runtime.verdict import StepContext, StepScan


@pytest.fixture
def setup():
    weight = torch.nn.Parameter(torch.ones(2))
    weight.grad = torch.ones(2)
    opt = torch.optim.SGD([weight], lr=0.1)
    entry = (weight, ParamState(weight))
    return entry, StepContext(opt, "SGD #1", 3, None)


def test_missing_clear(setup):
    entry, context = setup
    assert verdict.missing_clear(StepScan([entry]), context) is None
    found = verdict.missing_clear(StepScan([entry], contaminated=[entry]), context)
    assert found is not None and found.code == "ZG101" and found.step == 3


def test_cleared_before_step(setup):
    entry, context = setup
    scan = StepScan([entry], discarded=[entry], discarded_passes=2)
    found = verdict.cleared_before_step(scan, context)
    assert found is not None and found.code == "ZG102" and "2 backward pass(es)" in found.detail
    scan.fresh = 1
    assert verdict.cleared_before_step(scan, context) is None


def test_repeated_step_reads_values(setup):
    entry, context = setup
    found = verdict.repeated_step(StepScan([entry], stale=[entry]), context)
    assert found is not None and found.rule.title.startswith("repeated step")
    entry[0].grad.zero_()  # an all-zero stale gradient steps nothing: no finding
    assert verdict.repeated_step(StepScan([entry], stale=[entry]), context) is None


def test_not_observed(setup):
    entry, context = setup
    found = verdict.not_observed(StepScan([entry], changed=True), context)
    assert found is not None and found.code == "unobserved"
    assert verdict.not_observed(StepScan([entry], changed=True, touched=True), context) is None


def test_accumulation_contract(setup):
    entry, context = setup
    entry[1].accumulations = 3
    under = StepContext(context.optimizer, context.label, 1, 2)
    found = verdict.accumulation_contract(StepScan([entry], fresh=1, backward_passes=3), under)
    assert found is not None and found.code == "ZG103" and "accumulate(2)" in found.detail
    met = StepScan([entry], fresh=1, backward_passes=2)
    assert verdict.accumulation_contract(met, under) is None
    assert verdict.accumulation_contract(StepScan([entry], fresh=1), context) is None


def test_discarded_window(setup):
    entry, context = setup
    entry[1].discarded_clean = 1
    scan = StepScan([entry], fresh=1, backward_passes=1, discarded_passes=1, discarded_clean=True)
    found = verdict.discarded_window(scan, context)
    assert found is not None and found.code == "ZG103" and found.parameters == ["<unnamed (2,)>"]
    scan.discarded_clean = False
    assert verdict.discarded_window(scan, context) is None


def test_the_first_finding_ends_judging(setup):
    """A scan that two checks would flag gives one finding, in table order."""
    entry, context = setup
    entry[1].stepped = True
    entry[1].boundary_version = entry[0].grad._version
    entry[1].boundary_grad = weakref.ref(entry[0].grad)
    judgement = verdict.judge_step([entry], context)
    assert [f.code for f in judgement.violations] == ["ZG102"] and not judgement.warnings
    assert [check for check, _ in verdict.CHECKS][:4] == [
        verdict.missing_clear,
        verdict.cross_model_leak,
        verdict.cleared_before_step,
        verdict.repeated_step,
    ]


def test_cross_model_leak(setup):
    entry, context = setup
    found = verdict.cross_model_leak(StepScan([entry], fresh=1, leaked=[entry]), context)
    assert found is not None and found.code == "ZG101" and "another optimizer" in found.rule.title
    under = StepContext(context.optimizer, context.label, 1, 2)
    assert verdict.cross_model_leak(StepScan([entry], fresh=1, leaked=[entry]), under) is None
    assert verdict.cross_model_leak(StepScan([entry], fresh=1), context) is None


def test_short_last_window_accepted_only_when_allowed(setup):
    entry, context = setup
    entry[1].accumulations = 1
    scan = StepScan([entry], fresh=1, backward_passes=1)
    strict = StepContext(context.optimizer, context.label, 1, 2)
    assert verdict.accumulation_contract(scan, strict) is not None
    allowed = StepContext(context.optimizer, context.label, 1, 2, short_window_allowed=True)
    assert verdict.accumulation_contract(scan, allowed) is None
