"""Gradients scaled in place after a step (``p.grad.data *= c``) are carried on purpose
into the next step, but only those of the parameters scaled: the center-loss module's,
walked in a loop over its ``parameters()``, say nothing of the model's optimizer, whose
missing clear is still a missing clear (reid-strong-baseline's trainer, a deleted clear
missed in session 26's probe C)."""

import torch
from torch import nn


def center_loss_rescaled(loader, loss_fn, center_loss_weight):
    model = nn.Linear(4, 4)
    center = nn.Linear(4, 4)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    optimizer_center = torch.optim.SGD(center.parameters(), lr=0.5)
    for img, target in loader:
        optimizer_center.zero_grad()
        feat = model(img)
        loss = loss_fn(feat, target) + center(feat).mean()
        loss.backward()  # expect: ZG101
        optimizer.step()
        for param in center.parameters():
            param.grad.data *= 1.0 / center_loss_weight
        optimizer_center.step()


def model_gradients_decayed(loader, beta):
    model = nn.Linear(4, 4)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x in loader:
        model(x).sum().backward()
        optimizer.step()
        for p in model.parameters():
            p.grad.mul_(beta)  # decayed on purpose: carried into the next step
