"""BUGGY (ZG101): a GAN whose generator optimizer is never cleared.

The discriminator is cleared before its update, but ``opt_g`` never is: every
``g_loss.backward()`` adds onto all earlier generator gradients, which
``opt_g.step()`` applies again and again. A linter that only asks "is there a
zero_grad somewhere in the loop?" passes this file; zerograd-lint tracks each
optimizer and reports ZG101 at the generator's backward.

Run it: python examples/buggy_gan_generator_never_cleared.py
"""

import torch
from torch import nn

LATENT = 8


def real_batch(n: int = 64) -> torch.Tensor:
    return torch.randn(n, 2) * 0.5 + torch.tensor([2.0, -1.0])


def train(steps: int = 300) -> None:
    torch.manual_seed(0)
    generator = nn.Sequential(nn.Linear(LATENT, 32), nn.ReLU(), nn.Linear(32, 2))
    discriminator = nn.Sequential(nn.Linear(2, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))
    opt_g = torch.optim.Adam(generator.parameters(), lr=2e-4, betas=(0.5, 0.999))
    opt_d = torch.optim.Adam(discriminator.parameters(), lr=2e-4, betas=(0.5, 0.999))
    bce = nn.BCEWithLogitsLoss()

    for step in range(steps):
        real = real_batch()
        fake = generator(torch.randn(real.size(0), LATENT))

        opt_d.zero_grad()
        d_loss = bce(discriminator(real), torch.ones(real.size(0), 1)) + bce(
            discriminator(fake.detach()), torch.zeros(real.size(0), 1)
        )
        d_loss.backward()
        opt_d.step()

        g_loss = bce(discriminator(fake), torch.ones(real.size(0), 1))
        g_loss.backward()  # expect: ZG101
        opt_g.step()

        if step % 100 == 0:
            print(f"step {step}: d_loss {d_loss.item():.3f} g_loss {g_loss.item():.3f}")


if __name__ == "__main__":
    train()
