"""A gradient rewritten from its own value through an index (XNOR-Net's
``updateBinaryGradWeight``: ``m = m.mul(self.target_modules[index].grad.data)``, then
``self.target_modules[index].grad.data = m.add(m_add).mul(n)``) is changed, not
replaced: what it held, stale gradients included, goes on to the step. Read as a
gradient written by hand of unknown parameters, every gradient became unknown and the
missing clear before the backward was silent (jiecaoyu/XNOR-Net-PyTorch, session 27's
robustness probe). A gradient replaced by something else stays unknown.
"""

import torch.nn as nn


class BinOp:
    def __init__(self, model):
        self.target_modules = [m.weight for m in model.modules() if isinstance(m, nn.Conv2d)]
        self.num_of_params = len(self.target_modules)

    def updateBinaryGradWeight(self):
        for index in range(self.num_of_params):
            weight = self.target_modules[index].data
            n = weight[0].nelement()
            m = weight.norm(1, 3, keepdim=True).div(n).expand(weight.size())
            m = m.mul(self.target_modules[index].grad.data)
            m_add = weight.sign().mul(self.target_modules[index].grad.data)
            self.target_modules[index].grad.data = m.add(m_add).mul(n)

    def fake_gradients(self, values):
        for index in range(self.num_of_params):
            self.target_modules[index].grad.data = values[index]


def train(model, loader, optimizer, criterion):
    bin_op = BinOp(model)
    for data, target in loader:
        loss = criterion(model(data), target)
        loss.backward()  # expect: ZG101
        bin_op.updateBinaryGradWeight()
        optimizer.step()


def train_cleared(model, loader, optimizer, criterion):
    bin_op = BinOp(model)
    for data, target in loader:
        optimizer.zero_grad()
        loss = criterion(model(data), target)
        loss.backward()
        bin_op.updateBinaryGradWeight()
        optimizer.step()


def train_with_fake_gradients(model, loader, optimizer, criterion, values):
    bin_op = BinOp(model)
    for data, target in loader:
        loss = criterion(model(data), target)
        loss.backward()
        bin_op.fake_gradients(values)
        optimizer.step()
