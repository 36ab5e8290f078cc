"""Correct: the classic loop that clears the gradients first in every iteration.

zero_grad -> forward -> backward -> step, once per batch. zerograd-lint reports
nothing here.

Run it: python examples/correct_clear_first.py
"""

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


def make_loader(n: int = 512, batch_size: int = 32) -> DataLoader:
    features = torch.randn(n, 20)
    labels = (features.sum(dim=1) > 0).long()
    return DataLoader(TensorDataset(features, labels), batch_size=batch_size, shuffle=True)


def train(epochs: int = 3) -> None:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 2))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    criterion = nn.CrossEntropyLoss()
    loader = make_loader()

    for epoch in range(epochs):
        total = 0.0
        for inputs, targets in loader:
            optimizer.zero_grad()
            loss = criterion(model(inputs), targets)
            loss.backward()
            optimizer.step()
            total += loss.item()
        print(f"epoch {epoch}: mean loss {total / len(loader):.4f}")


if __name__ == "__main__":
    train()
