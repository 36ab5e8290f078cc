import torch

optimizers = [torch.optim.Adam(enc.parameters()), torch.optim.Adam(dec.parameters())]

def loop_1():
    for batch in loader:
        for opt in optimizers:
            opt.zero_grad()
        model(batch).backward()
        for opt in optimizers:
            opt.step()

def loop_2():
    for batch in loader:
        model(batch).backward()  # expect: ZG101
        for opt in optimizers:
            opt.step()
