"""PyTorch's "optimizer step in backward" recipe (jiaweizzhao/GaLore's layer-wise mode,
kohya-ss/sd-scripts' fused optimizer groups): one optimizer per parameter, stepped and
cleared by a hook that ``register_post_accumulate_grad_hook`` registers; the training
loop only runs the backward. Autograd runs the hook after each pass accumulates, so the
hook's step is each backward's step: a hook that clears after it is correct, one that
does not applies every earlier pass's gradients again (ZG101 at the backward).

A hook registered under a setting (sd-scripts' ``if args.fused_backward_pass:``, whose
other configuration steps and clears in the loop) is not known to run after a given
backward: it is not followed (it made the loop's own step look like one on cleared
gradients, a false ZG102)."""

import torch


def train(model, loader):
    optimizer_dict = {p: torch.optim.AdamW([p], lr=1e-3) for p in model.parameters()}

    def optimizer_hook(parameter):
        if parameter.grad is None:
            return
        optimizer_dict[parameter].step()
        optimizer_dict[parameter].zero_grad()

    for p in model.parameters():
        p.register_post_accumulate_grad_hook(optimizer_hook)

    for x, y in loader:
        ((model(x) - y) ** 2).mean().backward()


def train_forgetting_the_clear(model, loader):
    optimizer_dict = {p: torch.optim.AdamW([p], lr=1e-3) for p in model.parameters()}

    def optimizer_hook(parameter):
        if parameter.grad is None:
            return
        optimizer_dict[parameter].step()

    for p in model.parameters():
        if p.requires_grad:
            p.register_post_accumulate_grad_hook(optimizer_hook)

    for x, y in loader:
        ((model(x) - y) ** 2).mean().backward()  # expect: ZG101


def train_fused_or_not(model, loader, fused):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    if fused:

        def grad_hook(tensor):
            optimizer.step()
            tensor.grad = None

        for p in model.parameters():
            p.register_post_accumulate_grad_hook(grad_hook)

    for x, y in loader:
        ((model(x) - y) ** 2).mean().backward()
        if not fused:
            optimizer.step()
            optimizer.zero_grad()

