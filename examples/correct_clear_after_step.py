"""Correct: clear once before the loop and right after every step.

Many code bases (timm, nanoGPT, Lightning's manual examples) put the clear after
the step instead of at the top of the iteration. Every backward still starts
from cleared gradients, so zerograd-lint reports nothing here - unlike linters
that insist on the order zero_grad, backward, step.

Run it: python examples/correct_clear_after_step.py
"""

import torch
from torch import nn


def train(steps: int = 200) -> None:
    torch.manual_seed(0)
    model = nn.Linear(8, 1)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    true_weights = torch.randn(8, 1)

    optimizer.zero_grad(set_to_none=True)
    for step in range(steps):
        inputs = torch.randn(64, 8)
        loss = nn.functional.mse_loss(model(inputs), inputs @ true_weights)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        if step % 50 == 0:
            print(f"step {step}: loss {loss.item():.4f}")


if __name__ == "__main__":
    train()
