"""Helpers that serve several models (issue 13, shapes 1 and 3): a setup function that
returns the models and their optimizers as one tuple, and a step helper that computes and
differentiates a loss for whichever module it is handed (accelerate's test_sync.py calls
one for a reference model and for its deep copy). What each optimizer steps follows the
returned tuple; what a helper's backward reaches follows the call that binds its
parameters: a module the caller builds, batches from the caller's loop."""

import copy

import torch
from accelerate import Accelerator

criterion = torch.nn.MSELoss()
accelerator = Accelerator()


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


def step_model(model, x, y, plain=True):
    loss = criterion(model(x), y)
    if plain:
        loss.backward()  # expect: ZG101
    else:
        accelerator.backward(loss)


def reference_never_cleared(loader):
    # the reference's own backward adds onto what `opt` applied; the copy's writes the
    # copy's gradients only
    model = Net()
    copied = copy.deepcopy(model)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        step_model(model, x, y)
        opt.step()
        step_model(copied, x, y, plain=False)


def scaled_step(model, x, y, settings, plain=True):
    loss = criterion(model(x), y)
    if plain:
        loss /= settings.accumulation_steps
        loss.backward()  # expect: ZG101
    else:
        # never sees the division above (the other arm): the loss of `model` alone
        accelerator.backward(loss)


def reference_never_cleared_scaled(loader, settings):
    model = Net()
    copied = copy.deepcopy(model)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        scaled_step(model, x, y, settings)
        opt.step()
        scaled_step(copied, x, y, settings, plain=False)


def helper_handed_a_computed_tensor(loader, encoder):
    # the target comes from another module of the caller: the helper's backward may
    # reach it, so the copy's backward is not known to miss `opt` (unknown, silent)
    model = Net()
    copied = copy.deepcopy(model)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        opt.zero_grad()
        step_model(model, x, y)
        opt.step()
        step_model(copied, x, encoder(y), plain=False)


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
