# A3C workers (minimalRL, pytorch-a3c): the optimizer steps the shared model's
# parameters, the backward runs on the worker's local model, and the local gradient
# tensors are handed over (``global_param._grad = local_param.grad``). Since PyTorch 2.0
# ``optimizer.zero_grad()`` sets the shared gradients to None instead of zeroing the
# tensors in place, so nothing clears the local gradients: the next backward adds onto
# them and the step applies every earlier iteration's gradients again.
import torch
import torch.nn as nn
import torch.optim as optim


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(x)


def worker(global_model, rank):
    local_model = ActorCritic()
    optimizer = optim.Adam(global_model.parameters(), lr=1e-4)
    for n_epi in range(1000):
        local_model.load_state_dict(global_model.state_dict())
        loss = local_model(torch.randn(8, 4)).pow(2)
        optimizer.zero_grad()
        loss.mean().backward()  # expect: ZG101
        for global_param, local_param in zip(global_model.parameters(), local_model.parameters()):
            global_param._grad = local_param.grad
        optimizer.step()


def worker_clearing_the_local_model(global_model, rank):
    local_model = ActorCritic()
    optimizer = optim.Adam(global_model.parameters(), lr=1e-4)
    for n_epi in range(1000):
        local_model.load_state_dict(global_model.state_dict())
        loss = local_model(torch.randn(8, 4)).pow(2)
        local_model.zero_grad()
        loss.mean().backward()
        for global_param, local_param in zip(global_model.parameters(), local_model.parameters()):
            global_param._grad = local_param.grad
        optimizer.step()


def worker_zeroing_in_place(global_model, rank):
    local_model = ActorCritic()
    optimizer = optim.Adam(global_model.parameters(), lr=1e-4)
    for n_epi in range(1000):
        local_model.load_state_dict(global_model.state_dict())
        loss = local_model(torch.randn(8, 4)).pow(2)
        optimizer.zero_grad(set_to_none=False)
        loss.mean().backward()
        for global_param, local_param in zip(global_model.parameters(), local_model.parameters()):
            global_param.grad = local_param.grad
        optimizer.step()


def ensure_shared_grads(model, shared_model):
    for param, shared_param in zip(model.parameters(), shared_model.parameters()):
        shared_param._grad = param.grad


def worker_with_a_helper(shared_model, model, optimizer, loader):
    for x in loader:
        model.load_state_dict(shared_model.state_dict())
        optimizer.zero_grad()
        model(x).sum().backward()  # expect: ZG101
        ensure_shared_grads(model, shared_model)
        optimizer.step()
