# A learned optimizer (ikostrikov/pytorch-meta-optimizer) is an ``nn.Module`` whose name
# says optimizer: it is a model. ``meta_optimizer.zero_grad()`` clears the parameters
# that the torch optimizer built over ``meta_optimizer.parameters()`` steps; typing it
# an optimizer by its name made that clear a clear of itself only (a false ZG101).
import torch
from torch import nn


class MetaOptimizer(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear1 = nn.Linear(6, 2)

    def forward(self, x):
        return self.linear1(x)


def meta_train(loader):
    meta_optimizer = MetaOptimizer()
    optimizer = torch.optim.Adam(meta_optimizer.parameters(), lr=1e-3)
    for x in loader:
        meta_optimizer.zero_grad()
        meta_optimizer(x).sum().backward()
        optimizer.step()


def meta_train_never_cleared(loader):
    meta_optimizer = MetaOptimizer()
    optimizer = torch.optim.Adam(meta_optimizer.parameters(), lr=1e-3)
    for x in loader:
        meta_optimizer(x).sum().backward()  # expect: ZG101
        optimizer.step()
