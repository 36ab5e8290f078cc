"""A loop of another module over a parameter annotated with a base class runs each
subclass's overrides (``flow._annotated_drivers``, ``call_sites.annotated_drivers``).

mammoth's layout: ``utils/training.py`` has ``train_single_epoch(model: ContinualModel,
...)`` calling ``model.meta_observe(...)`` per batch, which runs ``self.observe(...)``;
each ``models/*.py`` subclasses ``ContinualModel`` and overrides ``observe`` (clear,
backward, step); ``main.py`` builds the model by its name. No call of the run says which
class the loop gets: any subclass may be passed, so each is judged there.
"""

from __future__ import annotations

from project_helpers import codes, tree

BASE = """\
    import torch


    class ContinualModel(torch.nn.Module):
        def __init__(self, net, lr):
            super().__init__()
            self.net = net
            self.opt = torch.optim.SGD(net.parameters(), lr=lr)

        def meta_observe(self, inputs, labels):
            return self.observe(inputs, labels)

        def observe(self, inputs, labels):
            raise NotImplementedError
    """
TRAINING = """\
    from base import ContinualModel


    def train(model: ContinualModel, loader):
        for inputs, labels in loader:
            model.meta_observe(inputs, labels)
    """
SGD = """\
    from base import ContinualModel


    class Sgd(ContinualModel):
        def observe(self, inputs, labels):
            self.opt.zero_grad()
            loss = self.net(inputs).sum()
            loss.backward()
            self.opt.step()
            return loss.item()
    """
BUGGY_SGD = SGD.replace("            self.opt.zero_grad()\n", "")
MAIN = """\
    import importlib

    from training import train


    def main(args, loader):
        model = importlib.import_module(args.model).build(args)
        train(model, loader)
    """


def _files(sgd: str = BUGGY_SGD, training: str = TRAINING) -> dict[str, str]:
    return {"base.py": BASE, "training.py": training, "sgd.py": sgd, "main.py": MAIN}


def test_the_override_the_annotated_loop_runs_forgets_its_clear(findings):
    assert codes(findings(files=_files())) == [("sgd.py", 7, "ZG101")]


def test_an_override_that_clears_is_correct(findings):
    assert findings(files=_files(sgd=SGD)) == []


def test_the_loop_that_clears_for_the_model_is_correct(findings):
    training = TRAINING.replace(
        "        for inputs, labels in loader:\n",
        "        for inputs, labels in loader:\n            model.opt.zero_grad()\n",
    )
    assert findings(files=_files(training=training)) == []


def test_without_the_annotation_the_loops_model_is_unknown(findings):
    training = TRAINING.replace("model: ContinualModel", "model")
    assert findings(files=_files(training=training)) == []


def test_a_loop_calling_no_method_of_it_or_annotated_with_another_class(findings):
    evaluating = TRAINING.replace("model.meta_observe(inputs, labels)", "print(model)")
    assert findings(files=_files(training=evaluating)) == []
    other = TRAINING.replace("model: ContinualModel", "model: torch.nn.Module").replace(
        "from base import ContinualModel", "import torch"
    )
    assert findings(files=_files(training=other)) == []


def test_editing_the_loop_re_judges_the_subclass(findings, tmp_path):
    cache = f"--cache-dir={tmp_path / 'cache'}"
    clearing = TRAINING.replace(
        "        for inputs, labels in loader:\n",
        "        for inputs, labels in loader:\n            model.opt.zero_grad()\n",
    )
    assert findings(cache, files=_files(training=clearing)) == []
    tree(tmp_path, {"training.py": TRAINING})  # sgd.py and base.py unchanged
    assert codes(findings(cache)) == [("sgd.py", 7, "ZG101")]


def test_parallel_output_is_serial_output(findings):
    serial = findings(files=_files())
    assert findings("-j", "2") == serial != []


def test_a_subclass_of_a_subclass_in_another_module(findings):
    # mammoth's DerppCasper(Derpp), Derpp(ContinualModel): the loop's annotation names
    # the class two levels up
    derived = (
        "    from sgd import Sgd\n\n\n"
        "    class SgdTwice(Sgd):\n"
        "        def observe(self, inputs, labels):\n"
        "            loss = self.net(inputs).sum()\n"
        "            loss.backward()\n"
        "            self.opt.step()\n"
        "            return loss.item()\n"
    )
    found = findings(files={**_files(sgd=SGD), "twice.py": derived})
    assert codes(found) == [("twice.py", 7, "ZG101")]
