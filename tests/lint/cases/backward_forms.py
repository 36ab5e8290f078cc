import torch
from lightning.fabric import Fabric

fabric = Fabric()
model, optimizer = fabric.setup(model, create_optimizer(model))

for batch in loader:
    optimizer.zero_grad()
    fabric.backward(model(batch))
    optimizer.step()

for batch in loader:
    torch.autograd.backward(model(batch))  # expect: ZG101
    optimizer.step()

for batch in loader:
    grads = torch.autograd.grad(model(batch), params)
    optimizer.step()
