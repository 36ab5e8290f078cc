"""``w.grad.data = w.grad.data * 0.0`` zeroes a gradient (datawhalechina/torch-rechub's
GradNorm, which then computes the loss weights' gradients itself): a clear, not a
hand-written update of ``w`` (was a false ZG101). Scaling through ``.grad.data``
(``p.grad.data = p.grad.data / n``, averaging) neither clears nor steps: a loop that
never clears stays flagged."""
import torch
from torch import nn


def gradnorm(loss_list, loss_weight):
    loss = 0
    for loss_i, w_i in zip(loss_list, loss_weight):
        loss += loss_i * w_i
    loss.backward(retain_graph=True)
    for w_i in loss_weight:
        w_i.grad.data = w_i.grad.data * 0.0


def train_with_gradnorm(data):
    model = nn.Linear(4, 2)
    loss_weight = nn.ParameterList(nn.Parameter(torch.ones(1)) for _ in range(2))
    model.add_module("loss weight", loss_weight)
    optimizer = torch.optim.Adam(model.parameters())
    for x, y in data:
        out = model(x)
        loss_list = [((out[:, i] - y[:, i]) ** 2).mean() for i in range(2)]
        optimizer.zero_grad()
        gradnorm(loss_list, loss_weight)
        optimizer.step()


def averaged_never_cleared(data, world_size):
    model = nn.Linear(4, 2)
    optimizer = torch.optim.Adam(model.parameters())
    for x, y in data:
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()  # expect: ZG101
        for p in model.parameters():
            p.grad.data = p.grad.data / world_size
        optimizer.step()
