"""The generator's loss is computed through the discriminator: its backward also writes
D's gradients. When D is cleared only after its own step, D's next step applies them with
its own (issue 13, shape 1)."""

import torch

netG = Generator()
netD = Discriminator()
optD = torch.optim.Adam(netD.parameters(), lr=2e-4)
optG = torch.optim.Adam(netG.parameters(), lr=2e-4)
criterion = torch.nn.BCELoss()


def d_cleared_after_its_step(loader):
    for real in loader:
        fake = netG(torch.randn(64, 100))
        errD = criterion(netD(real), ones) + criterion(netD(fake.detach()), zeros)
        errD.backward()
        optD.step()
        optD.zero_grad()
        errG = criterion(netD(fake), ones)
        errG.backward()  # expect: ZG104
        optG.step()
        optG.zero_grad()


def critic_after_generator(loader):
    for real in loader:
        optG.zero_grad()
        errG = -netD(netG(torch.randn(64, 100))).mean()
        errG.backward()  # expect: ZG104
        optG.step()
        fake = netG(torch.randn(64, 100)).detach()
        errD = netD(fake).mean() - netD(real).mean()
        errD.backward()
        optD.step()
        optD.zero_grad()


def d_cleared_before_its_backward(loader):
    for real in loader:
        optD.zero_grad()
        fake = netG(torch.randn(64, 100))
        errD = criterion(netD(real), ones) + criterion(netD(fake.detach()), zeros)
        errD.backward()
        optD.step()
        optG.zero_grad()
        errG = criterion(netD(fake), ones)
        errG.backward()
        optG.step()


def one_backward_feeds_both(loader):
    for real in loader:
        optD.zero_grad()
        optG.zero_grad()
        fake = netG(torch.randn(64, 100))
        loss = criterion(netD(fake), ones) + criterion(netD(real), ones)
        loss.backward()
        optG.step()
        optD.step()


def several_losses_one_step(loader):
    for real in loader:
        fake = netG(torch.randn(64, 100))
        errD_real = criterion(netD(real), ones)
        errD_real.backward()
        errD_fake = criterion(netD(fake.detach()), zeros)
        errD_fake.backward()
        optD.step()
        optD.zero_grad()


def generator_through_detached_output(loader):
    for real in loader:
        fake = netG(torch.randn(64, 100))
        errD = criterion(netD(real), ones) + criterion(netD(fake.detach()), zeros)
        errD.backward()
        optD.step()
        optD.zero_grad()
        with torch.no_grad():
            score = netD(fake)
        errG = criterion(score, ones) + (fake - real).abs().mean()
        errG.backward()
        optG.step()
        optG.zero_grad()
