"""A loop over a collection of optimizers steps each of them, whichever they are; an
optimizer the same function steps by name is not one of them (lucidrains/audiolm-pytorch's
``SoundStreamTrainer.train_step``: the generator's ``self.optim`` stepped and cleared on
its own, then ``for opt in self.multiscale_discriminator_optim_iter(): opt.step()``).
Read as stepping every optimizer, the discriminators' loop made the generator's
gradients stale and its next backward a false ZG101; the same when the generator's
optimizer is held by a wrapper whose ``step()`` the function calls (audiolm's
``OptimizerWithWarmupSchedule``).

A loop over the optimizers with no clear anywhere still steps stale gradients (ZG101),
and a loop clearing the collection does not clear the optimizer stepped by name."""

import torch
from torch import nn


class Trainer(nn.Module):
    def __init__(self):
        super().__init__()
        self.gen = nn.Linear(4, 4)
        self.disc = nn.Linear(4, 1)
        self.optim = torch.optim.Adam(self.gen.parameters(), lr=1e-3)
        self.dopt = torch.optim.Adam(self.disc.parameters(), lr=1e-3)

    def discr_optims(self):
        return [self.dopt]

    def train_step(self, x):
        self.gen(x).pow(2).mean().backward()
        self.optim.step()
        self.optim.zero_grad()

        for opt in self.discr_optims():
            opt.zero_grad()
        self.disc(x).mean().backward()
        for opt in self.discr_optims():
            opt.step()

    def train_loop(self, batches):
        for x in batches:
            self.train_step(x)


class Warmup:
    """A wrapper of the project: its ``step()`` steps the optimizer it holds."""

    def __init__(self, optimizer):
        self.optimizer = optimizer

    def step(self):
        self.optimizer.step()

    def zero_grad(self):
        self.optimizer.zero_grad()


class WrappedTrainer(nn.Module):
    def __init__(self):
        super().__init__()
        self.gen = nn.Linear(4, 4)
        self.disc = nn.Linear(4, 1)
        self.optim = Warmup(torch.optim.Adam(self.gen.parameters(), lr=1e-3))
        self.dopt = torch.optim.Adam(self.disc.parameters(), lr=1e-3)

    def discr_optims(self):
        return [self.dopt]

    def train_step(self, x):
        self.gen(x).pow(2).mean().backward()
        self.optim.step()
        self.optim.zero_grad()

        for opt in self.discr_optims():
            opt.zero_grad()
        self.disc(x).mean().backward()
        for opt in self.discr_optims():
            opt.step()

    def train_loop(self, batches):
        for x in batches:
            self.train_step(x)


def train_all(model, optimizers, batches):
    for x in batches:
        model(x).mean().backward()  # expect: ZG101
        for opt in optimizers:
            opt.step()


def train_discriminators_forgetting_one(d_opt, other_optims, disc, batches):
    """The loop over the other discriminators' optimizers clears those, not ``d_opt``,
    which the function steps by name and never clears (audiolm's ``discr_optim`` with
    its clear deleted)."""
    for x in batches:
        for opt in other_optims:
            opt.zero_grad()
        disc(x).mean().backward()  # expect: ZG101
        d_opt.step()
        for opt in other_optims:
            opt.step()

