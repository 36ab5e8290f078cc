"""Correct: a GAN with one optimizer per network, each cleared before its backward.

The generator's loss back-propagates through the discriminator too; that is
harmless because ``opt_d.zero_grad()`` clears the discriminator before its own
backward in the next iteration. zerograd-lint tracks each optimizer separately
and reports nothing here.

Run it: python examples/correct_gan_two_optimizers.py
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

        opt_g.zero_grad()
        g_loss = bce(discriminator(fake), torch.ones(real.size(0), 1))
        g_loss.backward()
        opt_g.step()

        if step % 100 == 0:
            print(f"step {step}: d_loss {d_loss.item():.3f} g_loss {g_loss.item():.3f}")


if __name__ == "__main__":
    train()
