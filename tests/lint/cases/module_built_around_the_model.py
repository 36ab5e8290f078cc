"""A module built around the model an optimizer steps (``ModelWithLoss(model, loss)``,
``Wrapper(net)``; x-transformers' ``AutoregressiveWrapper``): the loss computed through
it may reach the model's parameters, which it holds under names no trace follows. Its
backward is not known to miss them. A copy (``copy.deepcopy``) or a new module built
from settings has parameters of its own."""

import copy

import torch
from torch import nn


class ModelWithLoss(nn.Module):
    def __init__(self, model, loss):
        super().__init__()
        self.model = model
        self.loss = loss

    def forward(self, batch):
        return self.loss(self.model(batch), batch)


def train_wrapped(model, loader, loss_fn):
    wrapped_opt = torch.optim.Adam(model.parameters())
    wrapped = ModelWithLoss(model, loss_fn)
    for batch in loader:
        loss = wrapped(batch)
        loss.backward()  # expect: ZG101
        wrapped_opt.step()


def train_wrapped_cleared(model, loader, loss_fn):
    cleared_opt = torch.optim.Adam(model.parameters())
    wrapped = ModelWithLoss(model, loss_fn)
    for batch in loader:
        cleared_opt.zero_grad()
        loss = wrapped(batch)
        loss.backward()
        cleared_opt.step()


def train_imported_wrapper(net, loader, AutoregressiveWrapper):
    imported_opt = torch.optim.Adam(net.parameters())
    model = AutoregressiveWrapper(net)
    for batch in loader:
        loss = model(batch).mean()
        loss.backward()  # expect: ZG101
        imported_opt.step()


def distill(teacher, student, loader, Student):
    # the student is a copy: its backward does not write the teacher's gradients, and
    # the teacher's optimizer, cleared once before the loop, steps only there
    teacher_opt = torch.optim.SGD(teacher.parameters(), lr=0.1)
    twin = copy.deepcopy(teacher)
    student_opt = torch.optim.SGD(twin.parameters(), lr=0.1)
    for batch in loader:
        student_opt.zero_grad()
        loss = twin(batch).mean()
        loss.backward()
        student_opt.step()
    teacher_opt.zero_grad()
    teacher(batch).mean().backward()
    teacher_opt.step()
