import torch

optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=10)

def loop_1():
    for batch in loader:
        optimizer.zero_grad()
        model(batch).backward()
        optimizer.step()
        scheduler.step()
        ema.step()
        progress.step()

def loop_2():
    for batch in loader:
        grads = torch.autograd.grad(model(batch), model.parameters())
        apply(grads)
        optimizer.step()

def loop_3():
    for batch in loader:
        model(batch).backward()
        unknown_thing.step()


def fresh_optimizer_per_call(module, t):
    local_optim = torch.optim.SGD(module.parameters(), lr=0.1)
    module(t).sum().backward()
    local_optim.step()


def compare_optimizers(classes, t):
    for cls in classes:
        fresh_optimizer_per_call(make_module(), t)


def distributed_autograd(dist_optim, loss, context_id):
    for _ in range(3):
        with dist_autograd.context() as context_id:
            dist_autograd.backward(context_id, [loss.sum()])
            dist_optim.step(context_id)
