"""The call-shape pre-filter: a backward name followed by ``(``."""

from __future__ import annotations

import pytest

from zerograd_guard.lint.options import AnalysisOptions
from zerograd_guard.lint.prefilter import may_call_backward

CALLS = (
    "loss.backward()",
    "loss.backward ()",
    "(loss.backward\n    ())",
    "(loss.backward  # why\n ())",
    "(loss.backward \\\n())",
    "(loss.backward\n    # why\n    # and why not\n    ())",
    "self.manual_backward(loss)",
    "torch.autograd.backward(loss)",
    "backward(loss)",
    "def backward(ctx, grad):\n    pass",  # a maybe: `regions` tells it from a call
    'doc = "call loss.backward() here"',  # a maybe: inside a string
)
NOT_CALLS = (
    "module.register_full_backward_hook(hook)",
    "backward_hook = None",
    "x.backward_dtypes = ()",
    "run(backward=True)",
    "# never call backward here\nx = 1",
    "self.backward.cache_clear()",
    "loss.backwards()",
    "optimizer.step()",
    "loss.backward",
    "# run the backward\n# (twice)\nx = 1",
    "x = backward  # note (a)\ny = 2",
)


@pytest.mark.parametrize("text", CALLS)
def test_call_shapes_pass(text: str) -> None:
    assert may_call_backward(text)


@pytest.mark.parametrize("text", NOT_CALLS)
def test_other_uses_of_the_word_do_not(text: str) -> None:
    assert not may_call_backward(text)


def test_configured_backward_names() -> None:
    options = AnalysisOptions(extra_backward_calls=frozenset({"my_bwd"}))
    assert may_call_backward("trainer.my_bwd(loss)", options)
    assert not may_call_backward("trainer.my_bwd(loss)")
    assert not may_call_backward("trainer.my_bwd_hook(loss)", options)
