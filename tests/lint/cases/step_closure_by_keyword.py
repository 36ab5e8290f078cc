"""A closure handed to ``step`` by keyword (Atcold/NYU-DLSP20, ``extra/utils/optim.py``:
``opt.step(closure=obj)``) runs inside the step like a positional one; it was not
followed, so a missing clear in it went unreported."""
import torch

w = torch.ones(2, requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)


def objective():
    loss = (w**2).sum()
    loss.backward()  # expect: ZG101
    return loss


def cleared_objective():
    opt.zero_grad()
    loss = (w**2).sum()
    loss.backward()
    return loss


for i in range(10):
    opt.step(closure=objective)

for i in range(10):
    opt.step(closure=cleared_objective)
