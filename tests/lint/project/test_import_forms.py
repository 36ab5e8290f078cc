"""Every import form resolves to the linted module it names (and nothing else does)."""

from __future__ import annotations

import textwrap

import pytest
from project_helpers import codes

STEP = """\
    def train_step(model, batch, optimizer):
        model(batch).backward()
        optimizer.step()
    """


def _loop(imports: str, call: str) -> str:
    return (
        f"import torch\n{imports}\n\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
        f"for batch in loader:\n    {call}(model, batch, opt)\n"
    )


SHAPES = {
    "absolute": (
        {"pkg/__init__.py": "", "pkg/steps.py": STEP},
        "train.py",
        _loop("from pkg.steps import train_step", "train_step"),
    ),
    "aliased_module": (
        {"pkg/__init__.py": "", "pkg/steps.py": STEP},
        "train.py",
        _loop("import pkg.steps as s", "s.train_step"),
    ),
    "dotted_module": (
        {"pkg/__init__.py": "", "pkg/steps.py": STEP},
        "train.py",
        _loop("import pkg.steps", "pkg.steps.train_step"),
    ),
    "from_package_import_module": (
        {"pkg/__init__.py": "", "pkg/steps.py": STEP},
        "train.py",
        _loop("from pkg import steps", "steps.train_step"),
    ),
    "aliased_function": (
        {"pkg/__init__.py": "", "pkg/steps.py": STEP},
        "train.py",
        _loop("from pkg.steps import train_step as one_step", "one_step"),
    ),
    "re_exported": (
        {"pkg/__init__.py": "from .steps import train_step\n", "pkg/steps.py": STEP},
        "train.py",
        _loop("from pkg import train_step", "train_step"),
    ),
    # ostris/ai-toolkit's ``jobs/process/__init__.py``: ``from .BaseSDTrainProcess import
    # BaseSDTrainProcess``; the package's attribute is the re-exported name, not the
    # submodule of the same name
    "re_exported_under_its_modules_name": (
        {"pkg/__init__.py": "from .train_step import train_step\n", "pkg/train_step.py": STEP},
        "train.py",
        _loop("from pkg import train_step", "train_step"),
    ),
    "re_exported_twice": (
        {
            "pkg/__init__.py": "from pkg.core import *\n",
            "pkg/core/__init__.py": "from .steps import train_step\n",
            "pkg/core/steps.py": STEP,
        },
        "train.py",
        _loop("import pkg", "pkg.train_step"),
    ),
    "relative": (
        {"pkg/__init__.py": "", "pkg/steps.py": STEP},
        "pkg/train.py",
        _loop("from .steps import train_step", "train_step"),
    ),
    "relative_parent": (
        {"pkg/__init__.py": "", "pkg/engine/__init__.py": "", "pkg/steps.py": STEP},
        "pkg/engine/train.py",
        _loop("from ..steps import train_step", "train_step"),
    ),
    # KlemenVovk/noisy-labels: strategy folders without ``__init__.py`` inside a package
    # (namespace portions), importing their siblings relatively
    "relative_between_namespace_folders_in_a_package": (
        {
            "pyproject.toml": "[project]\nname = 'pkg'\n",
            "src/pkg/__init__.py": "",
            "src/pkg/strategies/__init__.py": "",
            "src/pkg/strategies/base/steps.py": STEP,
        },
        "src/pkg/strategies/plus/train.py",
        _loop("from ..base.steps import train_step", "train_step"),
    ),
    "sibling_script": (
        {"scripts/steps.py": STEP},
        "scripts/train.py",
        _loop("import steps", "steps.train_step"),
    ),
    "src_layout": (
        {
            "pyproject.toml": "[project]\nname = 'pkg'\n",
            "src/pkg/__init__.py": "",
            "src/pkg/steps.py": STEP,
        },
        "tools/train.py",
        _loop("from pkg.steps import train_step", "train_step"),
    ),
    "namespace_package": (
        {"pyproject.toml": "[project]\nname = 'ns'\n", "ns/training/steps.py": STEP},
        "ns/run/train.py",
        _loop("from ns.training.steps import train_step", "train_step"),
    ),
    # research code run as ``python main.py``: no pyproject.toml, ``util/`` without an
    # ``__init__.py`` (facebookresearch/mae's ``from util.misc import NativeScaler``)
    "namespace_package_beside_the_script": (
        {"util/misc.py": STEP},
        "main.py",
        _loop("from util.misc import train_step", "train_step"),
    ),
    # ... and from a script in a subfolder, its repository root on ``sys.path``
    # (p-christ/Deep-Reinforcement-Learning-Algorithms-with-PyTorch's
    # ``agents/DQN_agents/DQN.py``: ``from agents.Base_Agent import Base_Agent``)
    "namespace_package_above_the_script": (
        {"agents/base.py": STEP},
        "agents/dqn/train.py",
        _loop("from agents.base import train_step", "train_step"),
    ),
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_import_form_resolves(findings, shape):
    files, caller, loop = SHAPES[shape]
    found = findings(files={**files, caller: loop})
    assert codes(found) == [(caller, 6, "ZG101")]


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_import_form_resolves_the_fixed_helper_too(findings, shape):
    files, caller, loop = SHAPES[shape]
    fixed = {
        path: text.replace(
            "model(batch).backward()", "optimizer.zero_grad()\n        model(batch).backward()"
        )
        for path, text in files.items()
    }
    assert findings(files={**fixed, caller: loop}) == []


def test_an_import_cycle_is_bounded(findings):
    files = {
        "a.py": "from b import helper\n\ndef train_step(model, batch, optimizer):\n"
        "    helper(optimizer)\n    model(batch).backward()\n    optimizer.step()\n",
        "b.py": "from a import train_step\n\ndef helper(optimizer):\n"
        "    train_step(None, None, optimizer)\n",
        "train.py": _loop("from a import train_step", "train_step"),
    }
    # a -> b -> a: the call back into the module being analysed stays unknown (it may
    # clear), so nothing is claimed about the loop; the run ends
    assert findings(files=files) == []


def test_a_name_claimed_by_two_files_resolves_to_neither(findings):
    files = {
        "one/steps.py": STEP,
        "two/steps.py": STEP.replace(
            "optimizer.step()", "optimizer.step()\n    optimizer.zero_grad()"
        ),
        "three/train.py": _loop("import steps", "steps.train_step"),
    }
    assert findings(files=files) == []


def test_a_name_only_one_of_two_same_named_modules_defines_resolves_to_it(findings):
    # cyoon1729/Policy-Gradient-Methods: package ``ddpg/`` holding ``ddpg.py`` and
    # ``ddpg_test.py`` (``from ddpg import ...``, run from inside the folder): the
    # sibling module and the package are both ``ddpg``, but only the module defines the
    # name, so importing it from the package would fail
    files = {
        "ddpg/__init__.py": "",
        "ddpg/ddpg.py": STEP,
        "ddpg/ddpg_test.py": _loop("from ddpg import train_step", "train_step"),
    }
    assert codes(findings(files=files)) == [("ddpg/ddpg_test.py", 6, "ZG101")]
    both = {**files, "ddpg/__init__.py": STEP.replace("optimizer.step()", "pass")}
    assert findings(files=both) == []  # both define it: which one runs is not known


def test_a_dotted_name_found_under_two_folders_above_the_importer_resolves_to_neither(findings):
    # which one Python imports depends on the folder the script runs from
    files = {
        "a/util/steps.py": STEP,
        "a/b/util/steps.py": STEP.replace(
            "optimizer.step()", "optimizer.step()\n    optimizer.zero_grad()"
        ),
        "a/b/c/train.py": _loop("from util.steps import train_step", "train_step"),
    }
    assert findings(files=files) == []


def test_a_module_outside_the_linted_set_stays_unknown(findings):
    files = {
        "pkg/__init__.py": "",
        "pkg/steps.py": STEP,
        "app/train.py": _loop("from pkg.steps import train_step", "train_step"),
    }
    assert findings(files=files, paths=("app/train.py",)) == []
    assert codes(findings(paths=("app", "pkg"))) == [("app/train.py", 6, "ZG101")]


_WIPE = "def wipe(model):\n    model.zero_grad()\n"
_CLEARED_THROUGH = """\
    import torch
    {import_line}


    def run(model, data):
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        for x in data:
            model(x).sum().backward()
            opt.step()
            {clear}
    """


def test_a_clear_called_on_an_imported_module_alias_is_followed(findings):
    # ``c.wipe(model)`` clears the model: the loop is correct (a false ZG101 before: the
    # walker dropped a method-shaped call whose receiver is a module)
    files = {
        "lib/__init__.py": "",
        "lib/clean.py": _WIPE,
        "main.py": _CLEARED_THROUGH.format(
            import_line="import lib.clean as c", clear="c.wipe(model)"
        ),
    }
    assert findings(files=files) == []


def test_a_clear_two_calls_away_through_a_module_imported_by_the_helper(findings):
    files = {
        "lib/__init__.py": "",
        "lib/clean.py": _WIPE,
        "lib/helpers.py": "from lib import clean\n\n\ndef tidy(model):\n    clean.wipe(model)\n",
        "main.py": _CLEARED_THROUGH.format(
            import_line="from lib.helpers import tidy", clear="tidy(model)"
        ),
    }
    assert findings(files=files) == []


def test_a_clear_through_a_relatively_imported_module_is_followed(findings):
    # ``from . import clean`` then ``clean.wipe(model)``: the walker kept no import for
    # a relative ``from`` without a module name, so the call was dropped (a false ZG101)
    files = {
        "pkg/__init__.py": "",
        "pkg/clean.py": _WIPE,
        "pkg/train.py": _CLEARED_THROUGH.format(
            import_line="from . import clean", clear="clean.wipe(model)"
        ),
    }
    assert findings(files=files) == []


_LOGGED_CLEAR = """\
    for name, p in model.named_parameters():
        if p.grad is not None:
            {log}
            p.grad.zero_()
"""


def test_a_logged_clear_under_a_gradient_test_is_still_a_clear(findings):
    # a second review: keeping ``logger.debug(...)`` (a call on a project module's name)
    # as an event made the grad-tested ``if`` conditional, and the clear with it
    # (a false ZG101 in both modes); the clears are hoisted, the call stays under it
    loop = _CLEARED_THROUGH.format(
        import_line="from .utils import logger",
        clear=textwrap.indent(
            _LOGGED_CLEAR.format(log='logger.debug("clearing %s", name)'), " " * 8
        ).strip(),
    )
    files = {
        "pkg/__init__.py": "",
        "pkg/utils.py": "import logging\n\nlogger = logging.getLogger(__name__)\n",
        "pkg/train.py": loop,
    }
    assert findings(files=files) == []
    assert findings("--no-project") == []


def test_a_logged_clear_in_a_helper_of_another_module_is_still_a_clear(findings):
    files = {
        "pkg/__init__.py": "",
        "pkg/helpers.py": "import wandb\n\n\ndef reset_grads(model):\n"
        "    for p in model.parameters():\n        if p.grad is not None:\n"
        '            wandb.log({"cleared": 1})\n            p.grad.zero_()\n',
        "pkg/train.py": _CLEARED_THROUGH.format(
            import_line="from .helpers import reset_grads", clear="reset_grads(model)"
        ),
    }
    assert findings(files=files) == []


def test_a_local_name_shadowing_an_imported_module_is_not_that_module(findings):
    # ``tools = make_tools()`` shadows ``from . import tools``: ``tools.sync(model)`` is
    # the local object's method, not the module's function that clears (a false ZG102)
    files = {
        "pkg/__init__.py": "",
        "pkg/tools.py": _WIPE.replace("wipe", "sync"),
        "pkg/train.py": """\
            import torch
            from . import tools


            def run(model, data, make_tools):
                opt = torch.optim.SGD(model.parameters(), lr=0.1)
                tools = make_tools()
                for x in data:
                    opt.zero_grad()
                    model(x).sum().backward()
                    tools.sync(model)
                    opt.step()
            """,
    }
    assert findings(files=files) == []


@pytest.mark.parametrize(
    "log", ['log({"cleared": 1})', "note(p)"], ids=["imported-function", "project-function"]
)
def test_a_call_beside_a_parameter_loop_clear_keeps_it_a_clear(findings, log):
    # a plain call in the loop (``from wandb import log``, or a project helper handed the
    # parameter) made the loop over parameters an ordinary loop, so its clear cleared
    # one parameter only: a false ZG101 in both modes
    clear = f"for p in model.parameters():\n    p.grad = None\n    {log}\n"
    files = {
        "pkg/__init__.py": "",
        "pkg/notes.py": "def note(p):\n    print(p.shape)\n",
        "pkg/train.py": _CLEARED_THROUGH.format(
            import_line="from wandb import log\n    from .notes import note",
            clear=textwrap.indent(clear, " " * 12).strip(),
        ),
    }
    assert findings(files=files) == []
    assert findings("--no-project") == []


@pytest.mark.parametrize(
    "imports",
    [
        "from pkg.steps import other, \\\n    train_step",  # Swin-Transformer's main.py
        "from pkg.steps import other, \\\n    other_too, \\\n    train_step",
    ],
)
def test_an_import_continued_with_a_backslash_resolves(findings, imports):
    steps = STEP + "\n\n    def other():\n        pass\n\n\n    def other_too():\n        pass\n"
    loop = _loop(imports, "train_step")
    found = findings(files={"pkg/__init__.py": "", "pkg/steps.py": steps, "train.py": loop})
    assert codes(found) == [("train.py", 6 + imports.count("\n"), "ZG101")]
