"""Gradient Projection Memory (sahagobinda/GPM): after the backward every gradient is
rewritten as itself minus its projection, ``p.grad.data = p.grad.data - proj(p.grad)``,
then the optimizer steps. That changes what the gradient holds, it does not replace it:
a loop that never clears still steps stale gradients again (ZG101); one that clears is
correct; a gradient replaced by another tensor (faked, averaged) stays unknown."""
import torch


def train_projected(model, loader, optimizer, criterion, feature_mat):
    for data, target in loader:
        optimizer.zero_grad()
        loss = criterion(model(data), target)
        loss.backward()
        for k, (m, params) in enumerate(model.named_parameters()):
            sz = params.grad.data.size(0)
            params.grad.data = params.grad.data - torch.mm(
                params.grad.data.view(sz, -1), feature_mat[k]
            ).view(params.size())
        optimizer.step()


def train_projected_without_clear(model, loader, optimizer, criterion, feature_mat):
    for data, target in loader:
        loss = criterion(model(data), target)
        loss.backward()  # expect: ZG101
        for k, (m, params) in enumerate(model.named_parameters()):
            params.grad = params.grad - feature_mat[k] @ params.grad
        optimizer.step()


def train_with_replaced_gradients(model, loader, optimizer, criterion, averaged):
    for data, target in loader:
        loss = criterion(model(data), target)
        loss.backward()
        for k, params in enumerate(model.parameters()):
            params.grad = averaged[k].clone()
        optimizer.step()
