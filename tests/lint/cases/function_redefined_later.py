"""A function defined again further down (a notebook's later cell redefines
``train_step`` for a second model, eat_pytorch_in_20_days' chapter 3): a call runs the
definition bound when it runs, and a call in the same body before the second
definition runs the first one. Every call read the last definition, so the first
loop's missing clear went unreported (and a correct first definition would have been
judged by a buggy second one)."""
import torch

model = torch.nn.Linear(3, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)


def train_step(x, y):
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()  # expect: ZG101
    optimizer.step()
    return loss


for x, y in loader:
    train_step(x, y)


def train_step(x, y):
    optimizer.zero_grad()
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    optimizer.step()
    return loss


for x, y in loader:
    train_step(x, y)
