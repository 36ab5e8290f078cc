"""Hypergradients by implicit differentiation (lorraine2/implicit-hyper-opt's
``mnist_test.py``): each batch clears, runs a backward and subtracts the
hyperparameter's gradient into a plain accumulator made with ``torch.zeros``; after the
loop the sum becomes the gradient and the hyper-optimizer steps once. ``total -= g.grad``
reads a gradient into a new tensor that has no gradient of its own: it is not a
hand-written update of ``total``. And an optimizer over a list of tensors made here
(``SGD([lam])``) clears those tensors: its ``zero_grad()`` before a hand-written update
of ``lam`` clears what that update applies. Both were false ZG101 findings; the same
loops without their clears stay flagged."""
import torch

model = torch.nn.Linear(4, 1)
model.wd = torch.nn.Parameter(torch.zeros(4))
hyper_opt = torch.optim.RMSprop([model.wd])


def get_hyper():
    return model.wd


def hyper_step(loader, cuda):
    total = torch.zeros(4)
    if cuda:
        total = total.cuda()
    for x, y in loader:
        model.zero_grad()
        hyper_opt.zero_grad()
        loss = ((model(x) - y) ** 2).mean() + (get_hyper() * model.weight.view(-1) ** 2).sum()
        loss.backward()
        total -= get_hyper().grad
    get_hyper().grad = total
    hyper_opt.step()


def tensor_list_optimizer_clears(data):
    lam = torch.zeros(4, requires_grad=True)
    opt = torch.optim.SGD([lam], lr=0.1)
    for x in data:
        opt.zero_grad()
        loss = (lam * x).sum()
        loss.backward()
        lam.data -= 0.1 * lam.grad


def tensor_list_optimizer_never_clears(data):
    lam = torch.zeros(4, requires_grad=True)
    opt = torch.optim.SGD([lam], lr=0.1)
    for x in data:
        loss = (lam * x).sum()
        loss.backward()  # expect: ZG101
        lam.data -= 0.1 * lam.grad


def hand_written_update_never_cleared(data):
    w = torch.zeros(4, requires_grad=True)
    for x in data:
        loss = (w * x).sum()
        loss.backward()  # expect: ZG101
        with torch.no_grad():
            w -= 0.1 * w.grad
