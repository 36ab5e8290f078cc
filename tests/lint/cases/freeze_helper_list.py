"""CycleGAN's freezing helper is handed a list of networks and a flag:
``set_requires_grad([netD], False)`` freezes ``netD`` (the flag is no module), so the
generator's backward writes no D gradients; a discriminator the helper is never handed
stays unfrozen (issue 13, shape 1)."""

import torch

netG = Generator()
netD = Discriminator()
netD2 = Discriminator()
optG = torch.optim.Adam(netG.parameters())
optD = torch.optim.Adam(netD.parameters())
optD2 = torch.optim.Adam(netD2.parameters())


def set_requires_grad(nets, requires_grad=False):
    for net in nets:
        for p in net.parameters():
            p.requires_grad = requires_grad


def frozen_during_the_generator_step(loader):
    for real in loader:
        fake = netG(torch.randn(8, 100))
        set_requires_grad([netD], False)
        optG.zero_grad()
        loss_g = -netD(fake).mean()
        loss_g.backward()
        optG.step()
        set_requires_grad([netD], True)
        loss_d = netD(fake.detach()).mean() - netD(real).mean()
        loss_d.backward()
        optD.step()
        optD.zero_grad()


def another_discriminator_never_frozen(loader):
    for real in loader:
        fake = netG(torch.randn(8, 100))
        optG.zero_grad()
        loss_g = -netD2(fake).mean()
        loss_g.backward()  # expect: ZG104
        optG.step()
        loss_d = netD2(fake.detach()).mean() - netD2(real).mean()
        loss_d.backward()
        optD2.step()
        optD2.zero_grad()
