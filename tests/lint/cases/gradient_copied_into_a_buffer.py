# Copying a parameter's gradient into a separate buffer (`G[:, k].copy_(p.grad)`: GEM's
# gradient snapshots in PyCIL and mammoth) reads the gradient; it updates no parameter.
# A copy into the parameter itself, or an update written through another name, still is
# an update by hand.
import torch


def snapshots_between_backward_and_step(net, loader, G):
    optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
    for x, y in loader:
        optimizer.zero_grad()
        net(x).sum().backward()
        for k, p in enumerate(net.parameters()):
            G[:, k].data.copy_(p.grad.data.view(-1))
        optimizer.step()


def store_grad(params, grads):
    for param in params():
        if param.grad is not None:
            grads.copy_(param.grad.data.view(-1))


def snapshot_in_a_helper(net, loader, grads):
    optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
    for x, y in loader:
        optimizer.zero_grad()
        net(x).sum().backward()
        store_grad(net.parameters, grads)
        optimizer.step()


def update_through_a_copy_without_a_clear(w, loader, lr):
    for x in loader:
        (w * x).sum().backward()  # expect: ZG101
        w.data.copy_(w.data - lr * w.grad)
