"""One optimizer over a whole GAN, each step preceded by a clear of the *other*
sub-network (imperial-qore/TranAD's MAD_GAN branch): ``model.generator.zero_grad()``
clears part of what the optimizer steps, so the step still applies the
discriminator's fresh gradients. It was taken as a clear of the whole optimizer (two
false ZG102 findings, whose fix would have broken the code). A clear of a submodule
leaves the optimizer's gradients unknown; a clear of what DataParallel wraps
(``model.module``) is still a clear of all of them."""
import torch
from torch import nn


class MAD_GAN(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.generator = nn.Sequential(nn.Linear(n, n), nn.Sigmoid())
        self.discriminator = nn.Sequential(nn.Linear(n, 1), nn.Sigmoid())

    def forward(self, g):
        z = self.generator(g)
        return z, self.discriminator(g), self.discriminator(z)


def backprop(data):
    model = MAD_GAN(4)
    gan_optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    bcel = nn.BCELoss()
    for d in data:
        model.discriminator.zero_grad()
        _, real, fake = model(d)
        dl = bcel(real, torch.ones_like(real)) + bcel(fake, torch.zeros_like(fake))
        dl.backward()
        model.generator.zero_grad()
        gan_optimizer.step()
        z, _, fake = model(d)
        tl = bcel(fake, torch.ones_like(fake)) + ((z - d) ** 2).mean()
        tl.backward()
        model.discriminator.zero_grad()
        gan_optimizer.step()


def data_parallel_clear_before_step(data):
    model = nn.DataParallel(nn.Linear(4, 1))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x in data:
        model(x).sum().backward()
        model.module.zero_grad()
        optimizer.step()  # expect: ZG102


def backprop_handed_its_optimizer(model, data, gan_optim):
    """TranAD's own form: the optimizer is handed in, its modules unknown."""
    for d in data:
        model.discriminator.zero_grad()
        _, real, fake = model(d)
        (real.mean() - fake.mean()).backward()
        model.generator.zero_grad()
        gan_optim.step()
        z, _, fake = model(d)
        (fake.mean() + ((z - d) ** 2).mean()).backward()
        model.discriminator.zero_grad()
        gan_optim.step()


def whole_model_cleared_before_its_step(model, data, handed_optim):
    for d in data:
        model(d).sum().backward()
        model.zero_grad()
        handed_optim.step()  # expect: ZG102
