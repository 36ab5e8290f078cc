"""A flag joined from three or more conditions (``use_amp and device.type == "cuda" and
scaler is not None``) chooses the epoch function once for every epoch, like a flag of
one or two (freemvmt/two-towers-overlords' ``backend/training.py``: an accumulating
AMP epoch or a plain one). Read as a condition that may change from epoch to epoch,
the accumulating epoch's backward was paired with the plain epoch's step (a false
ZG101). A branch that steps without a clear under the same joined flag is still seen.
"""

import torch


def train_plain(model, data, optimizer):
    for x in data:
        optimizer.zero_grad()
        loss = model(x).sum()
        loss.backward()
        optimizer.step()


def train_accum(model, data, optimizer, scaler, accum=2):
    for i, x in enumerate(data):
        loss = model(x).sum() / accum
        scaler.scale(loss).backward()
        if (i + 1) % accum == 0:
            scaler.step(optimizer)
            scaler.update()
            optimizer.zero_grad()


def run(use_amp, data, device, epochs=3):
    model = torch.nn.Linear(4, 1)
    optimizer = torch.optim.Adam(model.parameters())
    scaler = torch.GradScaler("cuda") if use_amp else None
    for epoch in range(epochs):
        if use_amp and device.type == "cuda" and scaler is not None:
            train_accum(model, data, optimizer, scaler)
        else:
            train_plain(model, data, optimizer)


def four_conditions(use_amp, data, device, fast, epochs=3):
    model = torch.nn.Linear(4, 1)
    optimizer = torch.optim.Adam(model.parameters())
    scaler = torch.GradScaler("cuda") if use_amp else None
    for epoch in range(epochs):
        if (use_amp and device.type == "cuda") and (scaler is not None or fast):
            train_accum(model, data, optimizer, scaler)
        else:
            train_plain(model, data, optimizer)


def never_cleared_under_the_flag(model, data, optimizer, use_amp, device, scaler):
    for x in data:
        if use_amp and device.type == "cuda" and scaler is not None:
            scaler.scale(model(x).sum()).backward()  # expect: ZG101
            scaler.step(optimizer)
            scaler.update()
        else:
            optimizer.zero_grad()
            model(x).sum().backward()
            optimizer.step()
