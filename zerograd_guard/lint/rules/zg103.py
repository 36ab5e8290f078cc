"""ZG103: clearing breaks gradient accumulation."""

from __future__ import annotations

from collections.abc import Iterator

from zerograd_guard.codes import CODES
from zerograd_guard.lint.findings import Finding
from zerograd_guard.lint.model.analysed import AnalyzedModule
from zerograd_guard.lint.model.events import Event
from zerograd_guard.lint.rules.base import Rule, optimizer_label


class ClearBreaksAccumulation(Rule):
    code = "ZG103"
    name = CODES["ZG103"].name
    summary = CODES["ZG103"].summary
    explanation = """\
Gradient accumulation sums the gradients of several micro-batches and steps once per
window (`if (i + 1) % k == 0: optimizer.step()`, an inner micro-batch loop, a `sync`
flag). A clear that runs on every micro-batch before `backward()` throws away what the
previous micro-batches accumulated, so each step sees only the last micro-batch: the
effective batch size silently drops by a factor of `k`.

The same happens when the clear runs under the step's own condition but before the
backward (`if i % k == 0: optimizer.zero_grad()` ... `loss.backward()` ...
`if i % k == 0: optimizer.step()`): on each stepping micro-batch it throws away the
`k - 1` micro-batches accumulated before it. A clear at the window's first micro-batch
(`if i % k == 0:`) with the step at its last (`if (i + 1) % k == 0:`) is right.

The same happens when the clear sits after the step but outside its `if` (dedented one
level too far): it runs on every micro-batch and throws away the gradients that were
meant to accumulate until the window's step.

The finding is reported at the clear.

Inside `with accelerator.accumulate(model):` the prepared optimizer's `zero_grad()` and
`step()` are skipped on the micro-batches that do not sync gradients and run for real on
the one that does. A clear *after* the step inside the block is therefore right; a clear
*before the backward* runs for real on each syncing micro-batch and discards the `k - 1`
micro-batches accumulated before it; `model.zero_grad()` (a module's, not the prepared
optimizer's) runs on every micro-batch.

**Fix**: clear once per window — right after the step, inside the same `if` as the step
(or at the first micro-batch of the window, `if i % k == 0:`); inside
`accelerator.accumulate()`, call the prepared optimizer's `zero_grad()` right after its
`step()`.
"""
    VALID = (
        """\
for i, (x, y) in enumerate(loader):
    loss = criterion(model(x), y) / k
    loss.backward()
    if (i + 1) % k == 0:
        optimizer.step()
        optimizer.zero_grad()
""",
        """\
for x, y in loader:
    with accelerator.accumulate(model):
        loss = criterion(model(x), y)
        accelerator.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
""",
        """\
for batch in loader:
    optimizer.zero_grad()
    for chunk in batch.split(4):
        loss = criterion(model(chunk), chunk)
        loss.backward()
    optimizer.step()
""",
        """\
for i, (x, y) in enumerate(loader):
    if i % k == 0:
        optimizer.zero_grad()
    loss = criterion(model(x), y) / k
    loss.backward()
    if (i + 1) % k == 0:
        optimizer.step()
""",
        """\
for i, (x, y) in enumerate(loader):
    loss = criterion(model(x), y) / k
    loss.backward()
    if i % k == 0:
        optimizer.step()
        optimizer.zero_grad()
""",
    )
    INVALID = (
        """\
for i, (x, y) in enumerate(loader):
    optimizer.zero_grad()  # expect: ZG103
    loss = criterion(model(x), y) / k
    loss.backward()
    if (i + 1) % k == 0:
        optimizer.step()
""",
        """\
for batch in loader:
    for chunk in batch.split(4):
        optimizer.zero_grad()  # expect: ZG103
        loss = criterion(model(chunk), chunk)
        loss.backward()
    optimizer.step()
""",
        """\
for i, (x, y) in enumerate(loader):
    loss = criterion(model(x), y) / k
    loss.backward()
    if (i + 1) % k == 0:
        optimizer.step()
    optimizer.zero_grad()  # expect: ZG103
""",
        """\
for i, (x, y) in enumerate(loader):
    if i % k == 0:
        optimizer.zero_grad()  # expect: ZG103
    loss = criterion(model(x), y) / k
    loss.backward()
    if i % k == 0:
        optimizer.step()
""",
        """\
for x, y in loader:
    with accelerator.accumulate(model):
        optimizer.zero_grad()  # expect: ZG103
        loss = criterion(model(x), y)
        accelerator.backward(loss)
        optimizer.step()
""",
    )

    def check(self, model: AnalyzedModule) -> Iterator[Finding]:
        for clear, (key, loop) in model.observations.broken_windows.items():
            model.positions.compute([clear.node, loop.node])
            loop_line = model.line(loop.node)
            if clear.managed:
                yield model.finding(self.code, _accelerate_message(clear, key), clear.node)
                continue
            if clear in model.observations.gated_clears:
                message = (
                    f"clearing breaks gradient accumulation: this clear runs under the same "
                    f"condition as {optimizer_label(key)}'s step, before the backward, so on "
                    f"each stepping micro-batch it discards the micro-batches accumulated since "
                    f"the last step and every step applies one; clear right after the step "
                    f"instead"
                )
                yield model.finding(self.code, message, clear.node)
                continue
            message = (
                f"clearing breaks gradient accumulation: this clear runs on every iteration of "
                f"the loop at line {loop_line}, but {optimizer_label(key)} steps only on some, "
                f"so it discards the micro-batches accumulated since the last step; clear once "
                f"per window, right after the step"
            )
            yield model.finding(self.code, message, clear.node)


def _accelerate_message(clear: Event, key: str) -> str:
    if clear.optimizers:
        what = (
            "inside `accelerator.accumulate()` this clear runs for real on the micro-batch "
            "that syncs gradients, before its backward"
        )
    else:
        what = (
            "inside `accelerator.accumulate()` a module's `zero_grad()` is not skipped: it "
            "runs on every micro-batch"
        )
    return (
        f"clearing breaks gradient accumulation: {what}, so it discards the micro-batches "
        f"accumulated since {optimizer_label(key)} last stepped; call the prepared "
        f"optimizer's `zero_grad()` right after its `step()` instead"
    )
