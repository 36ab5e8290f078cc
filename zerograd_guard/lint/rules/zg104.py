"""ZG104: another model's backward leaks gradients into this optimizer's step."""

from __future__ import annotations

from collections.abc import Iterator

from zerograd_guard.codes import CODES
from zerograd_guard.lint.findings import Finding
from zerograd_guard.lint.model.analysed import AnalyzedModule
from zerograd_guard.lint.model.events import Event
from zerograd_guard.lint.rules.base import Rule, optimizer_label


class GradientsLeakAcrossModels(Rule):
    code = "ZG104"
    name = CODES["ZG104"].name
    summary = CODES["ZG104"].summary
    explanation = """\
Gradients live on parameters. When one model's loss is computed through another model
without `detach()` — a GAN generator's loss through the discriminator — its backward also
writes gradients into the *other* model's parameters. If that other model's gradients are
cleared only after its own step (or not at all between), its next step applies the
generator-loss gradients together with its own: the discriminator is pushed by a loss it
was never meant to minimise.

The finding is reported at the backward that writes into the other model; the message
names the optimizer that later applies those gradients and the lines involved.

**Fix**: clear the other optimizer right before its own backward (e.g.
`opt_d.zero_grad()` at the start of the discriminator's update), or freeze that model
during the generator step (`netD.requires_grad_(False)`), or compute the generator's loss
through a frozen copy.

The check needs positive knowledge: the optimizers' parameters must come from
`m.parameters()` of modules the file names, and the loss must be traced to a call of the
other model. A file that may freeze that model anywhere (`requires_grad_(False)`, a flag
that is not a constant; a frozen part of it counts, as it may be all of it) is not judged
for it; turning gradients on is no freeze. A loss both optimizers are cleared for right before its
backward is meant for both models (BicycleGAN's encoder and generator): the second one
stepping it with an extra loss of its own applies nothing twice. Two optimizers that
share a module (an encoder under two heads) do not leak through it when one of them
clears it before the other's backward: what the other one holds is no longer known to
be the first loss's.
"""
    VALID = (
        """\
opt_d = torch.optim.Adam(netD.parameters())
opt_g = torch.optim.Adam(netG.parameters())
for real in loader:
    opt_d.zero_grad()
    fake = netG(noise())
    loss_d = criterion(netD(real), ones) + criterion(netD(fake.detach()), zeros)
    loss_d.backward()
    opt_d.step()
    opt_g.zero_grad()
    loss_g = criterion(netD(fake), ones)
    loss_g.backward()
    opt_g.step()
""",
        """\
opt_d = torch.optim.Adam(netD.parameters())
opt_g = torch.optim.Adam(netG.parameters())
for real in loader:
    fake = netG(noise())
    loss_d = criterion(netD(real), ones) + criterion(netD(fake.detach()), zeros)
    loss_d.backward()
    opt_d.step()
    opt_d.zero_grad()
    netD.requires_grad_(False)
    loss_g = criterion(netD(fake), ones)
    loss_g.backward()
    opt_g.step()
    opt_g.zero_grad()
    netD.requires_grad_(True)
""",
        """\
opt_e = torch.optim.Adam(encoder.parameters())
opt_g = torch.optim.Adam(generator.parameters())
for real in loader:
    opt_e.zero_grad()
    opt_g.zero_grad()
    loss_ge = criterion(generator(encoder(real)), real)
    loss_ge.backward()
    opt_e.step()
    loss_latent = criterion(encoder(generator(noise())), noise())
    loss_latent.backward()
    opt_g.step()
""",
        """\
opt_1 = torch.optim.Adam([*encoder.parameters(), *head_1.parameters()])
opt_2 = torch.optim.Adam([*encoder.parameters(), *head_2.parameters()])
for x, y_1, y_2 in loader:
    loss_1 = criterion(head_1(encoder(x)), y_1)
    loss_1.backward()
    opt_1.step()
    opt_1.zero_grad()
    loss_2 = criterion(head_2(encoder(x)), y_2)
    loss_2.backward()
    opt_2.step()
    opt_2.zero_grad()
""",
    )
    INVALID = (
        """\
opt_d = torch.optim.Adam(netD.parameters())
opt_g = torch.optim.Adam(netG.parameters())
for real in loader:
    fake = netG(noise())
    loss_d = criterion(netD(real), ones) + criterion(netD(fake.detach()), zeros)
    loss_d.backward()
    opt_d.step()
    opt_d.zero_grad()
    loss_g = criterion(netD(fake), ones)
    loss_g.backward()  # expect: ZG104
    opt_g.step()
    opt_g.zero_grad()
""",
    )

    def check(self, model: AnalyzedModule) -> Iterator[Finding]:
        uncleared = {key for _, key in model.observations.leaks}
        for (backward, key), pairs in model.observations.cross_leaks.items():
            if key in uncleared:
                continue  # ZG101 reports that this optimizer is not cleared between steps
            model.positions.compute([backward.node, *(e.node for pair in pairs for e in pair)])
            step, consumer = min(pairs, key=lambda pair: _lines(model, pair))
            label = optimizer_label(key)
            modules = _modules(model, key)
            step_line = model.line(step.node)
            when = " of the next iteration" if step_line < model.line(backward.node) else ""
            message = (
                f"gradients leak across models: this backward() also writes the gradients of "
                f"{modules}, which {label} steps; {_consumer_label(consumer)} applies this "
                f"loss at line {model.line(consumer.node)}, and {label} applies it again with "
                f"its own gradients at line {step_line}{when}"
            )
            hint = (
                f"Clear {label} right before its own backward, or freeze {modules} during this step"
            )
            yield model.finding(self.code, message, backward.node, hint=hint)


def _lines(model: AnalyzedModule, pair: tuple[Event, Event]) -> tuple[int, int]:
    return (model.line(pair[0].node), model.line(pair[1].node))


def _modules(model: AnalyzedModule, key: str) -> str:
    tie = model.model.ties.get(key)
    if not tie:
        return "its model"
    return ", ".join(f"`{module}`" for module in sorted(tie))


def _consumer_label(consumer: Event) -> str:
    """The optimizer whose step at ``consumer`` the leaking loss was meant for."""
    keys = [key for key in consumer.optimizers if key != "*"]
    return optimizer_label(keys[0]) if keys else "another optimizer"
