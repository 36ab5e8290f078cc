"""NVIDIA apex's ``with amp.scale_loss(loss, optimizer) as scaled_loss:
scaled_loss.backward()`` scales the loss and unscales the gradients on exit; it
neither clears nor steps the optimizer it is handed (an overflow makes the next
``step()`` skip, gradients kept). Handed the optimizer, it made its gradients unknown,
so a loop that never clears went unreported (locuslab/fast_adversarial's CIFAR-10
trainers with their clear deleted)."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from apex import amp


def never_cleared(loader):
    model = nn.Linear(10, 3).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    model, opt = amp.initialize(model, opt, opt_level="O1")
    for X, y in loader:
        loss = F.cross_entropy(model(X), y)
        with amp.scale_loss(loss, opt) as scaled_loss:
            scaled_loss.backward()  # expect: ZG101
        opt.step()


def cleared(loader):
    model = nn.Linear(10, 3).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    model, opt = amp.initialize(model, opt, opt_level="O1")
    for X, y in loader:
        loss = F.cross_entropy(model(X), y)
        opt.zero_grad()
        with amp.scale_loss(loss, opt) as scaled_loss:
            scaled_loss.backward()
        opt.step()
