"""Unknown calls that may write gradients between a clear and the step (R7)."""

import torch

optimizer = torch.optim.SGD(model.parameters(), lr=0.1)


def pcgrad_like(loader, heads):
    for x in loader:
        optimizer.zero_grad()
        losses = [head(x) for head in heads]
        for loss in losses:
            loss.backward(retain_graph=True)
            store(grads)
            optimizer.zero_grad()
        set_grads(project(grads))
        optimizer.step()


def mgda_set_grads(loader, heads):
    for x in loader:
        for head in heads:
            head(x).backward(retain_graph=True)
            collect(model)
            optimizer.zero_grad()
        set_grads(model, combined)
        optimizer.step()


def pcgrad_optimizer_method(loader, heads):
    for x in loader:
        losses = [head(x) for head in heads]
        losses[0].backward(retain_graph=True)
        optimizer.zero_grad()
        optimizer.pc_backward(losses)
        optimizer.step()


def pcgrad_function(loader, heads):
    for x in loader:
        losses = [head(x) for head in heads]
        losses[0].backward(retain_graph=True)
        optimizer.zero_grad()
        pc_backward(losses)
        optimizer.step()


def clear_between_backward_and_step_with_logging(loader):
    for x in loader:
        model(x).sum().backward()
        optimizer.zero_grad()
        log_metrics(x)
        optimizer.step()  # expect: ZG102
