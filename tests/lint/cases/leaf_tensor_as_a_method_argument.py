"""A leaf tensor is a parameter of its own wherever the loss reads it (chenyuntc/
pytorch-book, chapter 3): ``x.mm(w)`` reaches ``w`` as well as ``x``. It was read as
reaching only ``x``, a fresh tensor of the loop, so the manual update of ``w`` never met
its gradients and a deleted ``w.grad.data.zero_()`` went unreported."""
import torch


def cleared_every_iteration(lr=0.005):
    m = torch.rand(1, 1, requires_grad=True)
    for _ in range(500):
        x = torch.rand(32, 1) * 5
        loss = (x.mm(m) ** 2).sum()
        loss.backward()
        m.data.sub_(lr * m.grad.data)
        m.grad.data.zero_()


w = torch.rand(1, 1, requires_grad=True)

for ii in range(500):
    x = torch.rand(32, 1)
    loss = (x.mm(w) ** 2).sum()
    loss.backward()  # expect: ZG101
    w.data.sub_(0.005 * w.grad.data)
