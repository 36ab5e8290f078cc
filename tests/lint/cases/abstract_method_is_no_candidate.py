"""A method a base class only declares (its body raises ``NotImplementedError``, or it is
an ``@abstractmethod``) runs no code of its own: a receiver handed that method holds an
instance of the one class that implements it. StyleGAN2-ADA's training loop builds its
loss from a class-name string (``construct_class_by_name``) and calls
``loss.accumulate_gradients(...)``, which the abstract ``Loss`` declares and
``StyleGAN2Loss`` implements with a backward (mit-han-lab/data-efficient-gans,
``training/training_loop.py``): with the clear deleted the loop was not judged, because
two classes "defined" the method. A base method with a body of its own (a default) still
makes the receiver's class unknown: either may run."""
import abc
import importlib

import torch


def construct_class_by_name(*args, class_name, **kwargs):
    module_name, name = class_name.rsplit(".", 1)
    return getattr(importlib.import_module(module_name), name)(*args, **kwargs)


class Loss:
    def accumulate_gradients(self, x):  # to be overridden by subclass
        raise NotImplementedError()


class GanLoss(Loss):
    def __init__(self, model):
        self.model = model

    def accumulate_gradients(self, x):
        self.model(x).mean().backward()  # expect: ZG101


class Objective(abc.ABC):
    @abc.abstractmethod
    def backpropagate(self, x):
        """Compute the loss of ``x`` and its gradients."""


class MeanObjective(Objective):
    def __init__(self, model):
        self.model = model

    def backpropagate(self, x):
        self.model(x).mean().backward()  # expect: ZG101


class Criterion:
    def accumulate(self, x):
        """A default that does nothing."""


class MeanCriterion(Criterion):
    def __init__(self, model):
        self.model = model

    def accumulate(self, x):
        self.model(x).mean().backward()


def factory_built_loss_never_cleared(loader):
    model = torch.nn.Linear(4, 1)
    opt = torch.optim.Adam(model.parameters())
    loss = construct_class_by_name(model, class_name=__name__ + ".GanLoss")
    for x in loader:
        loss.accumulate_gradients(x)
        opt.step()


def abstract_method_declared_with_a_decorator(loader):
    model = torch.nn.Linear(4, 1)
    opt = torch.optim.Adam(model.parameters())
    objective = construct_class_by_name(model, class_name=__name__ + ".MeanObjective")
    for x in loader:
        objective.backpropagate(x)
        opt.step()


def factory_built_loss_cleared(loader):
    model = torch.nn.Linear(4, 1)
    opt = torch.optim.Adam(model.parameters())
    loss = construct_class_by_name(model, class_name=__name__ + ".GanLoss")
    for x in loader:
        opt.zero_grad(set_to_none=True)
        loss.accumulate_gradients(x)
        opt.step()


def base_with_a_default_body(loader):
    model = torch.nn.Linear(4, 1)
    opt = torch.optim.Adam(model.parameters())
    criterion = construct_class_by_name(model, class_name=__name__ + ".MeanCriterion")
    for x in loader:
        criterion.accumulate(x)  # the base's default may be what runs: unknown
        opt.step()
