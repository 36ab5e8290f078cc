"""``gen, disc, opt_g, opt_d = accelerator.prepare(gen, disc, opt_g, opt_d)``, the usual
accelerate line: each element is the prepared form of the argument at its position. A
loss computed through ``disc`` reaches ``disc`` only, not every argument of the call (a
false ZG104 on a correct GAN whose generator output is detached for the discriminator)."""

import torch
from torch import nn
from accelerate import Accelerator

accelerator = Accelerator()


def gan_prepared_in_one_call():
    gen, disc = nn.Linear(4, 4), nn.Linear(4, 1)
    opt_g = torch.optim.Adam(gen.parameters())
    opt_d = torch.optim.Adam(disc.parameters())
    gen, disc, opt_g, opt_d = accelerator.prepare(gen, disc, opt_g, opt_d)
    for step in range(10):
        x = torch.randn(8, 4)
        fake = gen(torch.randn(8, 4))
        d_loss = torch.relu(1 - disc(x)).mean() + torch.relu(1 + disc(fake.detach())).mean()
        accelerator.backward(d_loss)
        opt_d.step()
        opt_d.zero_grad()
        g_loss = -disc(fake).mean()
        accelerator.backward(g_loss)
        opt_g.step()
        opt_g.zero_grad()
        opt_d.zero_grad()


def gan_prepared_in_one_call_leaks():
    gen, disc = nn.Linear(4, 4), nn.Linear(4, 1)
    opt_g = torch.optim.Adam(gen.parameters())
    opt_d = torch.optim.Adam(disc.parameters())
    gen, disc, opt_g, opt_d = accelerator.prepare(gen, disc, opt_g, opt_d)
    for step in range(10):
        x = torch.randn(8, 4)
        fake = gen(torch.randn(8, 4))
        d_loss = torch.relu(1 - disc(x)).mean() + torch.relu(1 + disc(fake.detach())).mean()
        accelerator.backward(d_loss)
        opt_d.step()
        opt_d.zero_grad()
        g_loss = -disc(fake).mean()
        accelerator.backward(g_loss)  # expect: ZG104
        opt_g.step()
        opt_g.zero_grad()
