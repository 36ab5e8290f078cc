"""Manual updates written through another name, and leaves rebound before a loop
(rasbt/deeplearning-models' logistic regression, chenyuntc/pytorch-book's chapter 3,
both notebooks). ``tmp = w.detach(); tmp -= lr * w.grad`` updates ``w`` in place through
a detached alias: it applies ``w``'s gradients, which ``w.grad.zero_()`` then clears (it
was read as an update of a parameter ``tmp`` that nothing clears: a false ZG101).
``b = torch.zeros(..., requires_grad=True)`` makes a new leaf with no gradient: a demo
backward into the old ``b``, or into another tensor, before it leaves nothing for the
loop's first update (a false ZG101 on the demo backward). """
import torch

w = torch.zeros(2, 1, requires_grad=True)
v = torch.zeros(2, 1, requires_grad=True)


def update_through_a_detached_alias(x, y, lr=0.1):
    for _ in range(10):
        loss = ((x @ w - y) ** 2).mean()
        loss.backward()
        tmp = w.detach()
        tmp -= lr * w.grad
        w.grad.zero_()


def alias_update_never_cleared(x, y, lr=0.1):
    for _ in range(10):
        loss = ((x @ v - y) ** 2).mean()
        loss.backward()  # expect: ZG101
        tmp = v.data
        tmp -= lr * v.grad


b = torch.zeros(3, requires_grad=True)
(b * 2).sum().backward()  # writes the old b's gradient: a demo

b = torch.zeros(1, requires_grad=True)  # a new leaf: no gradient yet
for i in range(100):
    loss = ((b - 1.0) ** 2).sum()
    loss.backward()
    b.data.sub_(0.1 * b.grad.data)
    b.grad.data.zero_()

