"""A helper of another module handed the optimizer that never touches gradients.

Per file, ``adjust_learning_rate(optimizer, epoch, args)`` is unknown and may clear, so
the loop is not judged; in project mode its body is read (ConvNeXt-V2's and MAE's
``utils.adjust_learning_rate`` only sets learning rates), and whatever it does with the
optimizer is judged as for any other callee.
"""

from __future__ import annotations

from project_helpers import codes

HELPER = """\
    import math


    def adjust_learning_rate(optimizer, epoch, args):
        lr = args.min_lr + (args.lr - args.min_lr) * 0.5 * (1.0 + math.cos(math.pi * epoch))
        for param_group in optimizer.param_groups:
            param_group["lr"] = lr * param_group.get("lr_scale", 1.0)
        return lr
    """
LOOP = """\
    import torch

    import utils


    def train_one_epoch(model, loader, optimizer, epoch, args):
        for step, (x, y) in enumerate(loader):
            utils.adjust_learning_rate(optimizer, step / len(loader) + epoch, args)
            loss = model(x, y)
            loss.backward()
            optimizer.step()
    """


def test_a_helper_that_only_sets_learning_rates_does_not_hide_a_missing_clear(findings):
    assert codes(findings(files={"utils.py": HELPER, "train.py": LOOP})) == [
        ("train.py", 10, "ZG101")
    ]
    assert codes(findings("--no-project")) == []  # per file, the helper may clear


def test_the_same_through_a_from_import(findings):
    loop = LOOP.replace("    import utils\n", "    from utils import adjust_learning_rate\n")
    loop = loop.replace("utils.adjust_learning_rate(", "adjust_learning_rate(")
    assert codes(findings(files={"utils.py": HELPER, "train.py": loop})) == [
        ("train.py", 10, "ZG101")
    ]


def test_a_helper_that_hands_the_optimizer_on_stays_unknown(findings):
    helper = HELPER.replace(
        "        return lr\n", "        schedules.reset_state(optimizer)\n        return lr\n"
    ).replace("import math\n", "import math\n    import schedules\n")
    assert findings(files={"utils.py": helper, "train.py": LOOP}) == []


def test_a_helper_whose_helper_clears_is_correct(findings):
    helper = HELPER.replace(
        "        return lr\n", "        _fresh(optimizer)\n        return lr\n"
    ) + (
        """

    def _fresh(optimizer):
        optimizer.zero_grad()
    """
    )
    assert findings(files={"utils.py": helper, "train.py": LOOP}) == []


def test_the_loop_that_clears_is_correct(findings):
    loop = LOOP.replace(
        "            loss = model", "            optimizer.zero_grad()\n            loss = model"
    )
    assert findings(files={"utils.py": HELPER, "train.py": loop}) == []


# thuml/CDAN: ``optimizer = lr_schedule.inv_lr_scheduler(optimizer, i)`` sets the learning
# rates and hands the optimizer back; the optimizer's class comes from the config
SCHEDULE = """\
    def inv_lr_scheduler(optimizer, iter_num, lr=0.001):
        for param_group in optimizer.param_groups:
            param_group["lr"] = lr * (1 + 0.001 * iter_num) ** (-0.75)
        return optimizer
    """
REBOUND_LOOP = """\
    import torch
    import lr_schedule


    def train(model, loader, config):
        optimizer = config["type"](model.parameters(), lr=0.1)
        for i, (x, y) in enumerate(loader):
            optimizer = lr_schedule.inv_lr_scheduler(optimizer, i)
            loss = torch.nn.functional.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    """


def test_the_optimizer_a_helper_of_another_module_hands_back(findings):
    files = {"lr_schedule.py": SCHEDULE, "train.py": REBOUND_LOOP}
    assert findings(files=files) == []
    files["train.py"] = REBOUND_LOOP.replace("            optimizer.zero_grad()\n", "")
    assert codes(findings(files=files)) == [("train.py", 10, "ZG101")]
