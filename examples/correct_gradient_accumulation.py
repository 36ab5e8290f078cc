"""Correct: gradient accumulation over k micro-batches with ``(i + 1) % k``.

The loss is divided by k, every micro-batch back-propagates, and the step and
the clear happen together on the last micro-batch of each window. Gradients
add up across the window on purpose, so zerograd-lint reports nothing here.

Run it: python examples/correct_gradient_accumulation.py
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
            loss = nn.functional.mse_loss(model(inputs), labels) / ACCUMULATION_STEPS
            loss.backward()
            if (i + 1) % ACCUMULATION_STEPS == 0:
                optimizer.step()
                optimizer.zero_grad()
        print(f"epoch {epoch}: last micro-batch loss {loss.item() * ACCUMULATION_STEPS:.4f}")


if __name__ == "__main__":
    train()
