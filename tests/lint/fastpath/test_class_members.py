"""Which methods of a kept class the fast path blanks, channel by channel (see
``class_members``).

Each test checks what is kept (so it fails if the fast path stops skipping, or skips what
can matter) and that the findings equal the whole-file analysis's.
"""

from __future__ import annotations

import textwrap

import pytest
from fastpath_helpers import fast_path, kept_lines, whole_file

from zerograd_guard.lint.options import DEFAULT_OPTIONS, AnalysisOptions, IterationFunction
from zerograd_guard.lint.regions import analysed_text

TRAINER = """\
import torch


class Trainer:
    def __init__(self, model):
        self.model = model
        self.rank = 0
        self.opt = torch.optim.SGD(model.parameters(), lr=0.1)

    def describe(self):
        return f"rank {self.rank}"

    @staticmethod
    def unrelated(x):
        return x + 1

    def fit(self, loader):
        for batch in loader:
            self.model(batch).backward()
            self.opt.step()
"""


def _same(text: str, options: AnalysisOptions = DEFAULT_OPTIONS) -> None:
    assert fast_path(text, options) == whole_file(text, options)


def _kept(text: str, options: AnalysisOptions = DEFAULT_OPTIONS) -> str:
    reduced = analysed_text(text, options, min_chars=0, member_min_chars=0)
    assert reduced is not None
    return reduced


def test_methods_that_cannot_contribute_become_pass_with_offsets_kept() -> None:
    reduced = _kept(TRAINER)
    assert len(reduced) == len(TRAINER) and reduced.count("\n") == TRAINER.count("\n")
    assert "def describe" not in reduced and "unrelated" not in reduced
    assert reduced.count("    pass") == 2  # each blanked method keeps its place
    # the constructor runs without its name being written; the loop holds the backward
    assert "def __init__(self, model):" in reduced and "def fit(self, loader):" in reduced
    findings = fast_path(TRAINER)
    assert findings and findings == whole_file(TRAINER)


def test_small_classes_are_kept_whole_by_default() -> None:
    reduced = analysed_text(TRAINER, DEFAULT_OPTIONS, min_chars=0)
    assert reduced is not None and "def describe" in reduced


def test_a_method_called_by_name_is_kept() -> None:
    text = TRAINER.replace("self.opt.step()", "self.opt.step()\n            self.describe()")
    assert any("def describe" in line for line in kept_lines(text))
    _same(text)


def test_a_method_assigning_an_attribute_a_kept_method_reads_is_kept() -> None:
    text = TRAINER.replace(
        "    def describe(self):\n",
        "    def rebuild(self):\n        self.sched = make()\n\n    def describe(self):\n",
    ).replace("self.opt.step()", "self.opt.step()\n            self.sched.advance()")
    assert any("def rebuild" in line for line in kept_lines(text))
    _same(text)


def test_a_method_that_may_rebind_the_optimizer_is_kept() -> None:
    text = TRAINER.replace(
        "    def describe(self):\n",
        "    def reset(self, lr):\n        self.opt = torch.optim.SGD(self.model.parameters(),"
        " lr=lr)\n\n    def describe(self):\n",
    )
    lines = kept_lines(text)
    assert any("def reset" in line for line in lines)
    assert not any("def describe" in line for line in lines)  # it only reads self.rank
    _same(text)


def test_a_method_reaching_a_backward_through_another_is_kept() -> None:
    text = TRAINER + textwrap.indent(
        textwrap.dedent(
            """\

            def epoch(self, loader):
                for _ in range(3):
                    self.fit(loader)
            """
        ),
        "    ",
    )
    assert any("def epoch" in line for line in kept_lines(text))
    _same(text)


def test_an_override_of_a_kept_method_is_kept() -> None:
    text = TRAINER + textwrap.dedent(
        """\


        class Other(Trainer):
            def fit(self, loader):
                pass

            def describe(self):
                return "other"
        """
    )
    lines = kept_lines(text)
    assert sum("def fit" in line for line in lines) == 2
    _same(text)


def test_methods_a_framework_drives_are_kept() -> None:
    text = TRAINER.replace("def describe(self):", "def compute_loss(self):")
    options = AnalysisOptions(
        iteration_functions=frozenset(
            {IterationFunction("transformers", "Trainer", "compute_loss")}
        )
    )
    assert "def compute_loss" in _kept(text, options)
    _same(text, options)


def test_a_forward_and_dunders_are_kept() -> None:
    text = TRAINER.replace("def describe(self):", "def forward(self):").replace(
        "def unrelated(x):", "def __call__(x):"
    )
    reduced = _kept(text)
    assert "def forward" in reduced and "def __call__" in reduced
    _same(text)


def test_nested_classes_are_split_too() -> None:
    text = "class Outer:\n" + textwrap.indent(TRAINER.replace("import torch\n", ""), "    ")
    text = "import torch\n\n" + text
    reduced = _kept(text)
    assert "def describe" not in reduced and "def fit" in reduced
    _same(text)


def test_tab_indentation_is_kept_for_the_placeholder() -> None:
    text = TRAINER.replace("    ", "\t")
    reduced = _kept(text)
    assert "\tpass" in reduced and "def describe" not in reduced
    _same(text)


@pytest.mark.parametrize(
    "header",
    [
        "    if True:\n        def describe2(self):\n            loss.backward()\n",
        "    step_fn = staticmethod(lambda: loss.backward())\n",
    ],
    ids=["definition-in-an-if", "class-level-backward"],
)
def test_a_class_whose_own_lines_hold_a_backward_is_kept_whole(header: str) -> None:
    text = TRAINER.replace("    def describe(self):\n", header + "\n    def describe(self):\n")
    assert "def describe(self)" in _kept(text)
    _same(text)


# Programs an adversarial review found where blanking a method changed the findings
# (each minimised; the whole-file result is the reference).
REVIEWED = {
    # a call whose name says it freezes (``freeze_bn``, ``freeze(...)``) is a file-wide fact
    "freeze-call": """\
class T:
    def __init__(self):
        self.optD = torch.optim.Adam(self.netD.parameters())
        self.optG = torch.optim.Adam(self.netG.parameters())
        while True:
            self.netD(real).backward()
            self.optD.step()
            self.optD.zero_grad()
            self.netD(self.netG()).backward()
            self.optG.step()
    def prepare_eval(self):
        self.netG.freeze_bn()
    def f(self):
        freeze(self.netD)
""",
    # a parameter cleared and stepped is an optimizer by its use: its name's tie is shared
    "optimizer-by-use": """\
class H:
    def apply(self, u):
        u.zero_grad()
        u.step()
    def train(self, real):
        u = torch.optim.Adam(netD.parameters())
        g = torch.optim.Adam(netG.parameters())
        while True:
            netD(real).backward()
            u.step()
            u.zero_grad()
            netD(netG()).backward()
            g.step()
""",
    # a function naming an optimizer may return one
    "optimizer-from-a-function": """\
def build(net):
    return net, torch.optim.Adam(net.parameters())
class H:
    def warmup(self, netX):
        m, u = build(netX)
        u.zero_grad()
    def train(self, real):
        u = torch.optim.Adam(netD.parameters())
        g = torch.optim.Adam(netG.parameters())
        while True:
            netD(real).backward()
            u.step()
            u.zero_grad()
            netD(netG()).backward()
            g.step()
""",
    # calling an instance runs its class's ``__call__``: no text names it
    "instance-call": """\
class U:
    def __init__(self):
        self.u = U()
    def __call__(self, b):
        b.backward()
        self.opt.step()
    def fit(self, data):
        u = self.u
        for b in data:
            u(b)
""",
    # identifiers are NFKC-normalised by Python (and ``ast``), not by the text
    "normalised-name": """\
class T:
    def run(self, data):
        for b in data:
            self.\ufb01x()
            self.model(b).backward()
            self.opt.step()
    def \ufb01x(self):
        self.model.zero_grad()
""",
}


@pytest.mark.parametrize("name", REVIEWED)
def test_reviewed_programs(name: str) -> None:
    _same(REVIEWED[name])
    # the same shapes as top-level functions
    if name != "normalised-name":
        _same(textwrap.dedent(REVIEWED[name].split("\n", 1)[1]).replace("self.", ""))


def test_a_function_handed_to_an_engine_by_name_is_kept() -> None:
    text = """\
from ignite.engine import Engine
class T:
    def a(self):
        def update(engine, batch):
            batch.backward()
            self.opt.step()
    def b(self, update):
        Engine(update)
"""
    engine = IterationFunction("ignite", "Engine")
    options = AnalysisOptions(iteration_functions=frozenset({engine}))
    assert whole_file(text, options)  # the premise: the engine runs ``update`` per batch
    _same(text, options)
