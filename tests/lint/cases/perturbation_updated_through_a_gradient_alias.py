# A PGD attack updates its perturbation by hand from its gradient, read through an
# alias (``grad = delta.grad.detach()``) or written into part of it
# (``delta.data[I] = ...[I]``): without ``delta.grad.zero_()`` each attack step uses the
# sign of the sum of all earlier gradients (fast_adversarial's open issue #26).
import torch
import torch.nn.functional as F


def clamp(x, lower, upper):
    return torch.max(torch.min(x, upper), lower)


def pgd_through_an_alias(model, X, y, epsilon, alpha, iters):
    delta = torch.zeros_like(X).uniform_(-epsilon, epsilon)
    delta.requires_grad = True
    for _ in range(iters):
        loss = F.cross_entropy(model(X + delta), y)
        loss.backward()
        grad = delta.grad.detach()
        delta.data = clamp(delta + alpha * torch.sign(grad), -epsilon, epsilon)
        delta.grad.zero_()
    return delta.detach()


def pgd_through_an_alias_never_cleared(model, X, y, epsilon, alpha, iters):
    delta = torch.zeros_like(X).uniform_(-epsilon, epsilon)
    delta.requires_grad = True
    for _ in range(iters):
        loss = F.cross_entropy(model(X + delta), y)
        loss.backward()  # expect: ZG101
        grad = delta.grad.detach()
        delta.data = clamp(delta + alpha * torch.sign(grad), -epsilon, epsilon)
    return delta.detach()


def pgd_on_the_misclassified_only(model, opt, loader, epsilon, alpha, iters):
    for X, y in loader:
        delta = torch.zeros_like(X).uniform_(-epsilon, epsilon)
        for _ in range(iters):
            delta.requires_grad = True
            output = model(X + delta)
            loss = F.cross_entropy(output, y)
            opt.zero_grad()  # the model's, not delta's
            loss.backward()  # expect: ZG101
            index = output.max(1)[1] == y
            delta.data[index] = clamp(delta + alpha * torch.sign(delta.grad), -epsilon, epsilon)[index]
        delta = delta.detach()
        loss = F.cross_entropy(model(X + delta), y)
        opt.zero_grad()
        loss.backward()
        opt.step()


def gradient_from_autograd_grad(model, X, y, alpha, iters):
    x_adv = X.clone()
    for _ in range(iters):
        x_adv.requires_grad_()
        loss = F.cross_entropy(model(x_adv), y)
        grad = torch.autograd.grad(loss, [x_adv])[0]
        x_adv = x_adv.detach() + alpha * torch.sign(grad.detach())
    return x_adv


def gradient_statistics(model, loader):
    norms = []
    for x in loader:
        model.zero_grad()
        model(x).sum().backward()
        grads = [p.grad.clone() for p in model.parameters()]
        norms.append(sum(g.norm() for g in grads))
    return norms


def pgd_through_two_aliases_never_cleared(model, X, y, epsilon, alpha, iters):  # AWP's
    delta = torch.zeros_like(X).uniform_(-epsilon, epsilon)
    delta.requires_grad = True
    for _ in range(iters):
        output = model(X + delta)
        index = torch.where(output.max(1)[1] == y)
        loss = F.cross_entropy(output, y)
        loss.backward()  # expect: ZG101
        grad = delta.grad.detach()
        d = delta[index[0], :, :, :]
        g = grad[index[0], :, :, :]
        d = clamp(d + alpha * torch.sign(g), -epsilon, epsilon)
        delta.data[index[0], :, :, :] = d
    return delta.detach()
