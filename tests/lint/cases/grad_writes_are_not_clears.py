"""Writes into ``.grad`` give the step gradients; only zeroing writes clear; scaling
(clipping, normalisation, a deliberate decay) neither clears nor steps (issue 13, shape 5)."""

import torch

model = Net()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)


def faked_gradients_fill(x):
    model(x).sum().backward()
    optimizer.zero_grad()
    for p in model.parameters():
        p.grad.fill_(1.0)
    optimizer.step()


def faked_gradients_copy(x, grads):
    model(x).sum().backward()
    optimizer.zero_grad()
    for p, g in zip(model.parameters(), grads):
        p.grad.copy_(g)
    optimizer.step()


def faked_gradients_assigned(x, grads):
    model(x).sum().backward()
    optimizer.zero_grad()
    for p, g in zip(model.parameters(), grads):
        p.grad = g.clone()
    optimizer.step()


def federated_average(global_model, global_opt, clients, loader):
    for x, y in loader:
        global_opt.zero_grad()
        loss = criterion(global_model(x), y)
        loss.backward()
        global_opt.zero_grad()
        for p, *client_params in zip(global_model.parameters(), *clients):
            p.grad = sum(c.grad for c in client_params) / len(client_params)
        global_opt.step()


def zero_fill_is_a_clear(loader):
    for x, y in loader:
        loss = criterion(model(x), y)
        loss.backward()
        for p in model.parameters():
            p.grad.fill_(0)
        optimizer.step()  # expect: ZG102


def multiply_by_zero_is_a_clear(loader):
    for x, y in loader:
        loss = criterion(model(x), y)
        loss.backward()
        for p in model.parameters():
            p.grad.mul_(0)
        optimizer.step()  # expect: ZG102


def clip_grads(parameters, max_norm):
    total = 0.0
    for p in parameters:
        total += p.grad.data.norm(2).item() ** 2
    coef = max_norm / (total**0.5 + 1e-6)
    if coef < 1:
        for p in parameters:
            p.grad.data.mul_(coef)


def clipping_helper_is_not_a_step(loader):
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        clip_grads(model.parameters(), 1.0)
        optimizer.step()


def clipping_helper_is_not_a_clear(loader):
    for x, y in loader:
        loss = criterion(model(x), y)
        loss.backward()  # expect: ZG101
        clip_grads(model.parameters(), 1.0)
        optimizer.step()


def clipping_in_place_is_not_a_clear(loader):
    for x, y in loader:
        loss = criterion(model(x), y)
        loss.backward()  # expect: ZG101
        for p in model.parameters():
            p.grad[:] *= 0.5
        optimizer.step()


def guarded_clear(params, loader):
    for x, y in loader:
        if params[0].grad is not None:
            for p in params:
                p.grad.zero_()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()


def sgd(params, lr):
    for p in params:
        p.data -= lr * p.grad


def guarded_clear_of_optional_parameters(loader, params=None, lr=0.1, optimizer=None):
    # d2l's train_ch3: with neither an optimizer nor parameters there is nothing to clear
    for x, y in loader:
        loss = ((x @ params[0] - y) ** 2).sum()
        if optimizer is not None:
            optimizer.zero_grad()
        elif params is not None and params[0].grad is not None:
            for p in params:
                p.grad.data.zero_()
        loss.backward()
        if optimizer is None:
            sgd(params, lr)
        else:
            optimizer.step()


def decay_after_step_is_a_deliberate_carry(loader):
    for x, y in loader:
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        for p in model.parameters():
            p.grad = p.grad / 2


def decay_in_place_after_step(loader, beta):
    for x, y in loader:
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        for p in model.parameters():
            p.grad.mul_(beta)
