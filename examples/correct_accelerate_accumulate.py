"""Correct: Hugging Face Accelerate's ``accelerator.accumulate``.

Inside ``with accelerator.accumulate(model):`` the prepared optimizer only really
steps and clears on the last micro-batch of each window, so calling
``optimizer.zero_grad()`` on every iteration is the documented, correct pattern.
zerograd-lint knows this and reports nothing here.

Run it (needs accelerate): python examples/correct_accelerate_accumulate.py
"""

import torch
from accelerate import Accelerator
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


def train(epochs: int = 2) -> None:
    torch.manual_seed(0)
    accelerator = Accelerator(gradient_accumulation_steps=4, cpu=True)
    features = torch.randn(256, 12)
    labels = (features[:, 0] > 0).long()
    loader = DataLoader(TensorDataset(features, labels), batch_size=16, shuffle=True)
    model = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 2))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    criterion = nn.CrossEntropyLoss()

    for epoch in range(epochs):
        for inputs, targets in loader:
            with accelerator.accumulate(model):
                loss = criterion(model(inputs), targets)
                accelerator.backward(loss)
                optimizer.step()
                optimizer.zero_grad()
        accelerator.print(f"epoch {epoch}: loss {loss.item():.4f}")


if __name__ == "__main__":
    train()
