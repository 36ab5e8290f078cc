"""A class that stores the optimizers it is handed and calls ``zero_grad()`` and
``step()`` on them (uvadlc's ``OptCollection``): those attributes hold optimizers, as
a parameter used that way does, whatever their names. A loop annotated with the class
(``opts: OptCollection``) that never clears gets ZG101; one that clears through it is
correct. An attribute on which anything else is called or read, or a parameter with a
default (``cv=None``: maybe none), stays unknown."""
import torch.nn as nn


class OptCollection:
    def __init__(self, gen, inf, cv=None):
        self.gen = gen
        self.inf = inf
        self.cv = cv

    def zero_grad(self):
        self.gen.zero_grad()
        self.inf.zero_grad()
        if self.cv:
            self.cv.zero_grad()

    def step(self):
        self.gen.step()
        self.inf.step()
        if self.cv:
            self.cv.step()


def train_vae(model: nn.Module, opts: OptCollection, batcher, num_epochs=10):
    for epoch in range(num_epochs):
        for batch_x in batcher:
            loss = model(batch_x).pow(2).mean()
            loss.backward()  # expect: ZG101
            opts.step()


def train_vae_clearing(model: nn.Module, opts: OptCollection, batcher, num_epochs=10):
    for epoch in range(num_epochs):
        for batch_x in batcher:
            opts.zero_grad()
            loss = model(batch_x).pow(2).mean()
            loss.backward()
            opts.step()


class Annealed:
    def __init__(self, vae):
        self.vae = vae

    def zero_grad(self):
        self.vae.zero_grad()

    def step(self):
        self.vae.step()
        print(self.vae.beta)


def train_annealed(model: nn.Module, holder: Annealed, batcher):
    for batch_x in batcher:
        loss = model(batch_x).pow(2).mean()
        loss.backward()
        holder.step()
