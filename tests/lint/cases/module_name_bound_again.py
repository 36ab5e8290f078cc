# A name bound again to a new object of a class (a notebook's next example reusing
# ``net``) holds new parameters: what the old ones' optimizer and updates did to their
# gradients says nothing of them. A wrapper of the same object (``DataParallel(model)``)
# is not a new one.
import torch
import torch.nn as nn

net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
optimizer = torch.optim.SGD(net.parameters(), lr=0.01)
for epoch in range(3):
    for batch, targets in loader:
        loss = nn.functional.cross_entropy(net(batch), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

net = nn.Linear(2, 2)
y = net(torch.rand(1, 2)).sum()
y.backward()
net.weight.data -= 0.01 * net.weight.grad

net = nn.Linear(2, 2)
y = net(torch.rand(1, 2)).sum()
y.backward()
net.weight.data -= 0.01 * net.weight.grad


def wrapped_again(model, loader):
    opt_model = torch.optim.SGD(model.parameters(), lr=0.01)
    model = nn.DataParallel(model)
    for x in loader:
        model(x).sum().backward()  # expect: ZG101
        opt_model.step()


def new_network_and_optimizer_never_cleared(loader):
    small = nn.Linear(2, 2)
    small = nn.Linear(2, 2)
    opt_small = torch.optim.SGD(small.parameters(), lr=0.01)
    for x in loader:
        small(x).sum().backward()  # expect: ZG101
        opt_small.step()
