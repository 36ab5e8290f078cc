"""What ``torch.nn.Module`` methods return, for both parsers (libcst's extraction and
the project index's ``ast`` scans). Import no parser."""

from __future__ import annotations

# Methods that return their receiver (or a moved view of its parameters):
# ``Net().cuda().train()`` is the ``Net()`` instance.
MOVES = frozenset(
    {"to", "cuda", "cpu", "float", "half", "double", "bfloat16", "train", "eval", "requires_grad_"}
)
