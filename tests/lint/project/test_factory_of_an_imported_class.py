"""A trainer built by a factory function of the loop's own file that returns an
instance of an imported class (``def get_trainer(): return Trainer()``, then
``trainer = get_trainer()`` and ``trainer.train_step(x, y)`` in the loop).

Session 27's 3D probe (occupancy_networks, Attention-Gated-Networks build their
trainers through factories): a direct ``Trainer()`` in the loop's file was followed
into the class's method, the same object made by a factory of the file was not, and
the missing clear in ``train_step`` was silent. A factory in another module is not
followed yet (docs/analysis.md, section 5).
"""

from __future__ import annotations

from project_helpers import codes

TRAINER = """\
    import torch
    from torch import nn


    class Trainer:
        def __init__(self):
            self.net = nn.Linear(3, 1)
            self.optimizer = torch.optim.SGD(self.net.parameters(), lr=0.1)

        def train_step(self, x, y):
            loss = nn.functional.mse_loss(self.net(x), y)
            loss.backward()
            self.optimizer.step()
    """
CLEARED_TRAINER = TRAINER.replace(
    "            loss.backward()\n",
    "            self.optimizer.zero_grad()\n            loss.backward()\n",
)
TRAIN = """\
    from trainer import Trainer


    def get_trainer(cfg):
        return Trainer()


    def main(loader, cfg):
        trainer = get_trainer(cfg)
        for x, y in loader:
            trainer.train_step(x, y)
    """


def test_the_instance_a_factory_of_the_file_returns_is_followed(findings):
    found = findings(files={"trainer.py": TRAINER, "train.py": TRAIN})
    assert codes(found) == [("train.py", 11, "ZG101")]
    assert "(in `Trainer.train_step`, called at line 11)" in found[0][3]


def test_a_factory_defined_after_its_caller(findings):
    after = (
        TRAIN.replace("    def get_trainer(cfg):\n        return Trainer()\n\n\n", "")
        + "\n\n    def get_trainer(cfg):\n        return Trainer()\n"
    )
    assert "def get_trainer" in after.split("def main")[1]
    assert codes(findings(files={"trainer.py": TRAINER, "train.py": after})) == [
        ("train.py", 7, "ZG101")
    ]


def test_the_trainer_that_clears_is_correct(findings):
    assert findings(files={"trainer.py": CLEARED_TRAINER, "train.py": TRAIN}) == []


def test_a_factory_returning_something_else_on_one_path_is_not_followed(findings):
    train = TRAIN.replace(
        "        return Trainer()\n",
        "        if cfg.resume:\n            return load(cfg)\n        return Trainer()\n",
    )
    assert findings(files={"trainer.py": TRAINER, "train.py": train}) == []
