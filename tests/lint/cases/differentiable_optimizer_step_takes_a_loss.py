"""A differentiable optimizer's ``step(loss)`` (facebookresearch/higher's
``diffopt.step(loss_fmodel)``, its own test suite): it computes the gradients of the
loss it is handed with ``autograd.grad`` and never reads or writes ``.grad``, so it is
no optimizer step of the accumulated gradients. A torch optimizer's ``step`` takes a
closure, never a loss: a ``step`` handed a value computed like a loss (arithmetic,
``.sum()``, ``.mean()``...) is not read as one.
"""
import torch
import higher


def higher_correctness_test(model, batches):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    fmodel = higher.patch.monkeypatch(model)
    diffopt = higher.optim.get_diff_optim(opt, model.parameters(), fmodel)
    for x in batches:
        opt.zero_grad()
        loss_model = model(x).pow(2).sum()
        loss_fmodel = fmodel(x).pow(2).sum()
        loss_model.backward()
        diffopt.step(loss_fmodel)
        opt.step()


def inner_loop_steps_on_losses(model, fmodel, diffopt, batches):
    for x in batches:
        diffopt.step(fmodel(x).mean() * 2)


def a_closure_step_without_a_clear(model, optimizer, batches):
    for x in batches:
        def closure():
            loss = model(x).mean()
            loss.backward()  # expect: ZG101
            return loss

        optimizer.step(closure)
