"""A batch abandoned by a caught exception (an out-of-memory error: PyG's
``examples/llm/txt2kg_rag.py``) skips the step because of the raise, not because a
window is still open: the next iteration's clear throws its partial gradients away on
purpose. A condition on the step counter that ran before the raise (the learning-rate
schedule's ``if (step + 1) % 2 == 0:``) made the handler's path look like an
accumulation window that skipped its step, and the clear a ZG103."""
import torch


def adjust_learning_rate(group, lr):
    group["lr"] = lr


def out_of_memory_skips_the_batch(loader):
    model = torch.nn.Linear(4, 1)
    optimizer = torch.optim.AdamW(model.parameters())
    for step, x in enumerate(loader):
        optimizer.zero_grad()
        try:
            loss = model(x).sum()
            loss.backward()
            if (step + 1) % 2 == 0:
                adjust_learning_rate(optimizer.param_groups[0], 1e-3)
            optimizer.step()
        except torch.cuda.OutOfMemoryError:
            torch.cuda.empty_cache()


def window_cleared_every_batch(loader):
    model = torch.nn.Linear(4, 1)
    optimizer = torch.optim.AdamW(model.parameters())
    for step, x in enumerate(loader):
        optimizer.zero_grad()  # expect: ZG103
        try:
            model(x).sum().backward()
            if (step + 1) % 4 == 0:
                optimizer.step()
        except torch.cuda.OutOfMemoryError:
            torch.cuda.empty_cache()
