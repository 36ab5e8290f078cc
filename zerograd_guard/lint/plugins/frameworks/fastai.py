"""fastai: ``Learner.one_batch`` runs, for each training batch, the callbacks' hooks
around its own backward, step and clear (``Learner._do_one_batch`` / ``_do_grad_opt``):
``before_batch``, the forward, ``after_pred``, the loss, ``after_loss``,
``before_backward``, ``self.loss_grad.backward()`` (``_backward``), ``after_backward``,
``before_step``, ``self.opt.step()`` (``_step``), ``after_step``, ``self.opt.zero_grad()``,
``after_batch``. A ``Callback`` subclass is judged inside that batch: a clear in
``after_backward`` or ``before_step`` leaves fastai's step nothing to apply.

``CancelBackwardException`` skips the backward (to ``after_backward``),
``CancelStepException`` the step (to ``after_step``; the clear still runs), and
``CancelBatchException`` the rest of the batch, clear included (to ``after_batch``):
``GradientAccumulation`` raises it in ``before_step`` to accumulate. A callback reaches
the learner's optimizer and model as ``self.learn.opt`` / ``self.opt`` and
``self.learn.model`` / ``self.model`` (``Callback`` forwards unknown attributes to
``self.learn``).

A ``Learner`` subclass's overrides of ``_do_one_batch``, ``_do_grad_opt``, ``_backward``
and ``_step`` replace the parts of the batch they implement.
"""

from __future__ import annotations

from zerograd_guard.lint.options import BACKWARD, CLEAR, STEP, HookedIteration
from zerograd_guard.lint.plugins import hookimpl

LABEL = "fastai's `Learner`"
# Modules whose ``import *`` binds the class: each re-exports ``fastai.basics``, or
# defines the class in its ``__all__``.
ALL_MODULES = ("fastai.basics", "fastai.vision.all", "fastai.text.all", "fastai.tabular.all")

CALLBACKS = HookedIteration(
    package="fastai",
    base="Callback",
    order=(
        "before_batch",
        "after_pred",
        "after_loss",
        "before_backward",
        BACKWARD,
        "after_backward",
        "before_step",
        STEP,
        "after_step",
        CLEAR,
        "after_batch",
    ),
    cancels=(
        ("CancelBackwardException", "after_backward"),
        ("CancelStepException", "after_step"),
        ("CancelBatchException", "after_batch"),
    ),
    optimizer=("self.learn.opt", "self.opt"),
    model=("self.learn.model", "self.model"),
    star_modules=(*ALL_MODULES, "fastai.callback.core", "fastai.callback.all"),
    label=LABEL,
)

_GRAD_OPT = ("_backward", BACKWARD, "_step", STEP, CLEAR)
LEARNERS = HookedIteration(
    package="fastai",
    base="Learner",
    order=("_do_one_batch", "_do_grad_opt", *_GRAD_OPT),
    replaces=(
        ("_do_one_batch", ("_do_grad_opt", *_GRAD_OPT)),
        ("_do_grad_opt", _GRAD_OPT),
        ("_backward", (BACKWARD,)),
        ("_step", (STEP,)),
    ),
    optimizer=("self.opt",),
    model=("self.model",),
    star_modules=(*ALL_MODULES, "fastai.learner"),
    label=LABEL,
)


@hookimpl
def zerograd_guard_hooked_iterations() -> list[HookedIteration]:
    return [CALLBACKS, LEARNERS]
