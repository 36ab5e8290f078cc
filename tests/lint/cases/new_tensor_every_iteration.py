"""Tensors made afresh on every iteration and updated by hand (Deep Dream in
L1aoXingyu/code-of-learn-deep-learning-with-pytorch: ``x = Variable(torch.Tensor(img),
requires_grad=True)``, a backward, ``x.data.add_(x.grad.data * lr)``): each new tensor
has no gradient, so nothing is applied twice (a false ZG101 for ``Variable(...)``,
``torch.Tensor(...).requires_grad_()``, ``torch.from_numpy(...)``, ``.clone()`` and
``.detach()``; ``torch.randn(..., requires_grad=True)`` was already known). And the
update written as an assignment to ``.data`` (``w.data = w.data - lr * w.grad.data``,
PyTorchZeroToAll and older teaching code) is an update like ``w.data.sub_(...)``: a loop
that never clears it applies every earlier gradient again."""
import numpy as np
import torch
from torch.autograd import Variable


def deep_dream_variable(img, model, lr):
    for i in range(20):
        x = Variable(torch.Tensor(img), requires_grad=True)
        act = model(x)
        act.backward(act.data)
        x.data.add_(x.grad.data * lr)
        img = x.data.numpy()
    return img


def deep_dream_requires_grad(img, model, lr):
    for i in range(20):
        x = torch.Tensor(img).requires_grad_()
        act = model(x)
        act.backward(act.data)
        x.data.add_(x.grad.data * lr)
        img = x.data.numpy()
    return img


def deep_dream_from_numpy(img, model, lr):
    for i in range(20):
        x = torch.from_numpy(np.asarray(img)).float().requires_grad_()
        model(x).sum().backward()
        x.data.add_(x.grad.data * lr)
        img = x.data.numpy()
    return img


def deep_dream_detached_copy(img, model, lr):
    for i in range(20):
        x = img.detach().clone().requires_grad_(True)
        model(x).sum().backward()
        x.data.add_(x.grad.data * lr)
        img = x.data


w = torch.tensor([1.0], requires_grad=True)
for x_val, y_val in zip([1.0, 2.0, 3.0], [2.0, 4.0, 6.0]):
    loss = (x_val * w - y_val) ** 2
    loss.backward()  # expect: ZG101
    w.data = w.data - 0.01 * w.grad.data

v = torch.tensor([1.0], requires_grad=True)
for x_val, y_val in zip([1.0, 2.0, 3.0], [2.0, 4.0, 6.0]):
    loss = (x_val * v - y_val) ** 2
    loss.backward()
    v.data = v.data - 0.01 * v.grad.data
    v.grad.data.zero_()
