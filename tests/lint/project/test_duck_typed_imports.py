"""A receiver handed a method only one class the file imports defines holds an instance
of that class (jadore801120/attention-is-all-you-need-pytorch: ``train.py`` imports
``ScheduledOptim`` from ``transformer/Optim.py``, builds it in ``main`` and hands it
through ``train`` to ``train_epoch``, whose loop calls
``optimizer.step_and_update_lr()``). The class of a parameter handed on through a call
is not known from its callers; the method it is handed names it, as for a class of the
file itself (``extract.resolve``'s duck typing)."""

from __future__ import annotations

from project_helpers import codes

OPTIM = """\
    class ScheduledOptim:
        def __init__(self, optimizer, lr_mul, d_model, n_warmup_steps):
            self._optimizer = optimizer
            self.lr_mul = lr_mul
            self.n_steps = 0

        def step_and_update_lr(self):
            self._update_learning_rate()
            self._optimizer.step()

        def zero_grad(self):
            self._optimizer.zero_grad()

        def _update_learning_rate(self):
            self.n_steps += 1
            for param_group in self._optimizer.param_groups:
                param_group["lr"] = self.lr_mul / self.n_steps
    """
TRAIN = """\
    import torch
    import torch.optim as optim

    from transformer.Optim import ScheduledOptim


    def train_epoch(model, training_data, optimizer):
        for batch in training_data:
            {clear}
            loss = model(batch).sum()
            loss.backward()
            optimizer.step_and_update_lr()


    def train(model, training_data, optimizer, epochs):
        for epoch in range(epochs):
            train_epoch(model, training_data, optimizer)


    def main(training_data):
        model = torch.nn.Linear(4, 1)
        optimizer = ScheduledOptim(optim.Adam(model.parameters()), 2.0, 512, 4000)
        train(model, training_data, optimizer, 10)
    """


def _files(clear: str) -> dict[str, str]:
    return {
        "transformer/__init__.py": "",
        "transformer/Optim.py": OPTIM,
        "train.py": TRAIN.replace("{clear}", clear),
    }


def test_the_wrapper_cleared_every_batch_is_silent(findings):
    assert findings(files=_files("optimizer.zero_grad()")) == []


def test_a_missing_clear_of_the_wrapper_is_found(findings):
    found = findings(files=_files("pass"))
    assert codes(found) == [("train.py", 11, "ZG101")]
    assert "`optimizer._optimizer`" in found[0][3]
