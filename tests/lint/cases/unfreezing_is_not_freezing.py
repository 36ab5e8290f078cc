"""What freezes parameters, for the cross-model leak (ZG104): ``requires_grad_(False)``,
``requires_grad = False`` or a flag that is not a constant. Turning gradients on
(``requires_grad_()``, ``requires_grad_(True)``, ``p.requires_grad = True``,
``set_requires_grad(net, True)``) freezes nothing: it used to silence every leak of the
file (diffusers' ``train_autoencoderkl.py``). Freezing a part of a model
(``gen.encoder``, ``netD.main``) still counts as freezing it: the part may be all of
it (the DCGAN tutorial's discriminator keeps every layer in ``main``), and which it is
is not known. What is frozen is a file-wide fact, like an optimizer's tie by name: each
function here uses its own names."""

import torch
from torch import nn


class AE(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder, self.decoder = nn.Linear(4, 4), nn.Linear(4, 4)

    def forward(self, x):
        return self.decoder(self.encoder(x))


def unfrozen_discriminator_leaks(loader):
    gen, disc = nn.Linear(4, 4), nn.Linear(4, 1)
    disc.requires_grad_(True)
    opt_g_a = torch.optim.Adam(gen.parameters())
    opt_d_a = torch.optim.Adam(disc.parameters())
    for step, x in enumerate(loader):
        fake = gen(x)
        if step % 2 == 0:
            g_loss = (fake - x).pow(2).mean() - disc(fake).mean()
            g_loss.backward()  # expect: ZG104
            opt_g_a.step()
            opt_g_a.zero_grad()
        else:
            d_loss = torch.relu(1 - disc(x)).mean() + torch.relu(1 + disc(fake.detach())).mean()
            d_loss.backward()
            opt_d_a.step()
            opt_d_a.zero_grad()


def encoder_frozen_decoder_unknown(loader):
    gen, disc = AE(), nn.Linear(4, 1)
    gen.encoder.requires_grad_(False)
    opt_g_b = torch.optim.Adam(gen.parameters())
    opt_d_b = torch.optim.Adam(disc.parameters())
    for step, x in enumerate(loader):
        fake = gen(x)
        if step % 2 == 0:
            (fake - x).pow(2).mean().backward()
            opt_g_b.step()
            opt_g_b.zero_grad()
        else:
            d_loss = torch.relu(1 - disc(x)).mean() + torch.relu(1 + disc(fake)).mean()
            d_loss.backward()  # the decoder's part of the leak: not known
            opt_d_b.step()
            opt_d_b.zero_grad()


def discriminator_frozen_for_the_generator_step(loader):
    netG, netD = nn.Linear(4, 4), nn.Linear(4, 1)
    opt_g_c = torch.optim.Adam(netG.parameters())
    opt_d_c = torch.optim.Adam(netD.parameters())
    for x in loader:
        fake = netG(x)
        netD.requires_grad_(True)
        d_loss = torch.relu(1 - netD(x)).mean() + torch.relu(1 + netD(fake.detach())).mean()
        d_loss.backward()
        opt_d_c.step()
        opt_d_c.zero_grad()
        netD.requires_grad_(False)
        g_loss = -netD(fake).mean()
        g_loss.backward()
        opt_g_c.step()
        opt_g_c.zero_grad()


def wrapped_module_frozen(loader, wrap):
    generator, critic = nn.Linear(4, 4), wrap(nn.Linear(4, 1))
    opt_g_d = torch.optim.Adam(generator.parameters())
    opt_d_d = torch.optim.Adam(critic.parameters())
    for x in loader:
        fake = generator(x)
        critic.module.requires_grad_(True)
        d_loss = torch.relu(1 - critic(x)).mean() + torch.relu(1 + critic(fake.detach())).mean()
        d_loss.backward()
        opt_d_d.step()
        opt_d_d.zero_grad()
        critic.module.requires_grad_(False)
        g_loss = -critic(fake).mean()
        g_loss.backward()
        opt_g_d.step()
        opt_g_d.zero_grad()


def dcgan_main_frozen(loader, make_discriminator):
    netG = nn.Linear(100, 4)
    netD = make_discriminator()  # ``self.main = nn.Sequential(...)``: every layer
    optG_e = torch.optim.Adam(netG.parameters())
    optD_e = torch.optim.Adam(netD.parameters())
    for real in loader:
        fake = netG(torch.randn(64, 100))
        errD = netD(real).mean() - netD(fake.detach()).mean()
        errD.backward()
        optD_e.step()
        optD_e.zero_grad()
        netD.main.requires_grad_(False)
        errG = -netD(fake).mean()
        errG.backward()
        optG_e.step()
        optG_e.zero_grad()
        netD.main.requires_grad_(True)
