"""A loss scaled in place (``loss_g *= 0.5``, ``loss /= accumulation``) still comes from
what it held before: the generator's loss through the discriminator writes the
discriminator's gradients however it is scaled (issue 13, shape 1)."""

import torch

netG = Generator()
netD = Discriminator()
optG = torch.optim.Adam(netG.parameters())
optD = torch.optim.Adam(netD.parameters())


def scaled_generator_loss_discriminator_cleared_after_its_step(loader):
    for real in loader:
        fake = netG(torch.randn(8, 100))
        loss_d = netD(real).mean() - netD(fake.detach()).mean()
        loss_d.backward()
        optD.step()
        optD.zero_grad()
        optG.zero_grad()
        loss_g = -netD(fake).mean()
        loss_g *= 0.5
        loss_g.backward()  # expect: ZG104
        optG.step()


def scaled_generator_loss_discriminator_cleared_first(loader):
    for real in loader:
        optD.zero_grad()
        fake = netG(torch.randn(8, 100))
        loss_d = netD(real).mean() - netD(fake.detach()).mean()
        loss_d /= 2
        loss_d.backward()
        optD.step()
        optG.zero_grad()
        loss_g = -netD(fake).mean()
        loss_g *= 0.5
        loss_g.backward()
        optG.step()
