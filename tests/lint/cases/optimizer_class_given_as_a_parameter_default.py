"""An optimizer built by calling a parameter whose default is an optimizer class
(``def fit(..., opt_func=torch.optim.SGD): optimizer = opt_func(model.parameters(),
lr)``, the Jovian "Deep Learning with PyTorch: Zero to GANs" course and the code built
on it) is an optimizer over those parameters, like ``torch.optim.SGD(...)`` written
out. Read as an unknown call, the optimizer was known by its name only, or not at all
(``solver``), and what it steps was unknown: manuel-galati/usad's two optimizers over
the encoder and one decoder each, whose losses reach the other decoder, leak into
each other (ZG104), which was silent.
"""

import torch
import torch.nn as nn


def fit(epochs, lr, model, train_loader, opt_func=torch.optim.SGD):
    solver = opt_func(model.parameters(), lr)
    for epoch in range(epochs):
        for batch in train_loader:
            loss = model.training_step(batch)
            loss.backward()  # expect: ZG101
            solver.step()


def fit_cleared(epochs, lr, model, train_loader, opt_func=torch.optim.SGD):
    solver = opt_func(model.parameters(), lr)
    for epoch in range(epochs):
        for batch in train_loader:
            loss = model.training_step(batch)
            loss.backward()
            solver.step()
            solver.zero_grad()


class Usad(nn.Module):
    def __init__(self, w, z):
        super().__init__()
        self.encoder = nn.Linear(w, z)
        self.decoder1 = nn.Linear(z, w)
        self.decoder2 = nn.Linear(z, w)

    def training_step(self, batch, n):
        z = self.encoder(batch)
        w1 = self.decoder1(z)
        w2 = self.decoder2(z)
        w3 = self.decoder2(self.encoder(w1))
        loss1 = 1 / n * ((batch - w1) ** 2).mean() + (1 - 1 / n) * ((batch - w3) ** 2).mean()
        loss2 = 1 / n * ((batch - w2) ** 2).mean() - (1 - 1 / n) * ((batch - w3) ** 2).mean()
        return loss1, loss2


def training(epochs, model: Usad, loader, opt_func=torch.optim.Adam):
    optimizer1 = opt_func(list(model.encoder.parameters()) + list(model.decoder1.parameters()))
    optimizer2 = opt_func(list(model.encoder.parameters()) + list(model.decoder2.parameters()))
    for epoch in range(epochs):
        for batch in loader:
            loss1, loss2 = model.training_step(batch, epoch + 1)
            loss1.backward()  # expect: ZG104
            optimizer1.step()
            optimizer1.zero_grad()
            loss1, loss2 = model.training_step(batch, epoch + 1)
            loss2.backward()  # expect: ZG104
            optimizer2.step()
            optimizer2.zero_grad()


def training_cleared_before(epochs, model: Usad, loader, opt_func=torch.optim.Adam):
    optimizer1 = opt_func(list(model.encoder.parameters()) + list(model.decoder1.parameters()))
    optimizer2 = opt_func(list(model.encoder.parameters()) + list(model.decoder2.parameters()))
    for epoch in range(epochs):
        for batch in loader:
            loss1, loss2 = model.training_step(batch, epoch + 1)
            optimizer1.zero_grad()
            loss1.backward()
            optimizer1.step()
            loss1, loss2 = model.training_step(batch, epoch + 1)
            optimizer2.zero_grad()
            loss2.backward()
            optimizer2.step()
