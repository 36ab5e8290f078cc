import torch

optimizer = torch.optim.LBFGS(model.parameters(), lr=1)


def closure():
    optimizer.zero_grad()
    loss = criterion(model(x), y)
    loss.backward()
    return loss


for epoch in range(20):
    optimizer.step(closure)


def leaky_closure():
    loss = criterion(model(x), y)
    loss.backward()  # expect: ZG101
    return loss


for epoch in range(20):
    optimizer.step(leaky_closure)

for epoch in range(20):
    optimizer.step(lambda: closure())
