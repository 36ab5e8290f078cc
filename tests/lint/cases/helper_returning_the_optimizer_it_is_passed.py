# A helper of the file sets the learning rate and returns the optimizer it was handed
# (``optimizer = exp_lr_scheduler(optimizer, epoch)``, 2017-era transfer-learning code):
# the name still holds that optimizer, so its step is a step and a missing clear shows.
# A helper named like a scheduler that returns something else stays what its name says.
import torch
from torch import nn


def exp_lr_scheduler(optimizer, epoch, init_lr=0.001, lr_decay_epoch=7):
    lr = init_lr * (0.1 ** (epoch // lr_decay_epoch))
    for param_group in optimizer.param_groups:
        param_group["lr"] = lr
    return optimizer


def adjust(optimizer, lr):
    if lr is None:
        return optimizer
    for group in optimizer.param_groups:
        group["lr"] = lr
    return optimizer


def make_scheduler(optimizer):
    return torch.optim.lr_scheduler.StepLR(optimizer, step_size=7)


def never_cleared(model, loader, criterion, optimizer, epochs):
    for epoch in range(epochs):
        optimizer = exp_lr_scheduler(optimizer, epoch)
        for inputs, labels in loader:
            loss = criterion(model(inputs), labels)
            loss.backward()  # expect: ZG101
            optimizer.step()


def cleared(model, loader, criterion, optimizer, epochs):
    for epoch in range(epochs):
        optimizer = exp_lr_scheduler(optimizer=optimizer, epoch=epoch)
        for inputs, labels in loader:
            optimizer.zero_grad()
            loss = criterion(model(inputs), labels)
            loss.backward()
            optimizer.step()


def every_return_the_argument(model, loader, opt):
    for inputs in loader:
        opt = adjust(opt, None)
        model(inputs).sum().backward()  # expect: ZG101
        opt.step()


def built_with_parameters(model, loader, epochs):
    optimizer = exp_lr_scheduler(torch.optim.SGD(model.parameters(), lr=0.1), 0)
    for inputs in loader:
        model(inputs).sum().backward()  # expect: ZG101
        optimizer.step()


def scheduler_named_helper(model, loader, optimizer):
    scheduler = make_scheduler(optimizer)
    for inputs in loader:
        optimizer.zero_grad()
        model(inputs).sum().backward()
        optimizer.step()
        scheduler.step()
