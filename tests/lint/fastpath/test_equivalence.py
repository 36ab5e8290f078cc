"""The fast path finds exactly what the whole-file analysis finds.

On generated programs (top-level statements drawn from a pool that exercises every
channel ``regions`` reasons about, sharing one small vocabulary of names), on every
``.py`` of ``tests/lint``, ``examples`` and the dense benchmark set, and, opt-in
(``ZEROGRAD_FASTPATH_PACKAGES=1``, minutes), on every file of the installed torch,
transformers, lightning and accelerate.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from fastpath_helpers import fast_path, whole_file
from hypothesis import given
from hypothesis import strategies as st

from zerograd_guard.lint.options import AnalysisOptions

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tests" / "lint" / "hardening"))
sys.path.insert(0, str(ROOT / "benchmarks"))

import corpus  # noqa: E402
from fuzz_budget import fuzz_settings  # noqa: E402

POOL = (
    "import torch",
    "from torch.optim import SGD as Maker",
    "opt = torch.optim.SGD(model.parameters(), lr=0.1)",
    "holder = Maker(net.parameters())",
    "scaler = torch.cuda.amp.GradScaler()",
    "model.zero_grad()",
    "opt.zero_grad()",
    "x = [f(i) for i in range(3)]",
    "trainer = Trainer()",
    "fit2(loader, opt)",
    "if __name__ == '__main__':\n    fit(loader)",
    "def helper(o):\n    o.zero_grad()",
    "def helper(o):\n    return o",
    "def reset(m):\n    for p in m.parameters():\n        p.grad = None",
    "def unrelated(x):\n    '''call loss.backward() here'''\n    return x + 1",
    "def make():\n    import torch.optim as optim\n    return optim",
    "def g():\n    global opt\n    opt = Maker(net.parameters())",
    "def build_optimizer(m):\n    return torch.optim.Adam(m.parameters())",
    "def train_step(batch):\n    loss = model(batch)\n    loss.backward()\n    opt.step()",
    "def train_step(batch):\n    loss = model(batch)\n    loss.backward()",
    "def train_step(batch):\n    helper(opt)\n    model(batch).backward()",
    "for batch in loader:\n    train_step(batch)",
    "for batch in loader:\n    helper(opt)\n    train_step(batch)\n    opt.step()",
    "for batch in loader:\n    loss = model(batch)\n    loss.backward()\n    opt.step()",
    "for b in loader:\n    trainer.fit(b)",
    "def fit(loader):\n    for b in loader:\n        reset(model)\n        model(b).backward()\n"
    "        opt.step()",
    "def fit2(loader, o):\n    for b in loader:\n        net(b).backward()\n        o.step()",
    "def fit3(loader):\n    o = build_optimizer(net)\n    for b in loader:\n"
    "        net(b).backward()\n        o.step()\n        holder.step()",
    "def accumulate(loader):\n    for i, b in enumerate(loader):\n        model(b).backward()\n"
    "        if i % 4 == 0:\n            opt.step()\n            opt.zero_grad()",
    "def quiet(loader):\n    for b in loader:\n        model(b).backward()  # noqa: ZG101\n"
    "        opt.step()",
    "class Trainer:\n    def __init__(self):\n        self.opt = build_optimizer(self.model)\n"
    "    def fit(self, loader):\n        for b in loader:\n            self.step(b)\n"
    "            self.opt.step()",
    "class Trainer:\n    def step(self, b):\n        self.model(b).backward()",
    "class Other(Trainer):\n    def step(self, b):\n        self.opt.zero_grad()\n"
    "        self.model(b).backward()",
    "class Trainer:\n    def rebuild(self, o):\n        self.opt = o\n        self.rank = 0\n"
    "    def describe(self):\n        return self.rank\n    def fit(self, loader):\n"
    "        for b in loader:\n            self.model(b).backward()\n            self.opt.step()",
    "class Holder:\n    def setup(self, opt: Optimizer):\n        self.held = opt\n"
    "    def run(self, loader):\n        for b in loader:\n            net(b).backward()\n"
    "            self.held.step()",
    "class Lit(LightningModule):\n    def training_step(self, batch):\n"
    "        opt = self.optimizers()\n        self.manual_backward(self.loss(batch))\n"
    "        opt.step()",
    "with accelerator.accumulate(model):\n    accelerator.backward(loss)\n    opt.step()\n"
    "    opt.zero_grad()",
    "def closure():\n    opt.zero_grad()\n    loss = model(x)\n    loss.backward()\n"
    "    return loss",
    "for b in loader:\n    opt.step(closure)",
    "@decorate(\n    1,\n)\ndef decorated():\n    return 2",
    "unrelated = 1; other = 2",
    "if flag:\n    opt.zero_grad()\nelse:\n    raise SystemExit",
)


def _same(text: str, options: AnalysisOptions | None = None) -> None:
    options = options or AnalysisOptions()
    assert fast_path(text, options) == whole_file(text, options)


@fuzz_settings(150)
@given(st.lists(st.sampled_from(POOL), min_size=1, max_size=9))
def test_generated_programs(statements: list[str]) -> None:
    _same("\n\n".join(statements) + "\n")


@fuzz_settings(40)
@given(st.lists(st.sampled_from(POOL), min_size=1, max_size=6))
def test_generated_programs_with_configured_names(statements: list[str]) -> None:
    options = AnalysisOptions(
        extra_backward_calls=frozenset({"fwd_bwd"}),
        extra_clear_calls=frozenset({"wipe"}),
        extra_step_calls=frozenset({"apply_update"}),
    )
    text = "\n\n".join(statements).replace("loss.backward()", "fwd_bwd(loss)")
    _same(text.replace("opt.zero_grad()", "wipe(opt)") + "\n", options)


_LEAK = """\
import torch

netG = Generator()
netD = Discriminator()
optD = torch.optim.Adam(netD.parameters())
optG = torch.optim.Adam(netG.parameters())


def d_cleared_after_its_step(loader):
    for real in loader:
        fake = netG(noise)
        errD = netD(real).mean() - netD(fake.detach()).mean()
        errD.backward()
        optD.step()
        optD.zero_grad()
        errG = -netD(fake).mean()
        errG.backward()
        optG.step()
        optG.zero_grad()
"""


@pytest.mark.parametrize(
    "text",
    [
        # a freeze anywhere in the file silences the cross-model leak (ZG104)
        _LEAK + "\n\ndef freeze():\n    netD.requires_grad_(False)\n",
        # the framework is decided from every import, at any depth
        _LEAK.replace("import torch\n", "") + "\n\ndef setup():\n    import mxnet as mx\n",
        _LEAK.replace("import torch\n", "") + "\n\nimport mxnet as mx\n",
    ],
    ids=["freeze-elsewhere", "nested-foreign-import", "unused-foreign-import"],
)
def test_file_wide_facts_are_kept(text: str) -> None:
    assert whole_file(text) == []  # the premise: these facts silence the leak
    _same(text)


REVIEWED = ROOT / "tests" / "lint" / "fastpath" / "reviewed"  # test_reviewed_programs


def _files(*folders: str) -> list[Path]:
    return [
        path
        for folder in folders
        for path in sorted((ROOT / folder).rglob("*.py"))
        if REVIEWED not in path.parents
    ]


@pytest.mark.parametrize(
    "path", _files("tests/lint", "examples"), ids=lambda path: str(path.relative_to(ROOT))
)
def test_project_files(path: Path) -> None:
    _same(path.read_text(encoding="utf-8", errors="replace"))


@pytest.mark.parametrize("index", range(0, 240, 3))
def test_dense_benchmark_variants(index: int) -> None:
    _same(corpus.variant(index, _seeds()))


_SEEDS: list[tuple[str, str]] = []


def _seeds() -> list[tuple[str, str]]:
    if not _SEEDS:
        _SEEDS.extend(corpus.dense_seeds())
    return _SEEDS


PACKAGES = ("torch", "transformers", "lightning", "accelerate")


@pytest.mark.skipif(
    not os.environ.get("ZEROGRAD_FASTPATH_PACKAGES"),
    reason="minutes: set ZEROGRAD_FASTPATH_PACKAGES=1",
)
def test_installed_packages() -> None:
    import importlib.util

    differing = []
    for package in PACKAGES:
        spec = importlib.util.find_spec(package)
        assert spec is not None and spec.origin is not None
        for path in sorted(Path(spec.origin).parent.rglob("*.py")):
            text = path.read_bytes().decode("utf-8", "replace")
            if fast_path(text) != whole_file(text):
                differing.append(str(path))
    assert differing == []


@pytest.mark.skipif(
    not os.environ.get("ZEROGRAD_FASTPATH_PACKAGES"),
    reason="minutes: set ZEROGRAD_FASTPATH_PACKAGES=1",
)
def test_installed_packages_in_project_mode(tmp_path, monkeypatch, capsys):
    """The same packages linted as one project: the fast path's project seeds
    (``project.seeds``) keep every statement the whole-file analysis can follow into
    another module."""
    import importlib.util

    from zerograd_guard.lint.cli import main

    folders = []
    for package in PACKAGES:
        spec = importlib.util.find_spec(package)
        assert spec is not None and spec.origin is not None
        folders.append(str(Path(spec.origin).parent))
    outputs = []
    for flags in ((), ("--no-fast-path",)):
        capsys.readouterr()
        assert main(["--no-cache", "--exit-zero", "--output-format", "json", *flags, *folders]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]
