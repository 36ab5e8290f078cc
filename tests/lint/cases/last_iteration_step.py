"""Gradients accumulated over the whole epoch and stepped once, on the last iteration
(``index == len(loader) - 1``): that path leaves the loop, so nothing is stepped twice."""

import torch

model = Net()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)


def step_on_last_batch(loader):
    for index, batch in enumerate(loader):
        loss = model(batch).sum()
        loss.backward()
        if index == len(loader) - 1:
            optimizer.step()


def step_on_last_batch_else(loader):
    for index, batch in enumerate(loader):
        if index != len(loader) - 1:
            model(batch).sum().backward()
        else:
            model(batch).sum().backward()
            optimizer.step()


def step_on_last_batch_every_epoch(loader, epochs):
    for epoch in range(epochs):
        for index, batch in enumerate(loader):
            loss = model(batch).sum()
            loss.backward()  # expect: ZG101
            if index + 1 == len(loader):
                optimizer.step()
