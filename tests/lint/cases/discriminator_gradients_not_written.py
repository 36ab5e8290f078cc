"""The generator's loss goes through the discriminator, yet what the discriminator's
optimizer applies is its own (issue 13, shape 1): the generator's backward is restricted
with ``inputs=`` to the generator's parameters, the discriminator runs on detached copies of
its parameters (``functional_call``), or the discriminator's gradients are
cleared through a container module that holds it. D is cleared only after its own step
in every loop, which is right here."""

import torch
import torch.nn as nn

netG = Generator()
netD = Discriminator()
optG = torch.optim.Adam(netG.parameters())
optD = torch.optim.Adam(netD.parameters())


def generator_backward_restricted_to_its_inputs(loader):
    for real in loader:
        loss_d = netD(netG(torch.randn(8, 100)).detach()).mean() - netD(real).mean()
        loss_d.backward()
        optD.step()
        optD.zero_grad()
        optG.zero_grad()
        loss_g = -netD(netG(torch.randn(8, 100))).mean()
        loss_g.backward(inputs=list(netG.parameters()))
        optG.step()


def generator_backward_through_autograd_with_inputs(loader):
    for real in loader:
        loss_d = netD(netG(torch.randn(8, 100)).detach()).mean() - netD(real).mean()
        loss_d.backward()
        optD.step()
        optD.zero_grad()
        optG.zero_grad()
        loss_g = -netD(netG(torch.randn(8, 100))).mean()
        torch.autograd.backward(loss_g, inputs=list(netG.parameters()))
        optG.step()


def container_clear_at_the_start(loader):
    nets = nn.ModuleDict({"G": netG, "D": netD})
    for real in loader:
        nets.zero_grad()
        loss_d = netD(netG(torch.randn(8, 100)).detach()).mean() - netD(real).mean()
        loss_d.backward()
        optD.step()
        optD.zero_grad()
        loss_g = -netD(netG(torch.randn(8, 100))).mean()
        loss_g.backward()
        optG.step()


def list_container_clear_at_the_start(loader):
    both = nn.ModuleList([netG, netD])
    for real in loader:
        both.zero_grad(set_to_none=True)
        loss_d = netD(netG(torch.randn(8, 100)).detach()).mean() - netD(real).mean()
        loss_d.backward()
        optD.step()
        optD.zero_grad()
        loss_g = -netD(netG(torch.randn(8, 100))).mean()
        loss_g.backward()
        optG.step()


def generator_backward_writes_the_discriminator(loader):
    # the control: the same loop without inputs= or a container clear leaks
    for real in loader:
        loss_d = netD(netG(torch.randn(8, 100)).detach()).mean() - netD(real).mean()
        loss_d.backward()
        optD.step()
        optD.zero_grad()
        optG.zero_grad()
        loss_g = -netD(netG(torch.randn(8, 100))).mean()
        loss_g.backward()  # expect: ZG104
        optG.step()


def discriminator_run_on_detached_copies_of_its_parameters(loader):
    from torch.func import functional_call

    for real in loader:
        loss_d = netD(netG(torch.randn(8, 100)).detach()).mean() - netD(real).mean()
        loss_d.backward()
        optD.step()
        optD.zero_grad()
        optG.zero_grad()
        params = {name: value.detach() for name, value in netD.named_parameters()}
        loss_g = -functional_call(netD, params, (netG(torch.randn(8, 100)),)).mean()
        loss_g.backward()
        optG.step()
