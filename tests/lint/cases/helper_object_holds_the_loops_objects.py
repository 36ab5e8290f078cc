"""A helper object built in the training function with the loop's own model and
optimizer (the Kaggle AWP class, ``awp = AWP(model, optimizer)``; its constructor stores
them as they are: ``self.model = model``, ``self.optimizer = optimizer``). Inside its
methods those attributes are the loop's objects:

* its ``self.optimizer.zero_grad()`` clears the loop's optimizer (no missing clear);
* the parameters it writes from their gradients (``param.data.add_(r_at)`` over
  ``self.model.named_parameters()``, the adversarial perturbation) are those the loop's
  ``optimizer.zero_grad()`` clears: nothing it used stays for the next backward.

Both were false ZG101s in competition solutions (25 findings over three repositories).
A helper built with another optimizer clears that one only: the loop's optimizer, never
cleared, is still reported."""

import torch
from torch import nn


class AWP:
    def __init__(self, model, optimizer, adv_lr=1.0, adv_eps=0.01):
        self.model = model
        self.optimizer = optimizer
        self.adv_lr = adv_lr
        self.adv_eps = adv_eps
        self.backup = {}

    def attack_backward(self, x, y):
        self._save()
        self._attack_step()
        nn.functional.mse_loss(self.model(x), y).backward()
        self._restore()

    def _attack_step(self):
        for name, param in self.model.named_parameters():
            if param.requires_grad and param.grad is not None:
                norm = torch.norm(param.grad)
                if norm != 0 and not torch.isnan(norm):
                    param.data.add_(self.adv_lr * param.grad / norm)

    def _save(self):
        for name, param in self.model.named_parameters():
            self.backup[name] = param.data.clone()

    def _restore(self):
        for name, param in self.model.named_parameters():
            param.data = self.backup[name]
        self.backup = {}


class Resetter:
    def __init__(self, optimizer):
        self.optimizer = optimizer

    def reset(self):
        self.optimizer.zero_grad()


def train(loader, epochs):
    model = nn.Linear(4, 1)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    awp = AWP(model, optimizer)
    for _ in range(epochs):
        for x, y in loader:
            nn.functional.mse_loss(model(x), y).backward()
            awp.attack_backward(x, y)
            optimizer.step()
            optimizer.zero_grad()


def train_with_a_resetter(loader):
    model = nn.Linear(4, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    resetter = Resetter(optimizer)
    for x, y in loader:
        resetter.reset()
        nn.functional.mse_loss(model(x), y).backward()
        optimizer.step()


def train_never_clearing(loader):
    model = nn.Linear(4, 1)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    resetter = Resetter(torch.optim.SGD(nn.Linear(4, 1).parameters(), lr=0.1))
    for x, y in loader:
        resetter.reset()
        nn.functional.mse_loss(model(x), y).backward()  # expect: ZG101
        optimizer.step()
