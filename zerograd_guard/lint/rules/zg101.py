"""ZG101: gradients are not cleared between optimizer steps."""

from __future__ import annotations

from collections.abc import Iterator

from zerograd_guard.lint.findings import Finding, Fix
from zerograd_guard.lint.fixes import insert_clear_after_step
from zerograd_guard.lint.model.analysed import AnalyzedModule
from zerograd_guard.lint.model.events import Event
from zerograd_guard.lint.rules.base import Rule, optimizer_label


class GradientsNotCleared(Rule):
    code = "ZG101"
    name = "gradients-not-cleared"
    summary = "Gradients are not cleared between optimizer steps"
    explanation = """\
PyTorch adds every `backward()` into `.grad`. When nothing clears the gradients between
two `step()` calls, the second step applies the previous iteration's gradients again,
plus the new ones: the effective learning rate grows with every iteration and training
silently diverges or stalls.

The finding is reported at the `backward()` call that adds onto gradients a step already
applied, and names the optimizer and the line of that step.

**Fix**: clear once per step — call `optimizer.zero_grad()` right after
`optimizer.step()` (this also keeps gradient accumulation with
`if (i + 1) % k == 0:` correct), or at the start of each iteration before `backward()`.
A clear that runs only on some iterations (`if i % 10 == 0: zero_grad()`) while the
step runs on every iteration is still this bug.
"""
    fix_description = (
        "Safe: insert `<optimizer>.zero_grad()` on the line after the step, in the same block, "
        "when the step and the backward are in the same function."
    )
    VALID = (
        """\
for x, y in loader:
    optimizer.zero_grad()
    loss = criterion(model(x), y)
    loss.backward()
    optimizer.step()
""",
        """\
optimizer.zero_grad()
for x, y in loader:
    loss = criterion(model(x), y)
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
""",
        """\
for i, (x, y) in enumerate(loader):
    loss = criterion(model(x), y) / accumulation_steps
    loss.backward()
    if (i + 1) % accumulation_steps == 0:
        optimizer.step()
        optimizer.zero_grad()
""",
        """\
for i, (x, y) in enumerate(loader):
    if i % accumulation_steps == 0:
        optimizer.zero_grad()
    loss = criterion(model(x), y)
    loss.backward()
    if (i + 1) % accumulation_steps == 0:
        optimizer.step()
""",
        """\
step = 0
for x, y in loader:
    if step % accumulation_steps == 0:
        optimizer.zero_grad()
    loss = criterion(model(x), y)
    loss.backward()
    step += 1
    if step % accumulation_steps == 0:
        optimizer.step()
""",
        """\
for x, y in loader:
    model.zero_grad()
    loss = criterion(model(x), y)
    loss.backward()
    optimizer.step()
""",
        """\
def closure():
    optimizer.zero_grad()
    loss = criterion(model(x), y)
    loss.backward()
    return loss

for x, y in loader:
    optimizer.step(closure)
""",
    )
    INVALID = (
        """\
for x, y in loader:
    loss = criterion(model(x), y)
    loss.backward()  # expect: ZG101
    optimizer.step()
""",
        """\
optimizer.zero_grad()
for x, y in loader:
    loss = criterion(model(x), y)
    loss.backward()  # expect: ZG101
    optimizer.step()
""",
        """\
for i, (x, y) in enumerate(loader):
    if i % 10 == 0:
        optimizer.zero_grad()
    loss = criterion(model(x), y)
    loss.backward()  # expect: ZG101
    optimizer.step()
""",
        """\
optimizer_g = torch.optim.Adam(netG.parameters())
optimizer_d = torch.optim.Adam(netD.parameters())
for real in loader:
    netD.zero_grad()
    loss_d = d_loss(netD, netG, real)
    loss_d.backward()
    optimizer_d.step()
    loss_g = g_loss(netD, netG)
    loss_g.backward()  # expect: ZG101
    optimizer_g.step()
""",
    )

    def check(self, model: AnalyzedModule) -> Iterator[Finding]:
        by_backward: dict[Event, list[tuple[str, set[Event]]]] = {}
        for (backward, key), steps in model.observations.leaks.items():
            by_backward.setdefault(backward, []).append((key, steps))
        if not by_backward:
            return
        model.positions.compute(
            [
                node
                for backward, leaks in by_backward.items()
                for node in (backward.node, *(s.node for _, steps in leaks for s in steps))
            ]
        )
        for backward, leaks in by_backward.items():
            line = model.line(backward.node)

            def nearest(step: Event, line: int = line, backward: Event = backward) -> tuple:
                """Same function first, then the closest line; on a tie the later step
                (the loop's own step, not one before the loop)."""
                step_line = model.line(step.node)
                return (step.function is not backward.function, abs(step_line - line), -step_line)

            key, steps = min(leaks, key=lambda leak: (min(map(nearest, leak[1])), leak[0]))
            step = min(steps, key=nearest)
            label = optimizer_label(key)
            step_place = model.place(step.node)
            subject = "this backward()"
            if model.is_foreign(backward.node):
                subject = f"the backward() at {model.place(backward.node)}"
            message = (
                f"gradients are not cleared between optimizer steps: {subject} adds onto "
                f"gradients that {label} already applied at {step_place}, so the next step "
                f"applies them again; clear them once per step, e.g. call "
                f"`{_clear_call(key)}` right after the step at {step_place}"
            )
            yield model.finding(self.code, message, backward.node, _fix(model, backward, steps))


def _fix(model: AnalyzedModule, backward: Event, steps: set[Event]) -> Fix | None:
    """Insert a clear after every step the backward leaks from (all in its function)."""
    fixes = [insert_clear_after_step(model, backward, step) for step in steps]
    if not fixes or any(fix is None for fix in fixes):
        return None
    edits = tuple(sorted({edit for fix in fixes if fix for edit in fix.edits}))
    return Fix(description=fixes[0].description, edits=edits)  # type: ignore[union-attr]


def _clear_call(key: str) -> str:
    if key in ("*", "<manual>"):
        return "optimizer.zero_grad()"
    if key.endswith(".grad"):
        return f"{key} = None"
    return f"{key.rsplit(':', 1)[-1]}.zero_grad()"
