"""Gradient-based pruning, saliency and Fisher estimates run a backward and then read
``p.grad``; the last training step's gradients are still there unless cleared (issue 13,
shape 9)."""

import torch

model = Net()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
criterion = torch.nn.CrossEntropyLoss()


def train_then_prune(loader, x, y):
    for xb, yb in loader:
        optimizer.zero_grad()
        criterion(model(xb), yb).backward()
        optimizer.step()
    loss = criterion(model(x), y)
    loss.backward()  # expect: ZG101
    scores = {}
    for name, p in model.named_parameters():
        scores[name] = (p * p.grad).abs()
    return scores


def train_then_prune_cleared(loader, x, y):
    for xb, yb in loader:
        optimizer.zero_grad()
        criterion(model(xb), yb).backward()
        optimizer.step()
    model.zero_grad()
    loss = criterion(model(x), y)
    loss.backward()
    return [p.grad.abs() for p in model.parameters()]


def fisher_sum_over_batches(loader):
    model.zero_grad()
    for x, y in loader:
        criterion(model(x), y).backward()
    fisher = {}
    for name, p in model.named_parameters():
        fisher[name] = p.grad.pow(2)
    return fisher


def train_then_fisher(loader):
    for xb, yb in loader:
        optimizer.zero_grad()
        criterion(model(xb), yb).backward()
        optimizer.step()
    for x, y in loader:
        criterion(model(x), y).backward()  # expect: ZG101
    return [p.grad.pow(2) for p in model.parameters()]
