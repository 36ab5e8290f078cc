"""Optimizer classes the file derives from PyTorch's (A3C's ``SharedAdam``): their
instances are optimizers and ``step()`` applies the gradients, whatever the body does to
them first (quantumiracle/Popular-RL-Algorithms, ikostrikov/pytorch-a3c)."""

import torch
import torch.optim as optim
from torch.optim import Optimizer


class SharedAdam(optim.Adam):
    def __init__(self, params, lr=1e-3):
        super(SharedAdam, self).__init__(params, lr=lr)
        for group in self.param_groups:
            for p in group["params"]:
                self.state[p]["step"] = torch.zeros(1).share_memory_()


class SharedAdamShared(SharedAdam):
    def share_memory(self):
        for group in self.param_groups:
            for p in group["params"]:
                self.state[p]["step"].share_memory_()


class DecayedSGD(Optimizer):
    def __init__(self, params, lr=1e-3, weight_decay=0):
        super().__init__(params, dict(lr=lr, weight_decay=weight_decay))

    def step(self, closure=None):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                grad = p.grad.data
                if group["weight_decay"] != 0:
                    grad.add_(p.data, alpha=group["weight_decay"])
                p.data.add_(grad, alpha=-group["lr"])


def shared_adam_without_clear(net, loader):
    opt = SharedAdam(net.parameters())
    for x in loader:
        net(x).sum().backward()  # expect: ZG101
        opt.step()


def subclass_of_a_subclass_without_clear(net, loader):
    opt = SharedAdamShared(net.parameters())
    for x in loader:
        net(x).sum().backward()  # expect: ZG101
        opt.step()


def own_step_without_clear(net, loader):
    opt = DecayedSGD(net.parameters(), weight_decay=1e-4)
    for x in loader:
        net(x).sum().backward()  # expect: ZG101
        opt.step()


def own_step_cleared(net, loader):
    opt = DecayedSGD(net.parameters(), weight_decay=1e-4)
    for x in loader:
        opt.zero_grad()
        net(x).sum().backward()
        opt.step()


def shared_adam_cleared(net, loader):
    opt = SharedAdam(net.parameters())
    for x in loader:
        opt.zero_grad()
        net(x).sum().backward()
        opt.step()
