# The backward of a tensor made on the spot (modded-nanogpt runs
# ``torch.empty(1, requires_grad=True).backward()`` at import "to prevent a bug on some
# systems") writes only that tensor's gradient, which no model and no optimizer holds:
# nothing the optimizers step is left for their first step.
import torch

torch.empty(1, requires_grad=True).backward()

model = torch.nn.Linear(4, 1)
optimizers = [torch.optim.AdamW(model.parameters(), lr=1e-3)]
for step in range(100):
    model(torch.randn(8, 4)).pow(2).mean().backward()
    for opt in optimizers:
        opt.step()
        opt.zero_grad(set_to_none=True)


def warm_up_with_the_model(model, loader):
    optimizers = [torch.optim.SGD(model.parameters(), lr=0.1)]
    model(torch.randn(8, 4)).sum().backward()  # expect: ZG101
    for x in loader:
        model(x).pow(2).mean().backward()
        for opt in optimizers:
            opt.step()
            opt.zero_grad(set_to_none=True)


def a_named_tensor(x, loader):
    w = torch.zeros(3, requires_grad=True)
    opt = torch.optim.SGD([w], lr=0.1)
    for x in loader:
        (w * x).sum().backward()  # expect: ZG101
        opt.step()
