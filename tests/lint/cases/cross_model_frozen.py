"""D frozen during the generator step: the generator's backward writes no D gradients
(issue 13, shape 1)."""

import torch

netG = Generator()
netD = Discriminator()
optD = torch.optim.Adam(netD.parameters(), lr=2e-4)
optG = torch.optim.Adam(netG.parameters(), lr=2e-4)
criterion = torch.nn.BCELoss()


def d_frozen_during_generator_step(loader):
    for real in loader:
        for p in netD.parameters():
            p.requires_grad = True
        fake = netG(torch.randn(64, 100))
        errD = criterion(netD(real), ones) + criterion(netD(fake.detach()), zeros)
        errD.backward()
        optD.step()
        optD.zero_grad()
        for p in netD.parameters():
            p.requires_grad = False
        errG = criterion(netD(fake), ones)
        errG.backward()
        optG.step()
        optG.zero_grad()
