# A hand-written update over a module's parameters whose gradients an optimizer over
# the same module clears: the optimizer is only used for its ``zero_grad()``.
import torch

model = torch.nn.Linear(4, 1)
other = torch.nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
opt_other = torch.optim.SGD(other.parameters(), lr=0.1)


def cleared_by_its_optimizer():
    for x, y in data:
        opt.zero_grad()
        loss = model(x).sum()
        loss.backward()
        with torch.no_grad():
            for p in model.parameters():
                p.data.add_(p.grad, alpha=-0.1)


def cleared_after_the_update():
    for x, y in data:
        loss = model(x).sum()
        loss.backward()
        for p in model.parameters():
            p.data.add_(p.grad, alpha=-0.1)
        opt.zero_grad()


def cleared_by_another_models_optimizer():
    for x, y in data:
        opt_other.zero_grad()
        loss = model(x).sum()
        loss.backward()  # expect: ZG101
        with torch.no_grad():
            for p in model.parameters():
                p.data.add_(p.grad, alpha=-0.1)


def not_cleared():
    for x, y in data:
        loss = model(x).sum()
        loss.backward()  # expect: ZG101
        for p in model.parameters():
            p.data.add_(p.grad, alpha=-0.1)



def zipped_with_other_tensors(weights):  # PFLlib's ALA: the update writes other tensors
    for x, y in data:
        opt.zero_grad()
        loss = model(x).sum()
        loss.backward()
        for param, weight in zip(model.parameters(), weights):
            weight.data = weight - 0.1 * param.grad


def zipped_with_another_models_parameters(global_model):  # PFLlib's APPLE
    for x, y in data:
        opt.zero_grad()
        loss = model(x).sum()
        loss.backward()
        for param_g, param in zip(global_model.parameters(), model.parameters()):
            param_g.data = param_g - 0.1 * param.grad


def zipped_and_cleared_by_another_models_optimizer(global_model):
    for x, y in data:
        opt_other.zero_grad()
        loss = model(x).sum()
        loss.backward()  # expect: ZG101
        for param_g, param in zip(global_model.parameters(), model.parameters()):
            param_g.data = param_g - 0.1 * param.grad
