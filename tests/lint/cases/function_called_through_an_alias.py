"""A function of the file called through a name it was assigned to (``train_fn =
train_cl``, then ``train_fn(...)`` in the loop): the call runs that function, like a
``functools.partial`` of it with nothing bound (continual-learning's ``main.py``)."""

import torch


def train_step(model, optimizer, batch):
    loss = model(batch).sum()
    loss.backward()  # expect: ZG101
    optimizer.step()


def train_step_cleared(model, optimizer, batch):
    optimizer.zero_grad()
    loss = model(batch).sum()
    loss.backward()
    optimizer.step()


def main(model, loader):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    step_fn = train_step
    for batch in loader:
        step_fn(model, optimizer, batch)


def main_cleared(model, loader):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    step_fn = train_step_cleared
    for batch in loader:
        step_fn(model, optimizer, batch)


def main_rebound(model, loader, evaluate):
    # assigned twice: which function runs is not known, nothing is judged through it
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    step_fn = train_step_cleared
    if evaluate:
        step_fn = print
    for batch in loader:
        step_fn(model, optimizer, batch)


def closure_alias(model, optimizer, batch):
    def compute():
        optimizer.zero_grad()
        loss = model(batch).sum()
        loss.backward()
        return loss

    closure = compute
    for _ in range(3):
        optimizer.step(closure)
