"""A helper's local optimizer is a different object from a module-level optimizer of
the same name. ``pretrain`` builds and steps its own ``optimizer``; ``finetune`` steps
the module's ``optimizer`` and clears after each step, correctly. Judged from ``main``,
what ``pretrain``'s optimizer was left holding (stale after its last step) must not
become the state of the global one: its first backward is not a missing clear.

When the helper returns, its locals are gone; only a name that a function still running
(a caller up the calls) also uses can denote the same object after the call. A global
that ``main`` itself steps keeps its state (``run_twice`` below: a true ZG101)."""

import torch

model = torch.nn.Linear(2, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)


def pretrain(net, data):
    optimizer = torch.optim.Adam(net.parameters())
    for x in data:
        optimizer.zero_grad()
        net(x).sum().backward()
        optimizer.step()


def finetune(data):
    for x in data:
        model(x).sum().backward()
        optimizer.step()
        optimizer.zero_grad()


def main(data):
    pretrain(torch.nn.Linear(2, 1), data)
    finetune(data)


def one_pass(batch):
    model(batch).sum().backward()  # expect: ZG101


def run_twice(batch):
    optimizer.zero_grad()
    one_pass(batch)
    optimizer.step()
    one_pass(batch)
    optimizer.step()
