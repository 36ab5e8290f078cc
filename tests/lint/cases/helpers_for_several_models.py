"""Setup helpers that build several models and their optimizers (issue 13, shape 1): what
each optimizer steps follows the tuple the helper returns (its modules under the caller's
names), or the module-level models both functions name."""

import torch


def build_gan():
    netG = Generator()
    netD = Discriminator()
    optG = torch.optim.Adam(netG.parameters())
    optD = torch.optim.Adam(netD.parameters())
    return netG, netD, optG, optD


def gan_from_setup_clears_after_steps(loader):
    # the generator's loss flows through netD; netD is cleared only after its own step
    netG, netD, optG, optD = build_gan()
    for real in loader:
        fake = netG(torch.randn(8, 100))
        loss_d = netD(real).mean() - netD(fake.detach()).mean()
        loss_d.backward()
        optD.step()
        optD.zero_grad()
        optG.zero_grad()
        loss_g = -netD(fake).mean()
        loss_g.backward()  # expect: ZG104
        optG.step()


def gan_from_setup_clears_before_backwards(loader):
    netG, netD, optG, optD = build_gan()
    for real in loader:
        optD.zero_grad()
        fake = netG(torch.randn(8, 100))
        loss_d = netD(real).mean() - netD(fake.detach()).mean()
        loss_d.backward()
        optD.step()
        optG.zero_grad()
        loss_g = -netD(fake).mean()
        loss_g.backward()
        optG.step()


globalG = Generator()
globalD = Discriminator()


def make_global_optimizers():
    opt_g = torch.optim.Adam(globalG.parameters())
    opt_d = torch.optim.Adam(globalD.parameters())
    return opt_g, opt_d


def gan_of_global_models_cleared_after_steps(loader):
    # the helper returns only the optimizers; the models are the module's, named alike
    opt_g, opt_d = make_global_optimizers()
    for real in loader:
        fake = globalG(torch.randn(8, 100))
        loss_d = globalD(real).mean() - globalD(fake.detach()).mean()
        loss_d.backward()
        opt_d.step()
        opt_d.zero_grad()
        opt_g.zero_grad()
        loss_g = -globalD(fake).mean()
        loss_g.backward()  # expect: ZG104
        opt_g.step()


def build_in_the_return():
    netG = Generator()
    netD = Discriminator()
    return netG, netD, torch.optim.Adam(netG.parameters()), torch.optim.Adam(netD.parameters())


def generator_step(netG, netD, z, opt):
    opt.zero_grad()
    loss = -netD(netG(z)).mean()
    loss.backward()  # expect: ZG104
    opt.step()


def generator_step_in_a_helper_discriminator_cleared_after(loader):
    # optimizers built in the return statement; the generator's step is a helper
    netG, netD, optG, optD = build_in_the_return()
    for real in loader:
        generator_step(netG, netD, torch.randn(8, 100), optG)
        loss_d = netD(real).mean()
        loss_d.backward()
        optD.step()
        optD.zero_grad()


def generator_step_clean(netG, netD, z, opt):
    opt.zero_grad()
    loss = -netD(netG(z)).mean()
    loss.backward()
    opt.step()


def generator_step_in_a_helper_discriminator_cleared_first(loader):
    netG, netD, optG, optD = build_in_the_return()
    for real in loader:
        generator_step_clean(netG, netD, torch.randn(8, 100), optG)
        optD.zero_grad()
        loss_d = netD(real).mean()
        loss_d.backward()
        optD.step()
