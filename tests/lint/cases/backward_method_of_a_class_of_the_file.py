# ``x.backward(...)`` on an instance of a class of the file that defines ``backward`` calls
# that method: a from-scratch NumPy layer's ``backward(grad)`` stores a gradient (no
# autograd), a trainer's ``backward(loss)`` wraps ``loss.backward()``.
import numpy as np
import torch


class AddBias:
    def __init__(self, b):
        self.b = b

    def forward(self, x):
        return x + self.b

    def backward(self, grad):
        self.grad = grad
        return grad

    def step(self, learning_rate):
        self.b -= learning_rate * self.grad


def numpy_layer(xs, zs):
    layer = AddBias(1.0)
    for i in range(500):
        j = np.random.randint(1, len(xs))
        z_pred = layer.forward(xs[j])
        grad = 2 * (z_pred - zs[j])
        layer.backward(grad)
        layer.step(1e-2)


class Backprop:
    def __init__(self, model):
        self.model = model
        self.optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

    def backward(self, loss):
        loss.backward()


def wrapper_cleared(model, loader):
    trainer = Backprop(model)
    for x in loader:
        trainer.optimizer.zero_grad()
        trainer.backward(model(x).sum())
        trainer.optimizer.step()


def wrapper_never_cleared(model, loader):
    trainer = Backprop(model)
    for x in loader:
        trainer.backward(model(x).sum())  # expect: ZG101
        trainer.optimizer.step()
