"""ZG101: gradients are not cleared between optimizer steps."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from zerograd_guard.codes import CODES
from zerograd_guard.lint.findings import Finding, Fix
from zerograd_guard.lint.fixes import insert_clear_after_step
from zerograd_guard.lint.model.analysed import AnalyzedModule
from zerograd_guard.lint.model.events import ALL, HANDED_OVER, Event
from zerograd_guard.lint.rules.base import Rule, optimizer_label
from zerograd_guard.lint.testing import Invalid

if TYPE_CHECKING:
    from zerograd_guard.lint.model.program import FunctionModel


class GradientsNotCleared(Rule):
    code = "ZG101"
    name = CODES["ZG101"].name
    summary = CODES["ZG101"].summary
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
step runs on every iteration is still this bug. When another model's loss also writes
these gradients (a generator loss through an undetached discriminator), a clear after
the step would leave that leak for the next step: clear right before this optimizer's
own backward instead (no automatic fix is offered then).

The same holds without an optimizer when a loop reads the gradients: an importance or
Fisher estimate (EWC, MAS), or per-sample gradients, that adds what each iteration reads
of `.grad` to a total needs a clear before each iteration's backward, or the total
counts every earlier iteration's gradients again. Reading once after the loop, or
overwriting instead of summing, is a deliberate sum and is not reported.
"""
    fix_description = (
        "Safe: insert `<optimizer>.zero_grad()` on the line after the step, in the same block, "
        "when the step and the backward are in the same function and no other model's loss "
        "writes these gradients."
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
        """\
for x, y in loader:
    loss = criterion(model(x), y)
    loss.backward()
    optimizer.step()
    for p in model.parameters():
        p.grad.mul_(momentum)  # decayed on purpose: carried into the next step
""",
        """\
from mxnet import autograd  # MXNet: its backward overwrites gradients, nothing to clear

for x, y in loader:
    with autograd.record():
        loss = loss_fn(net(x), y)
    loss.backward()
    optimizer.step(batch_size)
""",
        """\
fisher = {name: torch.zeros_like(p) for name, p in model.named_parameters()}
for x, y in loader:
    model.zero_grad()
    criterion(model(x), y).backward()
    for name, p in model.named_parameters():
        fisher[name] += p.grad ** 2 / len(loader)
""",
    )
    INVALID = (
        Invalid(
            """\
for x, y in loader:
    loss = criterion(model(x), y)
    loss.backward()  # expect: ZG101
    optimizer.step()
""",
            fixed="""\
for x, y in loader:
    loss = criterion(model(x), y)
    loss.backward()  # expect: ZG101
    optimizer.step()
    optimizer.zero_grad()
""",
        ),
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
        """\
optimizer = torch.optim.Adam(itertools.chain(encoder.parameters(), decoder.parameters()))
for x in loader:
    encoder.zero_grad()  # the optimizer also steps the decoder
    loss = criterion(decoder(encoder(x)), x)
    loss.backward()  # expect: ZG101
    optimizer.step()
""",
        """\
criterion(model(x0), y0).backward()  # expect: ZG101
assert all(p.grad is not None for p in model.parameters())
for x, y in loader:
    criterion(model(x), y).backward()
    optimizer.step()
    optimizer.zero_grad()
""",
        """\
for step, (x, y) in enumerate(loader):
    optimizer = torch.optim.SGD(model.parameters(), lr=schedule(step))  # keeps .grad
    loss = criterion(model(x), y)
    loss.backward()  # expect: ZG101
    optimizer.step()
""",
        """\
model = Net()
reference = copy.deepcopy(model)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
criterion = torch.nn.MSELoss()
for x, y in loader:
    criterion(reference(x), y).backward()  # the copy's gradients, not the optimizer's
    loss = criterion(model(x), y)
    loss.backward()  # expect: ZG101
    optimizer.step()
""",
        """\
fisher = {name: torch.zeros_like(p) for name, p in model.named_parameters()}
for x, y in loader:
    criterion(model(x), y).backward()  # expect: ZG101
    for name, p in model.named_parameters():
        fisher[name] += p.grad ** 2 / len(loader)
""",
    )

    def check(self, model: AnalyzedModule) -> Iterator[Finding]:
        by_backward: dict[Event, list[tuple[str, set[Event]]]] = {}
        for (backward, key), steps in model.observations.leaks.items():
            by_backward.setdefault(backward, []).append((key, steps))
        reported = set(by_backward)
        yield from _early(model, reported)
        yield from _stale_reads(model, reported)
        yield from _summed_reads(model, reported)
        if not by_backward:
            return
        leak_sites = model.observations.leak_sites
        # optimizers another model's loss also leaks into (ZG104 holds back while this
        # reports them): a clear after the step would leave that leak
        leaked_into = {key for _, key in model.observations.cross_leaks}
        model.positions.compute(
            [
                node
                for backward, leaks in by_backward.items()
                for node in (backward.node, *(s.node for _, steps in leaks for s in steps))
            ]
            + [site.node for site in leak_sites.values()]
            + [site.node for site in model.observations.applied_sites.values()]
        )
        # where several backwards of another module's code are reported at one call, the
        # last one written there names it (the nearest its step), whatever the order the
        # flow check met them in
        ordered = sorted(
            by_backward.items(),
            key=lambda item: (model.line(item[0].node), -model.own_line(item[0])),
        )
        for backward, leaks in ordered:
            line = model.line(backward.node)

            def nearest(step: Event, line: int = line, backward: Event = backward) -> tuple:
                """Same function first, then the closest line; on a tie the later step
                (the loop's own step, not one before the loop)."""
                step_line = model.line(step.node)
                return (step.function is not backward.function, abs(step_line - line), -step_line)

            key, steps = min(leaks, key=lambda leak: (min(map(nearest, leak[1])), leak[0]))
            step = min(steps, key=nearest)
            label = optimizer_label(key)
            # another module's helper: the call it leaked under, if known
            site = leak_sites.get((backward, key))
            call = None if site is None else site.node
            applied = model.observations.applied_sites.get((backward, key, step))
            step_place = model.place(step.node, call or (applied and applied.node))
            subject = "this backward()"
            if model.is_foreign(backward.node):
                subject = f"the backward() at {model.place(backward.node, call)}"
            message = (
                f"gradients are not cleared between optimizer steps: {subject} adds onto "
                f"gradients that {label} already applied at {step_place}, so the next step "
                f"applies them again"
                f"{_partial_note(model, key, backward)}{_rebuilt_note(model, key, backward)}"
            )
            if step.closure_repeats:
                message += (
                    " (LBFGS runs the closure again after each update within one step: "
                    "clear at the start of the closure)"
                )
            inert = _inert_clear(model, key, backward)
            if step.callee_name == HANDED_OVER:
                yield _handed_over(model, self.code, backward, step, step_place, subject, call)
                continue
            if inert is not None:
                clear, method = inert
                method_place = model.definition_place(method)
                message += (
                    f" (`{model.code(clear.node)}` at line {model.line(clear.node)} runs "
                    f"`{method.qualname}` at {method_place}, which clears nothing)"
                )
                hint = (
                    f"Make `{method.qualname}` at {method_place} clear the gradients (call "
                    f"`zero_grad()` of the optimizer it wraps)"
                )
                fix = None
            elif key in leaked_into:
                hint = (
                    f"Call `{_clear_call(key)}` right before this backward(): another model's "
                    f"loss also writes these gradients, which a clear after the step at "
                    f"{step_place} would leave for this step"
                )
                fix = None
            else:
                hint = f"Call `{_clear_call(key)}` right after the step at {step_place}"
                fix = _fix(model, backward, steps)
            yield model.finding(self.code, message, call or backward.node, fix, hint)


def _handed_over(
    model: AnalyzedModule,
    code: str,
    backward: Event,
    step: Event,
    step_place: str,
    subject: str,
    call: object,
) -> Finding:
    """The leak of gradients handed to another model's parameters (an A3C worker's
    ``shared_param._grad = local_param.grad``): the other model's optimizer clears its own
    gradients by setting them to None, which leaves the handed-over tensors as they are."""
    owner = step.modules[0] if step.modules else step.optimizers[0].removesuffix(".grad")
    message = (
        f"gradients are not cleared between optimizer steps: {subject} adds onto the "
        f"gradients of `{owner}` that {step_place} hands to another model's parameters, "
        f"whose step already applied them; that optimizer's `zero_grad()` sets its own "
        f"gradients to None and leaves these"
    )
    hint = (
        f"Call `{owner}.zero_grad()` right before this backward() (since PyTorch 2.0 "
        f"`zero_grad()` sets gradients to None instead of zeroing the handed-over tensors)"
    )
    return model.finding(code, message, call or backward.node, None, hint)


def _early(model: AnalyzedModule, reported: set[Event]) -> Iterator[Finding]:
    """Backwards before a loop whose first step applies them with its own gradients."""
    for (backward, key), steps in model.observations.early_backwards.items():
        if backward in reported:
            continue
        reported.add(backward)
        model.positions.compute([backward.node, *(step.node for step in steps)])
        step_line = min(model.line(step.node) for step in steps)
        label = optimizer_label(key)
        message = (
            f"gradients are not cleared between optimizer steps: nothing clears what this "
            f"backward() writes before the loop's first step at line {step_line}, so "
            f"{label} {'apply' if key == ALL else 'applies'} it together with the first "
            f"batch's gradients"
        )
        hint = f"Clear the gradients before the loop: call `{_clear_call(key)}`"
        yield model.finding(GradientsNotCleared.code, message, backward.node, hint=hint)


def _stale_reads(model: AnalyzedModule, reported: set[Event]) -> Iterator[Finding]:
    """Backwards whose gradients are read, not stepped, on top of a step's."""
    for (backward, key), pairs in model.observations.stale_reads.items():
        if backward in reported:
            continue
        reported.add(backward)
        model.positions.compute([backward.node, *(e.node for pair in pairs for e in pair)])
        read, step = min(pairs, key=lambda pair: model.line(pair[0].node))
        message = (
            f"gradients are not cleared between optimizer steps: this backward() adds onto "
            f"gradients that {optimizer_label(key)} already applied at line "
            f"{model.line(step.node)}, so the read of `.grad` at line {model.line(read.node)} "
            f"sees their sum, not this backward's gradients"
        )
        hint = f"Clear the gradients right before this backward(): call `{_clear_call(key)}`"
        yield model.finding(GradientsNotCleared.code, message, backward.node, hint=hint)


def _summed_reads(model: AnalyzedModule, reported: set[Event]) -> Iterator[Finding]:
    """Backwards of a loop whose reads of ``.grad`` are summed across its iterations."""
    for backward, (read, loop) in model.observations.summed_reads.items():
        if backward in reported:
            continue
        reported.add(backward)
        model.positions.compute([backward.node, read.node, loop.node])
        module = read.modules[0]
        message = (
            f"gradients are not cleared between iterations: this backward() adds onto the "
            f"gradients of the previous iteration of the loop at line {model.line(loop.node)}, "
            f"so the read of `.grad` at line {model.line(read.node)}, summed over the "
            f"iterations, counts them again"
        )
        hint = f"Clear the gradients right before this backward(): call `{module}.zero_grad()`"
        yield model.finding(GradientsNotCleared.code, message, backward.node, hint=hint)


def _fix(model: AnalyzedModule, backward: Event, steps: set[Event]) -> Fix | None:
    """Insert a clear after every step the backward leaks from (all in its function)."""
    fixes = [insert_clear_after_step(model, backward, step) for step in steps]
    if not fixes or any(fix is None for fix in fixes):
        return None
    edits = tuple(sorted({edit for fix in fixes if fix for edit in fix.edits}))
    return Fix(description=fixes[0].description, edits=edits)  # type: ignore[union-attr]


def _partial_note(model: AnalyzedModule, key: str, backward: Event) -> str:
    """Why a clear in the backward's function does not count: it covers only some of the
    modules the optimizer steps."""
    partial = {
        clear: left
        for clear, left in model.observations.partial_clears.get(key, {}).items()
        if clear.function is backward.function
    }
    if not partial:
        return ""
    model.positions.compute([clear.node for clear in partial])
    clear = min(partial, key=lambda event: model.line(event.node))
    left = ", ".join(f"`{module}`" for module in sorted(partial[clear]))
    return (
        f" (the clear at line {model.line(clear.node)} covers only part of what "
        f"{optimizer_label(key)} steps: the gradients of {left} are never cleared)"
    )


def _rebuilt_note(model: AnalyzedModule, key: str, backward: Event) -> str:
    rebuilt = [
        event
        for event in model.model.rebuilt_optimizers.get(key, ())
        if event.function is backward.function
    ]
    if not rebuilt:
        return ""
    model.positions.compute([event.node for event in rebuilt])
    line = min(model.line(event.node) for event in rebuilt)
    return f" (building a new optimizer at line {line} does not clear the gradients)"


def _inert_clear(
    model: AnalyzedModule, key: str, backward: Event
) -> tuple[Event, FunctionModel] | None:
    """The first ``zero_grad()`` call of the backward's function that runs a method
    clearing nothing (``extract.inert_methods``), with that method."""
    calls = [
        (clear, method)
        for clear, method in model.model.inert_clears.get(key, ())
        if clear.function is backward.function
    ]
    if not calls:
        return None
    model.positions.compute([clear.node for clear, _ in calls])
    return min(calls, key=lambda call: model.line(call[0].node))


def _clear_call(key: str) -> str:
    if key in ("*", "<manual>"):
        return "optimizer.zero_grad()"
    if key.endswith(".grad"):
        return f"{key} = None"
    return f"{key.rsplit(':', 1)[-1]}.zero_grad()"
