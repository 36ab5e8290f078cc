"""Calling a generator function runs none of its body: the body runs a piece at a time
while the generator is iterated. AlexiaJM/RelativisticGAN's module-level loop pulls
batches from an endless sampling generator (``while True: ... yield``) created before
the loop; the call was analysed as if the body ran there, the endless loop never
returned, and nothing after it was judged (four deleted clears went unreported). What
a body with gradient effects does is unknown at the call; a body without any is
nothing at the call."""
import argparse

import numpy
import torch
from torch import nn


def endless_batches(data, config):
    while True:
        idx = numpy.random.choice(len(data), size=config.batch_size, replace=False)
        yield torch.stack([data[i] for i in idx], 0)


def discriminator_never_cleared(data, config):
    batches = endless_batches(data, config)
    disc = nn.Linear(4, 1)
    opt_d = torch.optim.Adam(disc.parameters())
    for _ in range(config.n_iter):
        x = next(batches)
        err = disc(x).mean()
        err.backward()  # expect: ZG101
        opt_d.step()


def discriminator_cleared(data, config):
    batches = endless_batches(data, config)
    disc = nn.Linear(4, 1)
    opt_d = torch.optim.Adam(disc.parameters())
    for _ in range(config.n_iter):
        x = next(batches)
        opt_d.zero_grad()
        disc(x).mean().backward()
        opt_d.step()


def clearing_batches(loader, opt):
    for batch in loader:
        opt.zero_grad()
        yield batch


def cleared_by_the_generator(loader):
    model = nn.Linear(4, 1)
    opt = torch.optim.Adam(model.parameters())
    for batch in clearing_batches(loader, opt):  # clears before each batch it yields
        model(batch).mean().backward()
        opt.step()


# RelativisticGAN's shape: the generator reads the module's configuration, and the loop
# runs in the module body
param = argparse.ArgumentParser().parse_args()
data = [torch.randn(4) for _ in range(100)]


def generate_random_sample():
    while True:
        idx = numpy.random.choice(len(data), size=param.batch_size, replace=False)
        yield torch.stack([data[i] for i in idx], 0)


random_sample = generate_random_sample()
D = nn.Linear(4, 1)
optimizerD = torch.optim.Adam(D.parameters())
for i in range(param.n_iter):
    errD = D(random_sample.__next__()).mean()
    errD.backward()  # expect: ZG101
    optimizerD.step()
