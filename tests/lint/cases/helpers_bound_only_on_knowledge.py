"""Loops whose real bug sits in a helper's backward, reached through arguments that
do not own their parameters alone: an unwrapped module, a ``Sequential`` over separately
optimized modules, batches from a loop over an encoder's outputs, and a step helper whose
D and G calls share state through a global or a container. An adversarial review found
that narrowing a helper's reach at its call hid each of these (the narrowing was removed:
proving that an argument owns its parameters alone needs alias knowledge the analysis
does not have), and that the other-arm rule must not apply to names that outlive a call."""

import torch
import torch.nn as nn
from accelerate import Accelerator

criterion = nn.MSELoss()


def step_unwrapped(model, x, y):
    loss = criterion(model(x), y)
    loss.backward()  # expect: ZG101


def unwrapped_model_shares_the_prepared_parameters(loader):
    accelerator = Accelerator()
    model = Net()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    model, opt = accelerator.prepare(model, opt)
    raw = accelerator.unwrap_model(model)
    for x, y in loader:
        step_unwrapped(raw, x, y)
        opt.step()


def step_composite(model, x, y):
    loss = criterion(model(x), y)
    loss.backward()  # expect: ZG101


def sequential_over_two_optimized_modules(loader):
    enc = Encoder()
    head = Head()
    full = nn.Sequential(enc, head)
    opt_e = torch.optim.SGD(enc.parameters(), lr=0.1)
    opt_h = torch.optim.SGD(head.parameters(), lr=0.1)
    for x, y in loader:
        opt_h.zero_grad()
        step_composite(full, x, y)
        opt_h.step()
        opt_e.step()


def step_head(head, feats, y):
    loss = criterion(head(feats), y)
    loss.backward()  # expect: ZG101


def loop_over_an_encoders_outputs(loader):
    encoder = Encoder()
    head = Head()
    opt_enc = torch.optim.Adam(encoder.parameters())
    opt_head = torch.optim.Adam(head.parameters())
    for x, y in loader:
        opt_head.zero_grad()
        for feats in encoder(x):
            step_head(head, feats, y)
        opt_head.step()
        opt_enc.step()


netG = Generator()
netD = Discriminator()
optG = torch.optim.Adam(netG.parameters())
optD = torch.optim.Adam(netD.parameters())
cache = {}


def step_global(real, phase):
    global fake
    if phase == "d":
        fake = netG(torch.randn(8, 100))
        loss = netD(real).mean() - netD(fake.detach()).mean()
    else:
        loss = -netD(fake).mean()
    loss.backward()  # expect: ZG104


def gan_phases_through_a_global(loader):
    for real in loader:
        step_global(real, "d")
        optD.step()
        optD.zero_grad()
        optG.zero_grad()
        step_global(real, "g")
        optG.step()


def step_cached(real, phase):
    if phase == "d":
        fake = netG(torch.randn(8, 100))
        cache["fake"] = fake
        loss = netD(real).mean() - netD(fake.detach()).mean()
    else:
        fake = cache["fake"]
        loss = -netD(fake).mean()
    loss.backward()  # expect: ZG104


def gan_phases_through_a_cache(loader):
    for real in loader:
        step_cached(real, "d")
        optD.step()
        optD.zero_grad()
        optG.zero_grad()
        step_cached(real, "g")
        optG.step()
