"""An optimizer parameter tied to a module parameter by what every caller passes.

rosinality/stylegan2-pytorch's ``train.py``: ``train(args, loader, generator,
discriminator, g_optim, d_optim, ...)`` clears with ``discriminator.zero_grad()`` and
``generator.zero_grad()``; its caller builds ``d_optim = optim.Adam(discriminator.
parameters(), ...)`` and passes ``discriminator`` and ``d_optim`` side by side. Without
that knowledge ``d_optim``'s parameters are unknown, so ``generator.zero_grad()`` may
clear it, and a dropped ``discriminator.zero_grad()`` went unreported.
"""

from __future__ import annotations

from project_helpers import codes

TRAIN = """\
    import torch
    from torch import optim


    def requires_grad(model, flag=True):
        for p in model.parameters():
            p.requires_grad = flag


    def train(loader, generator, discriminator, g_optim, d_optim):
        for real in loader:
            requires_grad(generator, False)
            requires_grad(discriminator, True)
            d_loss = discriminator(real).mean() - discriminator(generator(real)).mean()
            discriminator.zero_grad()
            d_loss.backward()
            d_optim.step()

            requires_grad(generator, True)
            requires_grad(discriminator, False)
            g_loss = -discriminator(generator(real)).mean()
            generator.zero_grad()
            g_loss.backward()
            g_optim.step()


    if __name__ == "__main__":
        generator = torch.nn.Linear(2, 2)
        discriminator = torch.nn.Linear(2, 1)
        g_optim = optim.Adam(generator.parameters(), lr=1e-3)
        d_optim = optim.Adam(discriminator.parameters(), lr=1e-3)
        train(range(10), generator, discriminator, g_optim, d_optim)
    """


def test_the_correct_loop_is_silent(findings):
    assert findings(files={"train.py": TRAIN}) == []


def test_a_dropped_module_clear_is_found(findings):
    no_d_clear = TRAIN.replace("            discriminator.zero_grad()\n", "")
    assert codes(findings(files={"train.py": no_d_clear})) == [("train.py", 15, "ZG101")]


def test_a_dropped_generator_clear_is_found(findings):
    no_g_clear = TRAIN.replace("            generator.zero_grad()\n", "")
    assert codes(findings(files={"train.py": no_g_clear})) == [("train.py", 22, "ZG101")]


def test_a_caller_passing_an_optimizer_of_unknown_parameters_leaves_it_unknown(findings):
    # another call passes an optimizer the file does not show the parameters of
    unknown = TRAIN.replace("            discriminator.zero_grad()\n", "") + (
        "    train(range(10), generator, discriminator, g_optim, make_optimizer())\n"
    )
    assert findings(files={"train.py": unknown}) == []


def test_a_module_rebound_to_another_model_leaves_it_unknown(findings):
    rebound = TRAIN.replace("            discriminator.zero_grad()\n", "").replace(
        "        train(range(10)",
        "        discriminator = torch.nn.Linear(2, 1)\n        train(range(10)",
    )
    assert findings(files={"train.py": rebound}) == []


# kekmodel/MPL-pytorch: the optimizers are built over weight-decay parameter groups of
# one model each before being handed to the training function
PARAM_GROUPS = """\
        no_decay = ["bn"]
        d_groups = [
            {"params": [p for n, p in discriminator.named_parameters()
                        if not any(nd in n for nd in no_decay)], "weight_decay": 5e-4},
            {"params": [p for n, p in discriminator.named_parameters()
                        if any(nd in n for nd in no_decay)], "weight_decay": 0.0},
        ]
        d_optim = optim.Adam(d_groups, lr=1e-3)
"""


def test_an_optimizer_of_parameter_groups_of_one_module_is_tied_to_it(findings):
    grouped = TRAIN.replace("            discriminator.zero_grad()\n", "").replace(
        "        d_optim = optim.Adam(discriminator.parameters(), lr=1e-3)\n", PARAM_GROUPS
    )
    assert codes(findings(files={"train.py": grouped})) == [("train.py", 15, "ZG101")]


def test_parameter_groups_of_two_modules_leave_the_optimizer_unknown(findings):
    mixed = PARAM_GROUPS.replace(
        "for n, p in discriminator.named_parameters()\n                        if any",
        "for n, p in generator.named_parameters()\n                        if any",
    )
    grouped = TRAIN.replace("            discriminator.zero_grad()\n", "").replace(
        "        d_optim = optim.Adam(discriminator.parameters(), lr=1e-3)\n", mixed
    )
    assert findings(files={"train.py": grouped}) == []
