"""A backward before the training loop (a sanity check that every parameter gets a
gradient, a warm-up) with no clear before the first step: the first step applies it with
the first batch's gradients (issue 13, shape 7)."""

import torch

model = Net()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
criterion = torch.nn.CrossEntropyLoss()


def sanity_check_then_train(loader, x0, y0):
    criterion(model(x0), y0).backward()  # expect: ZG101
    for p in model.parameters():
        assert p.grad is not None
    for x, y in loader:
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


def sanity_check_cleared(loader, x0, y0):
    criterion(model(x0), y0).backward()
    for p in model.parameters():
        assert p.grad is not None
    optimizer.zero_grad()
    for x, y in loader:
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


def cleared_at_the_top_of_each_iteration(loader, x0, y0):
    criterion(model(x0), y0).backward()
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()


def rotated_loop(loader, x0, y0):
    loss = criterion(model(x0), y0)
    loss.backward()
    for x, y in loader:
        optimizer.step()
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
