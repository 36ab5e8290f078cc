"""A backward through a deep copy, a reference model or a frozen teacher writes those
modules' gradients, not the optimizer's (issue 13, shape 3)."""

import copy

import torch

model = Net()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
reference = copy.deepcopy(model)
teacher = Teacher()
criterion = torch.nn.MSELoss()


def copy_backward_first(loader):
    for x, y in loader:
        ref_loss = criterion(reference(x), y)
        ref_loss.backward()
        loss = criterion(model(x), y)
        loss.backward()  # expect: ZG101
        optimizer.step()


def copy_backward_after_step(loader):
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        criterion(reference(x), y).backward()
        compare(reference, model)


def copy_backward_between_clear_and_step(loader):
    for x, y in loader:
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.zero_grad()
        criterion(reference(x), y).backward()
        optimizer.step()  # expect: ZG102


def frozen_teacher(loader):
    for x, y in loader:
        optimizer.zero_grad()
        with torch.no_grad():
            soft = teacher(x)
        loss = criterion(model(x), soft)
        loss.backward()
        optimizer.step()


def alias_is_the_same_model(loader):
    same = model
    for x, y in loader:
        loss = criterion(same(x), y)
        loss.backward()  # expect: ZG101
        optimizer.step()


def wrapped_is_the_same_model(loader):
    wrapped = torch.nn.DataParallel(model)
    for x, y in loader:
        loss = criterion(wrapped(x), y)
        loss.backward()  # expect: ZG101
        optimizer.step()
