"""Optimizers kept in a container read by attribute (clovaai/stargan-v2: a ``Munch`` of
optimizers, one per network, stepped as ``optims.discriminator.step()``). The container's
name says what its items are; an attribute an optimizer or a dict has itself
(``param_groups``, ``values``) is not an item."""

import torch
from munch import Munch


class Solver:
    def __init__(self, nets):
        self.nets = nets
        self.optims = Munch()
        for name in nets.keys():
            self.optims[name] = torch.optim.Adam(nets[name].parameters())

    def _reset_grad(self):
        for optim in self.optims.values():
            optim.zero_grad()

    def train(self, loader):
        optims = self.optims
        for x in loader:
            self._reset_grad()
            self.nets.discriminator(x).mean().backward()
            optims.discriminator.step()

            self._reset_grad()
            self.nets.generator(x).mean().backward()
            optims.generator.step()

    def train_without_the_second_clear(self, loader):
        optims = self.optims
        for x in loader:
            self._reset_grad()
            self.nets.discriminator(x).mean().backward()
            optims.discriminator.step()

            self.nets.discriminator(x).mean().backward()  # expect: ZG101
            optims.discriminator.step()


def learning_rates(optims, loader, model):
    for x in loader:
        for group in optims.param_groups:
            group["lr"] *= 0.99
        model(x).backward()
