# A step that runs in both branches of an `if` (the GradScaler's step or the plain one,
# open_clip's legacy_train.py) runs whatever the condition: the leak through a branch that
# skips the clear does not depend on how the two conditions relate.
import torch


def scaler_or_plain(model, data, optimizer, scaler, accum_freq):
    for x in data:
        if accum_freq == 1:
            model(x).sum().backward()  # expect: ZG101
        else:
            optimizer.zero_grad()
            model(x).sum().backward()
        if scaler is not None:
            scaler.step(optimizer)
            scaler.update()
        else:
            optimizer.step()


def clipped_first(model, data, optimizer, scaler, accum_freq, clip):
    for x in data:
        if accum_freq == 1:
            model(x).sum().backward()  # expect: ZG101
        else:
            optimizer.zero_grad()
            model(x).sum().backward()
        if scaler is not None:
            if clip:
                scaler.unscale_(optimizer)
                torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
            scaler.step(optimizer)
        else:
            optimizer.step()


def both_branches_clear(model, data, optimizer, scaler, accum_freq):
    for x in data:
        if accum_freq == 1:
            optimizer.zero_grad()
            model(x).sum().backward()
        else:
            optimizer.zero_grad()
            model(x).sum().backward()
        if scaler is not None:
            scaler.step(optimizer)
        else:
            optimizer.step()


def one_branch_may_skip_the_step(model, data, optimizer, overflow, accum_freq):
    # the step is skipped on overflow: whether that pairs with the branch that does not
    # clear is a question about the two conditions
    for x in data:
        if accum_freq == 1:
            model(x).sum().backward()
        else:
            optimizer.zero_grad()
            model(x).sum().backward()
        if overflow:
            if check(x):
                continue
            optimizer.step()
        else:
            optimizer.step()


def only_one_branch_steps(model, data, optimizer, last, accum_freq):
    for x in data:
        if accum_freq == 1:
            model(x).sum().backward()
        else:
            optimizer.zero_grad()
            model(x).sum().backward()
        if last:
            optimizer.step()
