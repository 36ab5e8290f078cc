"""A minimal training loop run in child processes (importable by ``spawn`` children)."""

from __future__ import annotations

import os

import torch

STEPS = 3


def plain_loop(broken: bool = False, steps: int = STEPS) -> None:
    """``steps`` SGD steps on a linear model; ``broken`` never clears."""
    torch.manual_seed(0)
    model = torch.nn.Linear(3, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(steps):
        if not broken:
            optimizer.zero_grad()
        model(torch.randn(2, 3)).sum().backward()
        optimizer.step()


def plain_loop_then_os_exit(broken: bool = False) -> None:
    """As distributed workers do: skip interpreter shutdown (and ``atexit``)."""
    plain_loop(broken)
    os._exit(0)


SCRIPT = f"""
import os, sys
import torch

torch.manual_seed(0)
model = torch.nn.Linear(3, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
broken = sys.argv[1] == "broken"
print(os.getpid(), flush=True)
for _ in range({STEPS}):
    if not broken:
        optimizer.zero_grad()
    model(torch.randn(2, 3)).sum().backward()
    optimizer.step()
if len(sys.argv) > 2 and sys.argv[2] == "os_exit":
    os._exit(0)
"""
"""The same loop as a ``python -c`` program: ``argv[1]`` is ``broken`` or ``correct``,
an optional ``os_exit`` ends it with ``os._exit(0)``; it prints its pid first."""
