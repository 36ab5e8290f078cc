"""D frozen with ``requires_grad_(False)`` during the generator step (issue 13, shape 1)."""

import torch

netG = Generator()
netD = Discriminator()
optD = torch.optim.Adam(netD.parameters(), lr=2e-4)
optG = torch.optim.Adam(netG.parameters(), lr=2e-4)


def train(loader):
    for real in loader:
        netD.requires_grad_(True)
        fake = netG(torch.randn(64, 100))
        errD = netD(fake.detach()).mean() - netD(real).mean()
        errD.backward()
        optD.step()
        optD.zero_grad()
        netD.requires_grad_(False)
        errG = -netD(fake).mean()
        errG.backward()
        optG.step()
        optG.zero_grad()
