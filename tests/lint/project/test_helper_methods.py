"""A class whose step method runs its backward through a helper method on ``self``
(pytorch-CycleGAN's ``optimize_parameters`` calling ``self.backward_G()``; LPIPS'
``DistModel.optimize_parameters`` calling ``self.backward_train()``), driven by a loop
in another file: the loop file is analysed (a candidate) and the missing clear found."""

from __future__ import annotations

from project_helpers import codes

MODEL = """\
    import torch
    from torch import nn


    class DistModel:
        def __init__(self):
            self.net = nn.Linear(4, 1)
            self.optimizer_net = torch.optim.Adam(self.net.parameters())

        def optimize_parameters(self, x):
            self.loss_total = self.net(x).mean()
            self.optimizer_net.zero_grad()
            self.backward_train()
            self.optimizer_net.step()

        def backward_train(self):
            torch.mean(self.loss_total).backward()
    """
TRAIN = """\
    import torch
    from model import DistModel

    m = DistModel()
    for x in torch.randn(100, 8, 4):
        m.optimize_parameters(x)
    """


def test_the_correct_step_method_is_silent(findings):
    assert findings(files={"model.py": MODEL, "train.py": TRAIN}) == []


def test_a_missing_clear_behind_a_helper_method_is_found(findings):
    buggy = MODEL.replace("            self.optimizer_net.zero_grad()\n", "")
    found = findings(files={"model.py": buggy, "train.py": TRAIN})
    assert codes(found) == [("train.py", 6, "ZG101")]
    assert "model.py:16 (in `DistModel.backward_train`" in found[0][3]
