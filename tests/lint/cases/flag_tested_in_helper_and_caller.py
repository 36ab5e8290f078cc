"""One setting tested twice: in the backward helper and around the step in its caller
(sberbank-ai/ru-gpts's ``pretrain_gpt3.py``: ``backward_step`` runs DeepSpeed's
``model.backward(loss)`` when ``args.deepspeed``, else clears and runs
``loss.backward()``; ``train_step`` steps the engine under the same test, else the
optimizer). The helper's parameter is bound to the caller's name, so both tests read
one value, on every iteration: the engine's backward is never followed by the
optimizer's step (no finding, also when the loop's function is itself called, or when the
test joins the argument to a flag of the module: ``DEEPSPEED_WRAP and args.deepspeed``).

A helper whose branches both leave the gradients uncleared is still reported."""

import torch


def backward_step(optimizer, model, loss, args):
    if args.deepspeed:
        model.backward(loss)
    else:
        optimizer.zero_grad()
        loss.backward()


def train(model, optimizer, data, args):
    for batch in data:
        loss = model(batch).sum()
        backward_step(optimizer, model, loss, args)
        if args.deepspeed:
            model.step()
        else:
            optimizer.step()


def main(args, data):
    model = torch.nn.Linear(4, 1)
    optimizer = torch.optim.Adam(model.parameters())
    train(model, optimizer, data, args)


DEEPSPEED_WRAP = True  # ru-gpts tests a module's flag beside the argument


def wrapped_backward_step(optimizer, model, loss, args):
    if DEEPSPEED_WRAP and args.deepspeed:
        model.backward(loss)
    else:
        optimizer.zero_grad()
        loss.backward()


def wrapped_train_step(model, optimizer, batch, args):
    wrapped_backward_step(optimizer, model, model(batch).sum(), args)
    if DEEPSPEED_WRAP and args.deepspeed:
        model.step()
    else:
        optimizer.step()


def wrapped_train(model, optimizer, data, args):
    for batch in data:
        wrapped_train_step(model, optimizer, batch, args)


def scaled_backward(loss, scaler, use_amp):
    if use_amp:
        scaler.scale(loss).backward()  # expect: ZG101
    else:
        loss.backward()  # expect: ZG101


def train_amp(model, optimizer, scaler, data, use_amp):
    for batch in data:
        scaled_backward(model(batch).sum(), scaler, use_amp)
        if use_amp:
            scaler.step(optimizer)
            scaler.update()
        else:
            optimizer.step()
