"""A hand-written ascent step, ``z.data += lr * z.grad``, updates ``z`` with its own
gradient like ``z.data -= lr * z.grad`` does: without ``z.grad.zero_()`` each step adds
the earlier iterations' gradients again (Coursera's GAN specialisation, C2W2: the noise
optimised towards a class while the classifier's optimizer, cleared every iteration,
covers the classifier only; CS231n's class visualisation). A sum of another tensor's
gradient into a total (``fisher += p.grad ** 2``) is no update of it."""

import torch

gen, clf = torch.nn.Linear(8, 16), torch.nn.Linear(16, 4)
opt = torch.optim.Adam(clf.parameters())


def noise_towards_a_class(steps):
    z = torch.randn(8, 8).requires_grad_()
    for _ in range(steps):
        opt.zero_grad()
        clf(gen(z))[:, 0].mean().backward()  # expect: ZG101
        z.data += z.grad / 30


def noise_towards_a_class_cleared(steps):
    z = torch.randn(8, 8).requires_grad_()
    for _ in range(steps):
        opt.zero_grad()
        if z.grad is not None:
            z.grad.zero_()
        clf(gen(z))[:, 0].mean().backward()
        z.data += z.grad / 30


def squared_gradients_summed(loader):
    fisher = [torch.zeros_like(p) for p in clf.parameters()]
    clf.zero_grad()
    for x in loader:
        clf(x).sum().backward()
    for f, p in zip(fisher, clf.parameters()):
        f += p.grad**2
    return fisher
