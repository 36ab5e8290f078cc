# A hand-written update of parameters whose module the file does not say: an optimizer's
# clear is not known to cover them.
import torch

model = torch.nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)


def update_of_parameters_of_unknown_origin():
    for x, y in data:
        opt.zero_grad()
        loss = model(x).sum()
        loss.backward()  # expect: ZG101
        for p in params:
            p.data.add_(p.grad, alpha=-0.1)
