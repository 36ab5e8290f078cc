import torch
from torch.cuda.amp import GradScaler, autocast

scaler = GradScaler()
optimizer = torch.optim.AdamW(model.parameters())

def loop_1():
    for x, y in loader:
        optimizer.zero_grad(set_to_none=True)
        with autocast():
            loss = criterion(model(x), y)
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        scaler.step(optimizer)
        scaler.update()

def loop_2():
    for x, y in loader:
        with autocast():
            loss = criterion(model(x), y)
        scaler.scale(loss).backward()  # expect: ZG101
        scaler.step(optimizer)
        scaler.update()

def loop_3():
    for x, y in loader:
        with autocast():
            loss = criterion(model(x), y)
        scaler.scale(loss).backward()
        optimizer.zero_grad()
        scaler.step(optimizer)  # expect: ZG102
        scaler.update()
