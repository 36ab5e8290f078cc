"""A loss meant for two models: both optimizers are cleared together right before its
backward, one steps, an extra loss is added for the other model, which then steps once
(BicycleGAN's encoder and generator: ``loss_GE`` trains both, ``loss_latent`` only the
generator). Nothing is applied twice: no ZG104. The generator's loss of a GAN whose
discriminator is cleared only after its own step is still a leak."""

import torch
from torch import nn


def joint_loss_then_extra_loss(loader):
    encoder, decoder = nn.Linear(4, 2), nn.Linear(2, 4)
    opt_e = torch.optim.Adam(encoder.parameters())
    opt_d = torch.optim.Adam(decoder.parameters())
    for x in loader:
        opt_e.zero_grad()
        opt_d.zero_grad()
        loss = (decoder(encoder(x)) - x).pow(2).mean()
        loss.backward()
        opt_e.step()
        extra = decoder(torch.randn(8, 2)).pow(2).mean()
        extra.backward()
        opt_d.step()


def generator_loss_leaks_into_the_discriminator(loader):
    gen, disc = nn.Linear(4, 4), nn.Linear(4, 1)
    opt_gen = torch.optim.Adam(gen.parameters())
    opt_disc = torch.optim.Adam(disc.parameters())
    for x in loader:
        opt_gen.zero_grad()
        fake = gen(x)
        g_loss = -disc(fake).mean()
        g_loss.backward()  # expect: ZG104
        opt_gen.step()
        d_loss = torch.relu(1 - disc(x)).mean() + torch.relu(1 + disc(fake.detach())).mean()
        d_loss.backward()
        opt_disc.step()
        opt_disc.zero_grad()


def discriminator_cleared_after_its_step_then_generator(loader):
    # optD's clear ends D's update; only optG is cleared for the generator's loss
    netG, netD = nn.Linear(4, 4), nn.Linear(4, 1)
    optG = torch.optim.Adam(netG.parameters())
    optD = torch.optim.Adam(netD.parameters())
    for x in loader:
        fake = netG(x)
        d_loss = torch.relu(1 - netD(x)).mean() + torch.relu(1 + netD(fake.detach())).mean()
        d_loss.backward()
        optD.step()
        optD.zero_grad()
        optG.zero_grad()
        g_loss = -netD(fake).mean()
        g_loss.backward()  # expect: ZG104
        optG.step()
