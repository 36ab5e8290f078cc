"""BUGGY (ZG102): the clear sits between the backward and the step.

``optimizer.zero_grad()`` wipes the gradients that ``loss.backward()`` just
computed, so ``optimizer.step()`` sees zeros (or None) and the model never
learns - only weight decay and momentum move it. zerograd-lint reports ZG102 at
the step; move the clear before the backward or after the step.

Run it: python examples/buggy_clear_between_backward_and_step.py
"""

import torch
from torch import nn


def train(steps: int = 200) -> None:
    torch.manual_seed(0)
    model = nn.Linear(8, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    true_weights = torch.randn(8, 1)

    for step in range(steps):
        inputs = torch.randn(64, 8)
        loss = nn.functional.mse_loss(model(inputs), inputs @ true_weights)
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.zero_grad()
        optimizer.step()  # expect: ZG102
        if step % 50 == 0:
            print(f"step {step}: loss {loss.item():.4f} (does not improve)")


if __name__ == "__main__":
    train()
