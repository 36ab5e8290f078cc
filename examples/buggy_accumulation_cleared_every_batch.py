"""BUGGY (ZG103): accumulation is switched off by a clear on every micro-batch.

The step only runs every ``ACCUMULATION_STEPS`` micro-batches, but
``optimizer.zero_grad()`` runs before every backward, so each step sees a single
(down-scaled) micro-batch instead of the sum over the window. This exact shape
was reported and fixed in several public repositories. zerograd-lint reports
ZG103 at the clear; move it inside the ``if`` after the step.

Run it: python examples/buggy_accumulation_cleared_every_batch.py
"""

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

ACCUMULATION_STEPS = 4


def train(epochs: int = 2) -> None:
    torch.manual_seed(0)
    features = torch.randn(256, 16)
    targets = features[:, :1] * 3.0
    loader = DataLoader(TensorDataset(features, targets), batch_size=8)
    model = nn.Sequential(nn.Linear(16, 32), nn.Tanh(), nn.Linear(32, 1))
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)

    for epoch in range(epochs):
        for i, (inputs, labels) in enumerate(loader):
            optimizer.zero_grad()  # expect: ZG103
            loss = nn.functional.mse_loss(model(inputs), labels) / ACCUMULATION_STEPS
            loss.backward()
            if (i + 1) % ACCUMULATION_STEPS == 0:
                optimizer.step()
        print(f"epoch {epoch}: last micro-batch loss {loss.item() * ACCUMULATION_STEPS:.4f}")


if __name__ == "__main__":
    train()
