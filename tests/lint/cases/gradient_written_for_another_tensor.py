"""Gradients written by hand (``p.grad = g``) make what an optimizer over those
parameters will apply unknown, and only theirs: a loss weight's own gradient
(``w.grad = torch.autograd.grad(loss, w)[0]``, GradNorm), or another module's walked
in a loop over its ``parameters()`` (a meta-learned weighting network), say nothing of
the model's optimizer, whose missing clear is still a missing clear (session 26's probe
A: 8 deleted clears hidden by such a write). Written for the optimizer's own parameters
(faked gradients, federated averaging), they stay unknown: no finding."""

import torch
from torch import nn


def loss_weight_gradient(model, batches):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    w = torch.ones(1, requires_grad=True)
    for x in batches:
        loss = (w * model(x)).pow(2).mean()
        loss.backward(retain_graph=True)  # expect: ZG101
        w.grad = torch.autograd.grad(loss, w)[0]
        w.data -= 0.01 * w.grad
        optimizer.step()


def weighting_network_written(model, weighting, batches):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    weighting_optimizer = torch.optim.SGD(weighting.parameters(), lr=0.1)
    for x in batches:
        for w in weighting.parameters():
            w.grad = -0.1 * w.detach()
        weighting_optimizer.step()
        loss = weighting(model(x)).sum()
        loss.backward()  # expect: ZG101
        optimizer.step()
        weighting_optimizer.zero_grad()


def own_parameters_written(model, batches, averaged):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x in batches:
        model(x).sum().backward()
        for p, g in zip(model.parameters(), averaged):
            p.grad = g.clone()
        optimizer.step()
