"""Correct: mixed precision with ``torch.amp`` and a GradScaler.

``scaler.scale(loss).backward()`` is a backward, ``scaler.step(optimizer)`` is the
optimizer's step, and the clear comes first in each iteration. On a machine
without CUDA the scaler and autocast are disabled and the script runs on CPU.
zerograd-lint reports nothing here.

Run it: python examples/correct_amp_grad_scaler.py
"""

import torch
from torch import nn


def train(steps: int = 100) -> None:
    torch.manual_seed(0)
    use_cuda = torch.cuda.is_available()
    device = torch.device("cuda" if use_cuda else "cpu")
    model = nn.Sequential(nn.Linear(32, 64), nn.GELU(), nn.Linear(64, 10)).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    scaler = torch.amp.GradScaler("cuda", enabled=use_cuda)
    criterion = nn.CrossEntropyLoss()

    for step in range(steps):
        inputs = torch.randn(128, 32, device=device)
        labels = torch.randint(0, 10, (128,), device=device)
        optimizer.zero_grad(set_to_none=True)
        with torch.autocast(device_type=device.type, enabled=use_cuda):
            loss = criterion(model(inputs), labels)
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)
        nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
        scaler.step(optimizer)
        scaler.update()
        if step % 25 == 0:
            print(f"step {step}: loss {loss.item():.4f}")


if __name__ == "__main__":
    train()
