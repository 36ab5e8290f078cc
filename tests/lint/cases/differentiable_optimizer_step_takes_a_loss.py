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


class MetaOptimizer:
    """AuxiLearn's hypergradient step: clears, writes gradients of the loss it is
    handed, steps."""

    def __init__(self, meta_optimizer):
        self.meta_optimizer = meta_optimizer

    def step(self, val_loss, aux_params):
        self.meta_optimizer.zero_grad()
        for p, g in zip(aux_params, torch.autograd.grad(val_loss, aux_params)):
            p.grad = g
        self.meta_optimizer.step()


def handed_the_loss_by_keyword(model, aux_net, batches):
    optimizer = torch.optim.Adam(model.parameters())
    meta_optimizer = MetaOptimizer(torch.optim.SGD(aux_net.parameters(), lr=0.1))
    for step, x in enumerate(batches, start=1):
        optimizer.zero_grad()
        loss = aux_net(model(x).pow(2).mean(0)).sum()
        loss.backward()
        optimizer.step()
        if step % 5 == 0:
            val_loss = aux_net(model(x).pow(2).mean(0)).sum()
            meta_optimizer.step(val_loss=val_loss, aux_params=list(aux_net.parameters()))


def handed_a_summed_loss_by_keyword(model, aux_net, batches, val_batches):
    optimizer = torch.optim.Adam(model.parameters())
    meta_optimizer = MetaOptimizer(torch.optim.SGD(aux_net.parameters(), lr=0.1))
    for step, x in enumerate(batches, start=1):
        optimizer.zero_grad()
        loss = aux_net(model(x).pow(2).mean(0)).sum()
        loss.backward()
        optimizer.step()
        if step % 5 == 0:
            meta_val_loss = 0.0
            for v in val_batches:
                val_loss = aux_net(model(v).pow(2).mean(0)).sum()
                meta_val_loss += val_loss
            meta_optimizer.step(val_loss=meta_val_loss, aux_params=list(aux_net.parameters()))
