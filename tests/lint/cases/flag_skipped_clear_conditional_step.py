"""A clear that only one branch of a loop-invariant flag runs (ConvNeXt's ``engine.py``:
the AMP branch clears, the plain branch does not), with a step under an accumulation
condition. The path that takes the other branch of the flag takes it on every iteration
(the flag is not assigned in the loop), so it never clears: its step applies the
gradients an earlier step applied (ZG101). A clear under a condition the loop changes
(``if i % k == 0:``) is still judged only by the pairing of the two conditions."""

import torch


def plain_branch_never_clears(model, criterion, data_loader, optimizer, update_freq, use_amp):
    optimizer.zero_grad()
    for i, (samples, targets) in enumerate(data_loader):
        loss = criterion(model(samples), targets)
        if use_amp:
            optimizer.zero_grad()
        else:
            loss.backward()  # expect: ZG101
            if (i + 1) % update_freq == 0:
                optimizer.step()


def both_branches_clear(model, criterion, data_loader, optimizer, update_freq, use_amp):
    optimizer.zero_grad()
    for i, (samples, targets) in enumerate(data_loader):
        loss = criterion(model(samples), targets)
        if use_amp:
            optimizer.zero_grad()
        else:
            loss.backward()
            if (i + 1) % update_freq == 0:
                optimizer.step()
                optimizer.zero_grad()


def window_start_clear(model, criterion, data_loader, optimizer, update_freq):
    for i, (samples, targets) in enumerate(data_loader):
        if i % update_freq == 0:
            optimizer.zero_grad()
        criterion(model(samples), targets).backward()
        if (i + 1) % update_freq == 0:
            optimizer.step()


ACCUM = 4
micro = 0
window_start = True


def tick():
    global micro, window_start
    micro += 1
    window_start = micro % ACCUM == 0


def window_flag_set_by_a_call(model, opt, loader):
    # ``window_start`` is a global ``tick()`` changes: not loop-invariant, nothing proven
    for i, (x, y) in enumerate(loader):
        loss = (model(x) - y).pow(2).mean() / ACCUM
        if window_start:
            opt.zero_grad()
            loss.backward()
        else:
            loss.backward()
            if (i + 1) % ACCUM == 0:
                opt.step()
        tick()
