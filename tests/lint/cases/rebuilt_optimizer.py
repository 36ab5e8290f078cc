"""An optimizer built again in the loop (a new learning rate per step or per epoch): the
new object does not clear the gradients its parameters hold (issue 13, shape 2)."""

import torch

model = Net()
criterion = torch.nn.CrossEntropyLoss()


def new_learning_rate_every_step(loader, schedule):
    for step, (x, y) in enumerate(loader):
        optimizer = torch.optim.SGD(model.parameters(), lr=schedule(step))
        loss = criterion(model(x), y)
        loss.backward()  # expect: ZG101
        optimizer.step()


def new_learning_rate_every_epoch(loader, epochs):
    for epoch in range(epochs):
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1 * 0.9**epoch)
        for x, y in loader:
            optimizer.zero_grad()
            loss = criterion(model(x), y)
            loss.backward()
            optimizer.step()


def rebuilt_and_module_cleared(loader, schedule):
    for step, (x, y) in enumerate(loader):
        optimizer = torch.optim.SGD(model.parameters(), lr=schedule(step))
        model.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()


def new_model_every_trial(loader, trials):
    for trial in range(trials):
        net = Net()
        optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
        loss = criterion(net(loader.x), loader.y)
        loss.backward()
        optimizer.step()
