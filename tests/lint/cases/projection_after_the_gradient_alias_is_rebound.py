"""A PGD attack that rebinds its perturbation to a new leaf after each signed-gradient
step, then projects it (``eta = clamp(X_pgd.data - X, -eps, eps); X_pgd.data = X +
eta``: locuslab/convex_adversarial's ``examples/trainer.py``). ``eta`` was bound to the
gradient's sign before, but the projection reads its later binding, the clamp: an
assignment to ``.data`` that uses no gradient is no update. Read through every binding
of ``eta``, the projection was a manual step after the rebinding (a clear): a false
ZG102, and a false ZG101 where the rebinding keeps ``requires_grad``. Through the
latest binding of an alias, a gradient step is still one, also when that binding
reads the alias's earlier one (``d = clamp(d + alpha * sign(g)); d = clamp(d, lo,
hi)``, fast_adversarial's and AWP's ``attack_pgd``: the earlier binding counts too).
"""

import torch
import torch.nn as nn
from torch.autograd import Variable


def train_madry(loader, model, epsilon, opt):
    for X, y in loader:
        X_pgd = Variable(X, requires_grad=True)
        for _ in range(50):
            opt.zero_grad()
            loss = nn.CrossEntropyLoss()(model(X_pgd), y)
            loss.backward()
            eta = 0.01 * X_pgd.grad.data.sign()
            X_pgd = Variable(X_pgd.data + eta, requires_grad=True)
            eta = torch.clamp(X_pgd.data - X, -epsilon, epsilon)
            X_pgd.data = X + eta
        opt.zero_grad()
        loss = nn.CrossEntropyLoss()(model(X_pgd.data), y)
        loss.backward()
        opt.step()


def pgd(model, X, y, epsilon, steps=10):
    X_pgd = X.clone().requires_grad_(True)
    for _ in range(steps):
        loss = nn.CrossEntropyLoss()(model(X_pgd), y)
        loss.backward()
        eta = 0.01 * X_pgd.grad.data.sign()
        X_pgd = (X_pgd.data + eta).requires_grad_(True)
        eta = torch.clamp(X_pgd.data - X, -epsilon, epsilon)
        X_pgd.data = X + eta
    return X_pgd.detach()


def step_through_the_latest_binding_never_cleared(model, X, y, epsilon, steps=10):
    delta = torch.zeros_like(X, requires_grad=True)
    for _ in range(steps):
        loss = nn.CrossEntropyLoss()(model(X + delta), y)
        loss.backward()  # expect: ZG101
        eta = torch.zeros_like(X)
        eta = 0.01 * delta.grad.data.sign()
        delta.data = torch.clamp(delta.data + eta, -epsilon, epsilon)
    return delta.detach()


def attack_pgd_never_cleared(model, X, y, epsilon, alpha, iters, lower, upper):
    delta = torch.zeros_like(X).uniform_(-epsilon, epsilon)
    delta.requires_grad = True
    for _ in range(iters):
        loss = nn.functional.cross_entropy(model(X + delta), y)
        loss.backward()  # expect: ZG101
        grad = delta.grad.detach()
        d = delta[:, :, :, :]
        g = grad[:, :, :, :]
        d = torch.clamp(d + alpha * torch.sign(g), min=-epsilon, max=epsilon)
        d = torch.max(torch.min(d, upper - X), lower - X)
        delta.data[:, :, :, :] = d
    return delta.detach()
