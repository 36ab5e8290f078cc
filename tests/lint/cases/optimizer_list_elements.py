"""An optimizer reached through an element of a list literal (``opts = [optG, optD]``,
then ``opts[1].zero_grad()``) is that optimizer, not another one named ``opts[1]``."""

import torch

netG = Generator()
netD = Discriminator()
optG = torch.optim.Adam(netG.parameters())
optD = torch.optim.Adam(netD.parameters())
model = Net()
opt = torch.optim.SGD(model.parameters(), lr=0.1)


def discriminator_cleared_through_the_list(loader):
    opts = [optG, optD]
    for real in loader:
        fake = netG(torch.randn(8, 100))
        optG.zero_grad()
        loss_g = -netD(fake).mean()
        loss_g.backward()
        optG.step()
        opts[1].zero_grad()
        loss_d = netD(fake.detach()).mean() - netD(real).mean()
        loss_d.backward()
        optD.step()


def stepped_through_the_list_never_cleared(loader):
    opts = (opt,)
    for x, y in loader:
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()  # expect: ZG101
        opts[0].step()
