"""Project mode's fast path keeps exactly what may reach a backward in another module.

A statement of the analysed file without a backward of its own is kept when it uses an
imported function that may run one, calls or derives from an imported class that may,
or names one through a ``module.a.b`` chain; an annotation or an ``isinstance`` check
naming such a class runs none of its code and is blanked. Each tree here is linted with
and without the fast path: the findings must be the same, and a finding must exist (so
the comparison is not between two empty outputs).
"""

from __future__ import annotations

from pathlib import Path

from project_helpers import tree

from zerograd_guard.lint.options import DEFAULT_OPTIONS
from zerograd_guard.lint.project.build import build_project
from zerograd_guard.lint.project.seeds import import_seeds
from zerograd_guard.lint.regions import SPLIT_MIN_CHARS, Use, analysed_text

_LIBRARY = {
    "lib/__init__.py": "",
    "lib/engine.py": """\
        class Trainer:
            def fit(self, model, opt, loader):
                for x in loader:
                    model(x).backward()
                    opt.step()


        def train_step(model, opt, x):
            model(x).backward()
            opt.step()
        """,
}

# unrelated code, so that the file is long enough to be split into statements
_PADDING = "".join(f"\n\ndef helper_{i}(x):\n    return x * {i} + 1\n" for i in range(400))


def _trainer(body: str) -> str:
    text = body + _PADDING
    assert len(text) > SPLIT_MIN_CHARS
    return text


_SHAPES = {
    "called_class": "from lib.engine import Trainer\n\n\ndef run(model, opt, data):\n"
    "    Trainer().fit(model, opt, data)\n",
    "derived_class": "from lib.engine import Trainer\n\n\nclass Mine(Trainer):\n    pass\n\n\n"
    "def run(model, opt, data):\n    Mine().fit(model, opt, data)\n",
    "module_chain": "import lib.engine\n\n\ndef run(model, opt, data):\n"
    "    for x in data:\n        lib.engine.train_step(model, opt, x)\n",
    "function": "from lib.engine import train_step\n\n\ndef run(model, opt, data):\n"
    "    for x in data:\n        train_step(model, opt, x)\n",
    "star": "from lib.engine import *\n\n\ndef run(model, opt, data):\n"
    "    for x in data:\n        train_step(model, opt, x)\n",
}


def test_each_shape_is_judged_the_same_with_and_without_the_fast_path(findings):
    for name, body in _SHAPES.items():
        files = {**_LIBRARY, f"{name}.py": _trainer(body)}
        fast = findings(files=files)
        whole = findings("--no-fast-path", files=files)
        assert fast == whole, name
        assert fast, name  # the shape gives a finding: the comparison means something
        for path in files:
            (Path(".") / path).unlink()


def test_a_class_named_only_in_an_annotation_or_a_check_is_blanked(tmp_path):
    body = (
        "from lib.engine import Trainer\n\n\n"
        "def hinted(t: Trainer) -> Trainer:\n    return t\n\n\n"
        "def checks(t):\n    return isinstance(t, Trainer)\n\n\n"
        "def builds(model, opt, data):\n    Trainer().fit(model, opt, data)\n"
    )
    tree(tmp_path, {**_LIBRARY, "train.py": _trainer(body)})
    project = build_project(sorted(tmp_path.rglob("*.py")), DEFAULT_OPTIONS)
    seeds = import_seeds(project, project.entries[str(tmp_path / "train.py")])
    assert seeds.use("Trainer") is Use.RUNS
    text = (tmp_path / "train.py").read_text()
    kept = analysed_text(text, DEFAULT_OPTIONS, project_mode=True, project_seeds=seeds)
    assert kept is not None
    lines = [line for line in kept.splitlines() if line.strip()]
    assert "def builds(model, opt, data):" in lines
    assert not any(line.startswith(("def hinted", "def checks")) for line in lines)


def test_a_module_chain_seeds_only_where_it_resolves_to_a_backward(tmp_path):
    body = (
        "import lib.engine\nimport lib.shapes\n\n\n"
        "def measures(data):\n    return lib.shapes.size(data)\n\n\n"
        "def trains(model, opt, data):\n    for x in data:\n"
        "        lib.engine.train_step(model, opt, x)\n"
    )
    files = {**_LIBRARY, "lib/shapes.py": "def size(x):\n    return len(x)\n"}
    tree(tmp_path, {**files, "train.py": _trainer(body)})
    project = build_project(sorted(tmp_path.rglob("*.py")), DEFAULT_OPTIONS)
    seeds = import_seeds(project, project.entries[str(tmp_path / "train.py")])
    assert seeds.modules == {"lib"}
    assert seeds.chain("lib.engine.train_step") is Use.ANY
    assert seeds.chain("lib.shapes.size") is None
    text = (tmp_path / "train.py").read_text()
    kept = analysed_text(text, DEFAULT_OPTIONS, project_mode=True, project_seeds=seeds)
    assert kept is not None
    lines = [line for line in kept.splitlines() if line.strip()]
    assert "def trains(model, opt, data):" in lines
    assert "def measures(data):" not in lines


# Shapes a review found where the fast path dropped a finding the whole-file analysis
# makes (the callee's own text has a step, its backward is one call further, through a
# name the index's links missed), each with its expected finding. ``o`` keeps the loop
# from being kept as a statement that names an optimizer; ``unrelated`` gives the file
# a backward of its own, so that it is analysed.
_UNRELATED = "\n\ndef unrelated(loss):\n    loss.backward()\n"
_LOOP = "def run(model, o, data):\n    for x in data:\n        {call}(model, o, x)\n"
_REVIEWED = {
    "capitalised_module_alias": {
        "lib/engine.py": "def bw(model, opt, x):\n    model(x).backward()\n",
        "lib/wrap.py": "import lib.engine as E\n\n\ndef f(model, opt, x):\n"
        "    E.bw(model, opt, x)\n    opt.step()\n",
        "main.py": "from lib.wrap import f\n\n\n" + _LOOP.format(call="f") + _UNRELATED,
    },
    "function_running_a_class_method": {
        "lib/engine.py": "class Fitter:\n    def one(self, model, opt, x):\n"
        "        model(x).backward()\n        opt.step()\n\n\n"
        "def train_step(model, opt, x):\n    f = Fitter()\n    f.one(model, opt, x)\n",
        "main.py": "from lib.engine import train_step\n\n\n"
        + _LOOP.format(call="train_step")
        + _UNRELATED,
    },
    "static_method_read_off_a_class": {
        "lib/engine.py": "class Fitter:\n    @staticmethod\n    def bw(model, opt, x):\n"
        "        model(x).backward()\n",
        "lib/wrap.py": "from lib.engine import Fitter\n\n\ndef f(model, opt, x):\n"
        "    Fitter.bw(model, opt, x)\n    opt.step()\n",
        "main.py": "from lib.wrap import f\n\n\n" + _LOOP.format(call="f") + _UNRELATED,
    },
    "manual_backward": {
        "lib/engine.py": "def train_step(model, opt, x):\n"
        "    model.manual_backward(model(x))\n    opt.step()\n",
        "main.py": "from lib.engine import train_step\n\n\n"
        + _LOOP.format(call="train_step")
        + _UNRELATED,
    },
}


def test_reviewed_shapes_keep_their_finding_on_the_fast_path(findings):
    for name, files in _REVIEWED.items():
        files = {"lib/__init__.py": "", **files, "main.py": _trainer(files["main.py"])}
        fast = findings(files=files)
        whole = findings("--no-fast-path", files=files)
        assert fast == whole, name
        assert ("main.py", 6, "ZG101") in [(p, line, code) for p, line, code, _ in fast], name
        for path in files:
            (Path(".") / path).unlink()


def test_a_loop_stepping_through_a_framework_call_is_a_candidate(findings):
    # ``xm.optimizer_step(opt)`` (torch_xla) steps: the loop file, without a backward of
    # its own, calls one in another module and is judged
    files = {
        "lib/__init__.py": "",
        "lib/engine.py": "def bw(model, opt, x):\n    model(x).backward()\n",
        "main.py": "import torch_xla.core.xla_model as xm\nfrom lib.engine import bw\n\n\n"
        "def run(model, opt, data):\n    for x in data:\n        bw(model, opt, x)\n"
        "        xm.optimizer_step(opt)\n",
    }
    found = [(p, line, code) for p, line, code, _ in findings(files=files)]
    assert ("main.py", 7, "ZG101") in found
