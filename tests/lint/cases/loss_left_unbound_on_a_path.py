"""A path on which the loss is never bound in the iteration cannot reach its
``backward()``: the first iteration raises ``NameError``, a later one backpropagates
through the previous iteration's graph, which its own backward freed (wzekai99's
DM-Improves-AT, ``watrain.py``: ``if consistency: if beta is not None: loss = ...``
with no ``else``, and every branch that binds the loss clears first). That path was
judged as reaching the step without a clear (a false ZG101, session 27's robustness
probe). A loss bound before the branch, or kept with ``retain_graph=True``, keeps the
path.
"""

import torch
import torch.nn as nn


class Trainer:
    def __init__(self, model, consistency, beta):
        self.model = model
        self.optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        self.consistency = consistency
        self.beta = beta

    def standard_loss(self, x, y):
        self.optimizer.zero_grad()
        return nn.functional.cross_entropy(self.model(x), y)

    def consistency_loss(self, x, y):
        self.optimizer.zero_grad()
        return nn.functional.cross_entropy(self.model(x), y) * 2

    def train(self, loader):
        for x, y in loader:
            if self.consistency:
                if self.beta is not None:
                    loss = self.consistency_loss(x, y)
            else:
                loss = self.standard_loss(x, y)
            loss.backward()
            self.optimizer.step()

    def train_bound_before(self, loader):
        for x, y in loader:
            loss = self.model(x).sum()
            if self.consistency:
                loss = self.consistency_loss(x, y)
            loss.backward()  # expect: ZG101
            self.optimizer.step()


def no_else_without_a_clear(model, loader, optimizer, warmup):
    for step, (x, y) in enumerate(loader):
        if step >= warmup:
            optimizer.zero_grad()
            loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()


def kept_graph(model, loader, optimizer, warmup):
    for step, (x, y) in enumerate(loader):
        if step >= warmup:
            optimizer.zero_grad()
            loss = nn.functional.cross_entropy(model(x), y)
        loss.backward(retain_graph=True)  # expect: ZG101
        optimizer.step()
