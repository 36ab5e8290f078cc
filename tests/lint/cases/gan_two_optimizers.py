import torch

netG = Generator()
netD = Discriminator()
optD = torch.optim.Adam(netD.parameters(), lr=2e-4)
optG = torch.optim.Adam(netG.parameters(), lr=2e-4)


def train_correct(loader):
    for real in loader:
        netD.zero_grad()
        fake = netG(noise())
        errD = criterion(netD(real), 1) + criterion(netD(fake.detach()), 0)
        errD.backward()
        optD.step()
        netG.zero_grad()
        errG = criterion(netD(fake), 1)
        errG.backward()
        optG.step()


def train_generator_never_cleared(loader):
    for real in loader:
        netD.zero_grad()
        fake = netG(noise())
        errD = criterion(netD(real), 1) + criterion(netD(fake.detach()), 0)
        errD.backward()
        optD.step()
        errG = criterion(netD(fake), 1)
        errG.backward()  # expect: ZG101
        optG.step()


def train_with_optimizer_clears(loader):
    for real in loader:
        optD.zero_grad()
        lossD(real).backward()
        optD.step()
        optG.zero_grad()
        lossG().backward()
        optG.step()


def train_discriminator_cleared_through_wrong_module(loader):
    for real in loader:
        netG.zero_grad()
        lossD(real).backward()  # expect: ZG101
        optD.step()
        netG.zero_grad()
        lossG().backward()
        optG.step()
