"""Reading the gradient of an input tensor the function made (an adversarial attack's
``x_adv.grad``, a saliency map's ``x.grad``) reads that tensor's gradient, not the
model's: the model optimizer's applied gradients that the attack's backward adds onto
are no part of it (Madry-style PGD training, YisenWang/MART's white-box evaluation,
locuslab/fast_adversarial's ``attack_pgd``; each was a false ZG101 "the read of
``.grad`` sees their sum"). Such a read concerns only an optimizer built over that
tensor (MART's throw-away ``SGD([X_pgd])``)."""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim


def pgd_training(model, loader, optimizer, eps=8 / 255, alpha=2 / 255, steps=7):
    for x, y in loader:
        x_adv = x.clone()
        for _ in range(steps):
            x_adv.requires_grad_()
            loss = F.cross_entropy(model(x_adv), y)
            loss.backward()
            x_adv = x_adv.detach() + alpha * x_adv.grad.sign()
            x_adv = torch.min(torch.max(x_adv, x - eps), x + eps).clamp(0, 1)
        optimizer.zero_grad()
        loss = F.cross_entropy(model(x_adv), y)
        loss.backward()
        optimizer.step()


def saliency_after_training(loader, x, target_class):
    model = nn.Linear(10, 3)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for X, y in loader:
        optimizer.zero_grad()
        F.cross_entropy(model(X), y).backward()
        optimizer.step()
    model.eval()
    x = x.clone().requires_grad_(True)
    score = model(x)[0, target_class]
    score.backward()
    return x.grad.abs().max(dim=1)[0]


def pgd_whitebox(model, X, y, epsilon=0.031, num_steps=20, step_size=0.003):
    X_pgd = (X.detach() + torch.empty_like(X).uniform_(-epsilon, epsilon)).requires_grad_()
    for _ in range(num_steps):
        opt = optim.SGD([X_pgd], lr=1e-3)
        opt.zero_grad()
        loss = nn.CrossEntropyLoss()(model(X_pgd), y)
        loss.backward()
        eta = step_size * X_pgd.grad.data.sign()
        X_pgd = (X_pgd.data + eta).requires_grad_()
    return X_pgd


def train_then_evaluate(loader, epochs):
    model = nn.Linear(10, 3)
    optimizer = optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(epochs):
        for data, target in loader:
            optimizer.zero_grad()
            F.cross_entropy(model(data), target).backward()
            optimizer.step()
        for X, y in loader:
            pgd_whitebox(model, X, y)


def attack_pgd(model, X, y, eps=0.03, alpha=0.01, iters=5):
    delta = torch.zeros_like(X).uniform_(-eps, eps)
    delta.requires_grad = True
    for _ in range(iters):
        loss = F.cross_entropy(model(X + delta), y)
        loss.backward()
        grad = delta.grad.detach()
        delta.data = (delta + alpha * torch.sign(grad)).clamp(-eps, eps)
        delta.grad.zero_()
    return delta.detach()


def early_stopping_check(loader, epochs):
    model = nn.Linear(10, 3)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(epochs):
        for i, (X, y) in enumerate(loader):
            if i == 0:
                first_batch = (X, y)
            opt.zero_grad()
            F.cross_entropy(model(X), y).backward()
            opt.step()
        X, y = first_batch
        attack_pgd(model, X, y)
