"""A loss meant for two models: both optimizers are cleared together right before its
backward, one steps, an extra loss is added for the other model, which then steps once
(BicycleGAN's encoder and generator: ``loss_GE`` trains both, ``loss_latent`` only the
generator). Nothing is applied twice: no ZG104. The generator's loss of a GAN whose
discriminator is cleared only after its own step is still a leak, and so is one whose
discriminator (or an actor-critic's critic, named so) is cleared with the generator:
an adversary never learns from the other model's loss (VAE-GAN, session 26's probes)."""

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


def discriminator_cleared_with_the_generator(loader):
    # both cleared at the top, but a discriminator never learns from the generator's
    # loss: its step applies g_loss's gradients with d_loss's (a VAE-GAN's shape)
    G, D = nn.Linear(2, 4), nn.Linear(4, 1)
    g_optimizer = torch.optim.Adam(G.parameters())
    d_optimizer = torch.optim.Adam(D.parameters())
    for x in loader:
        g_optimizer.zero_grad()
        d_optimizer.zero_grad()
        fake = G(torch.randn(8, 2))
        loss_g = -D(fake).mean()
        loss_g.backward()  # expect: ZG104
        g_optimizer.step()
        loss_d = D(fake.detach()).mean() - D(x).mean()
        loss_d.backward()
        d_optimizer.step()


def critic_cleared_with_the_actor(batches):
    actor, critic = nn.Linear(4, 2), nn.Linear(6, 1)
    actor_optimizer = torch.optim.Adam(actor.parameters())
    critic_optimizer = torch.optim.Adam(critic.parameters())
    for s, a, target in batches:
        actor_optimizer.zero_grad()
        critic_optimizer.zero_grad()
        actor_loss = -critic(torch.cat([s, actor(s)], 1)).mean()
        actor_loss.backward()  # expect: ZG104
        actor_optimizer.step()
        critic_loss = (critic(torch.cat([s, a], 1)) - target).pow(2).mean()
        critic_loss.backward()
        critic_optimizer.step()
