"""A helper whose backward runs only when a flag argument is true: the flow check binds
the flag to the call's constant argument (or the parameter's default)."""

import torch

model = Net()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)


def step_model(net, x, do_backward=True):
    loss = net(x).sum()
    if do_backward:
        loss.backward()  # expect: ZG101


def forward_model(net, x, do_backward=True):
    loss = net(x).sum()
    if do_backward:
        loss.backward()


def forward_by_default(net, x, do_backward=False):
    loss = net(x).sum()
    if do_backward:
        loss.backward()


def train_without_clear(loader):
    for x in loader:
        step_model(model, x)
        optimizer.step()


def evaluate_only(loader):
    for x in loader:
        forward_model(model, x, False)
        forward_by_default(model, x)
        optimizer.step()
