"""Random sequences of clears, backward passes and steps, judged by the guard and by an
oracle that tracks what each gradient holds. The guard (warn mode, so every step runs)
must never crash, and must report exactly the violations the oracle predicts, at the
same steps — no false alarm on any legitimate sequence, no missed bug.
"""

from __future__ import annotations

import warnings

import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.hardening.runtime.helpers import batch, make_model, monitor_is_idle, play_event
from zerograd_guard.runtime import GradientGuardWarning, guard

EVENTS = [
    "clear",  # optimizer.zero_grad()
    "clear_keep",  # optimizer.zero_grad(set_to_none=False): zeroed in place
    "module_clear",  # model.zero_grad()
    "backward",
    "backward_clip",  # backward, then clip_grad_norm_ (a legitimate in-place edit)
    "grad_only",  # torch.autograd.grad: nothing accumulates
    "step",
]


def oracle(events: list[str]) -> list[tuple[int, str]]:
    """(step number, rule) for every step that the gradient contents make a violation.

    ``applied``: the gradients still hold what the previous step applied (no clear since);
    ``fresh``: backward passes since the last clear or step; ``discarded``: passes since the
    previous step that a clear threw away. Every backward reaches every parameter.
    """
    applied = fresh = discarded = 0
    has_grad = False
    found = []
    steps = 0
    for event in events:
        if event == "grad_only":
            continue
        if event.startswith("backward"):
            fresh += 1
            has_grad = True
        elif event == "step":
            steps += 1
            if applied and fresh:
                found.append((steps, "ZG101"))  # accumulated onto the applied gradients
            elif not fresh and discarded:
                found.append((steps, "ZG102"))  # everything since the last step was cleared
            elif not fresh and applied:
                found.append((steps, "ZG102"))  # stepping the same gradients again
            applied = has_grad
            fresh = discarded = 0
        else:  # a clear: set to None, zeroed in place, or through the module
            discarded += fresh
            fresh = applied = 0
            has_grad = False
    return found


def run_guarded(events: list[str], optimizer: str) -> list[tuple[int, str]]:
    model, x = make_model(), batch()
    opt = (
        torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
        if optimizer == "sgd"
        else torch.optim.Adam(model.parameters(), lr=1e-3, foreach=True)
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", GradientGuardWarning)
        with guard("warn") as session:
            for event in events:
                play_event(event, model, opt, x)
    return [(f.step, f.code) for f in session.report.violations]


@settings(
    max_examples=100,
    deadline=None,
    derandomize=True,  # the same examples on every run: a CI failure is reproducible
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    events=st.lists(st.sampled_from(EVENTS), min_size=1, max_size=14),
    optimizer=st.sampled_from(["sgd", "adam-foreach"]),
)
def test_guard_matches_the_oracle_on_random_loops(events, optimizer):
    # Start with a clear: the guard meets the optimizer there and watches from then on.
    events = ["clear", *events]
    assert run_guarded(events, optimizer) == oracle(events)
    assert monitor_is_idle()


def test_oracle_knows_the_bug_shapes():
    """The oracle itself, on loops whose verdict is not in doubt."""
    correct = ["clear", "backward", "step"] * 3
    accumulation = ["clear", "backward", "backward", "step"] * 2
    missing_clear = ["clear", "backward", "step", "backward", "step"]
    cleared_between = ["clear", "backward", "step", "backward", "clear", "step"]
    repeated = ["clear", "backward", "step", "step"]
    assert oracle(correct) == oracle(accumulation) == []
    assert oracle(missing_clear) == [(2, "ZG101")]
    assert oracle(cleared_between) == [(2, "ZG102")]
    assert oracle(repeated) == [(2, "ZG102")]
