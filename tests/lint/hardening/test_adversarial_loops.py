"""Loop shapes from the adversarial round of issue 12."""

from __future__ import annotations

import textwrap

from zerograd_guard.lint.analyze import analyze_source

LOOP = textwrap.dedent(
    """\
    import torch

    model = torch.nn.Linear(4, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        loss = torch.nn.functional.mse_loss(model(x), y)
        {backward}
        optimizer.step()
    """
)


def _codes(backward: str) -> list[tuple[str, int]]:
    return [(f.code, f.line) for f in analyze_source(LOOP.format(backward=backward))]


def test_backward_through_an_immediately_called_lambda_is_seen():
    assert _codes("(lambda l: l.backward())(loss)") == [("ZG101", 7)]


def test_a_lambda_that_is_only_defined_runs_nothing():
    assert _codes("run = lambda l: l.backward()") == []
