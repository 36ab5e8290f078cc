"""An optimizer wrapper of the file whose ``zero_grad()`` clears nothing (its body is
``pass``: the line that forwarded the call to the wrapped optimizer was lost, as in
SlowFast's ``LARS`` and fastai's course ``Optimizer`` with that line deleted): a loop
calling ``optimizer.zero_grad()`` on it never clears, and every step applies all earlier
gradients again. Found by deleting clear lines in held-out repositories (sessions 20 and
21). Still trusted: a wrapper whose ``zero_grad()`` forwards the call, one whose
``step()`` clears after stepping (the clear is its own), a test double whose ``step()``
updates nothing, and a class whose ``zero_grad()`` only declares what subclasses do."""
import torch
from torch import nn


class LARS:
    def __init__(self, optimizer, trust_coefficient=0.02):
        self.optim = optimizer
        self.trust_coefficient = trust_coefficient

    def zero_grad(self):
        pass

    def step(self):
        with torch.no_grad():
            for group in self.optim.param_groups:
                for p in group["params"]:
                    if p.grad is not None:
                        p.grad.mul_(self.trust_coefficient)
        self.optim.step()


class Optimizer:
    def __init__(self, params, lr=0.5):
        self.params, self.lr = list(params), lr

    def step(self):
        with torch.no_grad():
            for p in self.params:
                p -= p.grad * self.lr

    def zero_grad(self):
        """Clear the gradients."""


class Forwarding:
    def __init__(self, optimizer):
        self.optimizer = optimizer

    def zero_grad(self):
        self.optimizer.zero_grad()

    def step(self):
        self.optimizer.step()


class StepClearsOptimizer:
    def __init__(self, optimizer):
        self.optimizer = optimizer

    def zero_grad(self):
        pass  # step() clears

    def step(self):
        self.optimizer.step()
        self.optimizer.zero_grad()


class DummyOptimizer:
    def __init__(self, params):
        self.params = list(params)
        self.calls = 0

    def zero_grad(self):
        pass

    def step(self):
        self.calls += 1


def lars_never_clears(model, loader):
    optimizer = LARS(torch.optim.SGD(model.parameters(), lr=0.1))
    for x, y in loader:
        optimizer.zero_grad()
        loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()  # expect: ZG101
        optimizer.step()


def hand_written_optimizer_never_clears(model, data):
    opt = Optimizer(model.parameters())
    for x, y in data:
        loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()  # expect: ZG101
        opt.step()
        opt.zero_grad()


def forwarding_wrapper_clears(model, loader):
    optimizer = Forwarding(torch.optim.SGD(model.parameters(), lr=0.1))
    for x, y in loader:
        optimizer.zero_grad()
        nn.functional.cross_entropy(model(x), y).backward()
        optimizer.step()


def step_clears_itself(model, loader):
    optimizer = StepClearsOptimizer(torch.optim.SGD(model.parameters(), lr=0.1))
    for x, y in loader:
        optimizer.zero_grad()
        nn.functional.cross_entropy(model(x), y).backward()
        optimizer.step()


def test_double_steps_nothing(model, loader):
    optimizer = DummyOptimizer(model.parameters())
    for x, y in loader:
        optimizer.zero_grad()
        nn.functional.cross_entropy(model(x), y).backward()
        optimizer.step()
