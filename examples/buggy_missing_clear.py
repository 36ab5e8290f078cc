"""BUGGY (ZG101): the gradients are never cleared.

Each ``loss.backward()`` adds this batch's gradients onto every earlier batch's,
which ``optimizer.step()`` has already applied. Training still "runs" and the
loss may even go down for a while, which is why this bug survives review.
zerograd-lint reports ZG101 at the backward call; the fix is one line:
``optimizer.zero_grad()`` at the top of the loop body (or after the step).

Run it: python examples/buggy_missing_clear.py
"""

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


def train(epochs: int = 3) -> None:
    torch.manual_seed(0)
    features = torch.randn(512, 20)
    labels = (features.sum(dim=1) > 0).long()
    loader = DataLoader(TensorDataset(features, labels), batch_size=32, shuffle=True)
    model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 2))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    criterion = nn.CrossEntropyLoss()

    for epoch in range(epochs):
        for inputs, targets in loader:
            loss = criterion(model(inputs), targets)
            loss.backward()  # expect: ZG101
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")


if __name__ == "__main__":
    train()
