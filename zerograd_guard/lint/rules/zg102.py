"""ZG102: the step sees no fresh gradients."""

from __future__ import annotations

from collections.abc import Iterator

from zerograd_guard.codes import CODES
from zerograd_guard.lint.findings import Finding
from zerograd_guard.lint.fixes import move_clears_after_step
from zerograd_guard.lint.model.analysed import AnalyzedModule
from zerograd_guard.lint.model.events import Event
from zerograd_guard.lint.model.status_kind import StatusKind
from zerograd_guard.lint.rules.base import Rule, optimizer_label
from zerograd_guard.lint.testing import Invalid

# What a step may see on every path for ZG102: nothing it could learn from.
_NOTHING_FRESH = frozenset({StatusKind.CLEARED, StatusKind.DISCARDED, StatusKind.ENTRY})


class StepWithoutFreshGradients(Rule):
    code = "ZG102"
    name = CODES["ZG102"].name
    summary = CODES["ZG102"].summary
    explanation = """\
`optimizer.step()` applies whatever is in `.grad` at that moment. When the gradients are
cleared between `backward()` and `step()` — or the step runs before the backward of its
iteration, right after a clear — the step sees zeros (or `None`): the parameters do not
learn from the data at all, while the loss computation still runs and nothing fails.

The finding is reported at the step; the message names the clear that discarded the
gradients.

**Fix**: order each iteration as clear → backward → step, or backward → step → clear.
Moving the clear to right after the step is always correct.
"""
    fix_description = (
        "Safe: move the clear to the line after the step when both are whole lines of the "
        "same block."
    )
    VALID = (
        """\
for x, y in loader:
    loss = criterion(model(x), y)
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
""",
        """\
for x, y in loader:
    optimizer.zero_grad()
    loss = criterion(model(x), y)
    loss.backward()
    optimizer.step()
""",
        """\
for x, y in loader:
    loss = criterion(model(x), y)
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()
    optimizer.zero_grad(set_to_none=True)
""",
        """\
for x, y in loader:
    task_grads = []
    for loss in task_losses(model(x), y):
        loss.backward()
        task_grads.append(collect_grads(model))
        optimizer.zero_grad()
    set_grads(model, combine(task_grads))
    optimizer.step()
""",
        """\
loss = model(x).sum()
loss.backward()
optimizer.zero_grad()
for p in model.parameters():
    p.grad.fill_(1.0)  # a write, not a clear: the step applies these gradients
optimizer.step()
""",
        """\
optimizer = torch.optim.Adam([*actor.parameters(), *critic.parameters()])
for obs in env:
    optimizer.zero_grad()
    loss = actor_loss(actor(obs)) + critic_loss(critic(obs))
    loss.backward()
    for p in actor.parameters():
        p.grad = None  # the critic's gradients stay: the step applies them
    optimizer.step()
""",
    )
    INVALID = (
        Invalid(
            """\
for x, y in loader:
    loss = criterion(model(x), y)
    loss.backward()
    optimizer.zero_grad()
    optimizer.step()  # expect: ZG102
""",
            fixed="""\
for x, y in loader:
    loss = criterion(model(x), y)
    loss.backward()
    optimizer.step()  # expect: ZG102
    optimizer.zero_grad()
""",
        ),
        """\
for x, y in loader:
    optimizer.zero_grad()
    optimizer.step()  # expect: ZG102
    loss = criterion(model(x), y)
    loss.backward()
""",
        """\
for x, y in loader:
    loss = criterion(model(x), y)
    loss.backward()
    for p in model.parameters():
        p.grad.mul_(0)
    optimizer.step()  # expect: ZG102
""",
    )

    def check(self, model: AnalyzedModule) -> Iterator[Finding]:
        reported: set[Event] = set()
        observations = model.observations
        for (step, key), statuses in observations.step_statuses.items():
            # the gradients a function starts with (a loop's first iteration) say nothing
            # either way; a step that sees a discard on every other path is the bug
            if (
                step in reported
                or StatusKind.DISCARDED not in statuses
                or not statuses <= _NOTHING_FRESH
            ):
                continue
            clears = observations.discards[(step, key)]
            reported.add(step)
            if step in observations.framework:
                yield _before_framework_step(self.code, model, key, clears, step)
                continue
            model.positions.compute([step.node, *(clear.node for clear in clears)])
            clear = min(clears, key=lambda event: model.line(event.node))
            clear_place = model.place(clear.node)
            message = (
                f"the step sees no fresh gradients: the clear at {clear_place} discards the "
                f"gradients of backward() before {optimizer_label(key)} steps, so this step "
                f"applies nothing learned from the batch"
            )
            hint = f"Move the clear at {clear_place} to right after this step, or before backward()"
            fix = move_clears_after_step(model, clears, step)
            yield model.finding(self.code, message, step.node, fix, hint)


def _before_framework_step(
    code: str, model: AnalyzedModule, key: str, clears: set[Event], step: Event
) -> Finding:
    """A clear in a hook between the backward and the step a framework runs around it
    (fastai's ``after_backward``): reported at the clear, the framework's step being in
    no file; no fix, the step has no line to move the clear after."""
    model.positions.compute([clear.node for clear in clears])
    clear = min(clears, key=lambda event: model.line(event.node))
    hook = f" in `{clear.function.name}`" if clear.function is not None else ""
    message = (
        f"the step sees no fresh gradients: this clear{hook} discards the gradients of the "
        f"backward before {optimizer_label(key)} steps ({model.observations.framework[step]}), "
        f"so that step applies nothing learned from the batch"
    )
    hint = "Clear before the backward or after the step, or leave it to the framework"
    return model.finding(code, message, clear.node, None, hint)
