# A clear under a test of the gradients' values clears only some parameters
# (megvii-model/SinglePathOneShot drops the all-zero gradients of the paths a one-shot
# supernet step did not sample, so SGD's momentum skips them; the sampled paths keep
# their fresh gradients). Only a test of whether there is a gradient at all
# (``p.grad is not None``, ``p.requires_grad``) makes a clear as good as unconditional.
import torch


def supernet_step(model, loader, optimizer):
    for data, target in loader:
        loss = torch.nn.functional.cross_entropy(model(data), target)
        optimizer.zero_grad()
        loss.backward()
        for p in model.parameters():
            if p.grad is not None and p.grad.sum() == 0:
                p.grad = None
        optimizer.step()


def supernet_step_never_cleared(model, loader, optimizer):
    for data, target in loader:
        loss = torch.nn.functional.cross_entropy(model(data), target)
        loss.backward()  # expect: ZG101
        for p in model.parameters():
            if p.grad is not None and p.grad.sum() == 0:
                p.grad = None
        optimizer.step()


def cleared_where_there_is_a_gradient(model, loader, optimizer):
    for data, target in loader:
        for p in model.parameters():
            if p.grad is not None and p.requires_grad:
                p.grad.zero_()
        torch.nn.functional.cross_entropy(model(data), target).backward()
        optimizer.step()
