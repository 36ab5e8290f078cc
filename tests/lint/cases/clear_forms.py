import torch
from helpers import note
from wandb import log

optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

def loop_1():
    for batch in loader:
        for p in model.parameters():
            p.grad = None
        model(batch).backward()
        optimizer.step()

def loop_2():
    for batch in loader:
        for p in model.parameters():
            if p.grad is not None:
                p.grad.detach_()
                p.grad.zero_()
        model(batch).backward()
        optimizer.step()

def loop_3():
    for batch in loader:
        for group in optimizer.param_groups:
            for p in group["params"]:
                p.grad = None
        model(batch).backward()
        optimizer.step()

def loop_4():
    for batch in loader:
        torch._foreach_zero_([p.grad for p in model.parameters() if p.grad is not None])
        model(batch).backward()
        optimizer.step()

def loop_5():
    for batch in loader:
        model(batch).backward()
        optimizer.step()
        model.zero_grad(set_to_none=False)

def loop_6():
    for batch in loader:
        model(batch).backward()
        optimizer.step()
        for p in model.parameters():
            p.grad.data.zero_()

def loop_7():
    for batch in loader:
        model(batch).backward()  # expect: ZG101
        optimizer.step()
        for p in model.parameters():
            p.grad.detach_()

def loop_8():
    # a call beside the clear (logging) keeps the loop a clear of the model's gradients
    for batch in loader:
        for p in model.parameters():
            p.grad = None
            log({"cleared": p.numel()})
        model(batch).backward()
        optimizer.step()

def loop_9():
    for batch in loader:
        for p in model.parameters():
            note(p)
            p.grad.zero_()
        model(batch).backward()
        optimizer.step()

def loop_10():
    # a call in the loop, but nothing in it clears: still found
    for batch in loader:
        model(batch).backward()  # expect: ZG101
        optimizer.step()
        for p in model.parameters():
            note(p)
