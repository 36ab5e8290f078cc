"""A helper that runs a backward only to read the gradients (a pruning score,
JJGO/shrinkbench's ``get_param_gradients``), called before the training loop: the
loop's first step applies its gradients with the first batch's when nothing clears in
between, as for the same backward written before the loop. Silent when the loop or the
code before it clears first, and when the helper is also called inside the loop."""
import torch.nn as nn


def get_param_gradients(model, inputs, outputs):
    loss = nn.CrossEntropyLoss()(model(inputs), outputs)
    loss.backward()  # expect: ZG101
    return {name: param.grad.detach().clone() for name, param in model.named_parameters()}


def fine_tune(model, optim, x0, y0, loader):
    scores = get_param_gradients(model, x0, y0)
    for x, y in loader:
        loss = nn.CrossEntropyLoss()(model(x), y)
        loss.backward()
        optim.step()
        optim.zero_grad()
    return scores


def fine_tune_cleared(model, optim, x0, y0, loader):
    scores = get_param_gradients(model, x0, y0)
    optim.zero_grad()
    for x, y in loader:
        loss = nn.CrossEntropyLoss()(model(x), y)
        loss.backward()
        optim.step()
        optim.zero_grad()
    return scores


def fine_tune_clearing_first(model, optim, x0, y0, loader):
    scores = get_param_gradients(model, x0, y0)
    for x, y in loader:
        optim.zero_grad()
        loss = nn.CrossEntropyLoss()(model(x), y)
        loss.backward()
        optim.step()
    return scores


def score_every_batch(model, optim, x0, y0, loader):
    scores = get_param_gradients(model, x0, y0)
    for x, y in loader:
        optim.zero_grad()
        scores = get_param_gradients(model, x, y)
        optim.step()
    return scores
