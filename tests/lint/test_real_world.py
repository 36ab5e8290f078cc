"""The linter on real public training code that we did not write.

Each file in ``real_world/`` is a faithful excerpt of a public training script
(source, commit and licence in its first line). Lines where a finding is expected
carry ``# expect: ZGxxx``; every other line must stay silent. Bug/fix pairs from
upstream history are ``<name>__buggy.py`` / ``<name>__fixed.py``.

The mutant test injects bugs into the files that are clean (no marks): every
deleted clear must raise ZG101 and every clear moved between backward and step
must raise ZG102 (see ``real_world/inject.py`` for which injections are honest).
"""

from __future__ import annotations

import importlib.util
import sys
from functools import cache
from pathlib import Path

import pytest

from zerograd_guard.lint.analyze import analyze_source
from zerograd_guard.lint.plugins.manager import builtin_options
from zerograd_guard.lint.testing import expected

CORPUS = Path(__file__).parent / "real_world"


def _load_inject():
    name = "zerograd_real_world_inject"
    spec = importlib.util.spec_from_file_location(name, CORPUS / "inject.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


inject = _load_inject()

CORPUS_FILES = sorted(p for p in CORPUS.glob("*.py") if p.name != "inject.py")

# Files whose expectations the analyzer does not meet yet (each one a known gap,
# not a wrong expectation). strict: the test fails as soon as the gap is closed.
KNOWN_GAPS: dict[str, str] = {
    "accelerate_test_sync.py": (
        "step_model's loss comes from its own parameters (a call of `model`, reads of "
        "`input` / `target`), so what its backward reaches stays unknown at every call, "
        "and the prepared copy's accelerator.backward (line 41) may feed the reference "
        "`opt` (false ZG101). Both optimizers' parameters are known (through "
        "get_training_setup's returned tuple); proving that the copy's call writes the "
        "copy alone needs alias knowledge of the arguments the analysis does not have"
    ),
}

# Injected bugs the analyzer does not catch yet: "file.py::kind@line" -> reason.
_CALLED_FROM_NOTEBOOKS = "is called once per batch from the book's notebooks, not from a loop here"
_UNKNOWN_OPTIMIZER = "of unknown type: its clear and step are not recognised as an optimizer's"
KNOWN_MISSED_MUTANTS: dict[str, str] = {
    "tranad_mad_gan.py::delete@57": (
        "a clear of a submodule (model.generator) of the one module an optimizer of unknown "
        "parameters steps leaves its gradients unknown: which part is stale is not tracked"
    ),
    "torch_rechub_mtl_trainer.py::delete@275": (
        "the per-task backwards run inside MetaBalance.step(loss_list), a method of a class "
        "that is not an optimizer, whose .grad reads are not tied to the part optimizers"
    ),
    "torch_rechub_mtl_trainer.py::delete@276": (
        "the per-task backwards run inside MetaBalance.step(loss_list), a method of a class "
        "that is not an optimizer, whose .grad reads are not tied to the part optimizers"
    ),
    "cyclegan_pix2pix_cycle_gan_model.py::delete@119": (
        "the generators' backward is in a helper method (self.backward_G) and the loop that "
        "calls optimize_parameters is in another file"
    ),
    "cyclegan_pix2pix_cycle_gan_model.py::delete@124": (
        "the discriminators' backwards are in helper methods (self.backward_D_A/B) and the loop "
        "that calls optimize_parameters is in another file"
    ),
    "d2l_torch_from_scratch.py::delete@195": f"train_batch_ch13 {_CALLED_FROM_NOTEBOOKS}",
    "d2l_torch_from_scratch.py::delete@212": f"update_D {_CALLED_FROM_NOTEBOOKS}",
    "d2l_torch_from_scratch.py::delete@230": f"update_G {_CALLED_FROM_NOTEBOOKS}",
    "a2c_acktr_ikostrikov.py::delete@71": (
        "self.optimizer is a KFACOptimizer (imported) or RMSprop depending on a flag: "
        + _UNKNOWN_OPTIMIZER.replace("of unknown type", "of partly unknown type")
    ),
    "td3_fujimoto.py::delete@133": "TD3.train is called once per update from main.py, not here",
    "td3_fujimoto.py::delete@144": "TD3.train is called once per update from main.py, not here",
}


def expected_findings(source: str) -> set[tuple[int, str]]:
    """The ``(line, code)`` pairs marked with ``# expect:`` comments."""
    return set(expected(source))


# The options the command line analyses with: the built-in plugins' contributions
# (ignite's Engine, Trainer subclasses, ...) merged into the defaults.
CLI_OPTIONS = builtin_options()


def actual_findings(source: str) -> set[tuple[int, str]]:
    return {(finding.line, finding.code) for finding in analyze_source(source, CLI_OPTIONS)}


@cache
def findings_of_file(path: Path) -> frozenset[tuple[int, str]]:
    """Findings on an unmodified corpus file (computed once per test process)."""
    return frozenset(actual_findings(path.read_text(encoding="utf-8")))


def _corpus_params() -> list:
    params = []
    for path in CORPUS_FILES:
        marks = []
        if path.name in KNOWN_GAPS:
            marks.append(pytest.mark.xfail(strict=True, reason=KNOWN_GAPS[path.name]))
        params.append(pytest.param(path, id=path.name, marks=marks))
    return params


@pytest.mark.parametrize("path", _corpus_params())
def test_findings_match_marks(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    assert findings_of_file(path) == expected_findings(source)


def test_corpus_shape() -> None:
    """Enough files; every bug/fix pair complete, marked on the buggy side only."""
    assert len(CORPUS_FILES) >= 25
    buggy = [p for p in CORPUS_FILES if p.name.endswith("__buggy.py")]
    assert len(buggy) >= 5
    for path in buggy:
        fixed = path.with_name(path.name.replace("__buggy.py", "__fixed.py"))
        assert expected_findings(path.read_text(encoding="utf-8")), path.name
        assert not expected_findings(fixed.read_text(encoding="utf-8")), fixed.name


def test_first_line_names_the_source() -> None:
    for path in CORPUS_FILES:
        first = path.read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith("# Source:"), path.name


def _clean_files() -> list[Path]:
    return [p for p in CORPUS_FILES if not expected_findings(p.read_text(encoding="utf-8"))]


@cache
def _mutant_params() -> list:
    """Built once per process: collection and ``test_enough_injected_bugs`` share it."""
    params = []
    for path in _clean_files():
        for mutant in inject.mutants(path.read_text(encoding="utf-8")):
            key = f"{path.name}::{mutant.ident}"
            marks = []
            if key in KNOWN_MISSED_MUTANTS:
                marks.append(pytest.mark.xfail(strict=True, reason=KNOWN_MISSED_MUTANTS[key]))
            params.append(pytest.param(path, mutant, id=key, marks=marks))
    return params


@pytest.mark.parametrize(("path", "mutant"), _mutant_params())
def test_injected_bug_is_caught(path: Path, mutant) -> None:
    if findings_of_file(path):
        # The false positive already fails test_findings_match_marks for this file;
        # an injected bug only counts as caught when the file was clean before.
        pytest.skip("not clean before injection: mutants of this file are not counted")
    codes = {code for _, code in actual_findings(mutant.source)}
    assert mutant.expected in codes


def test_enough_injected_bugs() -> None:
    assert len(_mutant_params()) >= 80


# The injector itself: what it mutates and, as importantly, what it leaves alone.

_PLAIN_LOOP = """\
for x in data:
    optimizer.zero_grad()
    loss = model(x)
    loss.backward()
    optimizer.step()
"""


def test_injector_deletes_and_moves_a_clear() -> None:
    by_kind = {m.kind: m for m in inject.mutants(_PLAIN_LOOP)}
    assert by_kind["delete"].source.splitlines()[1].strip() == "pass"
    moved = [line.strip() for line in by_kind["move"].source.splitlines()]
    assert moved[1:] == [
        "pass",
        "loss = model(x)",
        "loss.backward()",
        "optimizer.zero_grad()",
        "optimizer.step()",
    ]


def test_injector_keeps_a_clear_that_another_clear_covers() -> None:
    source = "optimizer.zero_grad()\n" + _PLAIN_LOOP
    assert [m.kind for m in inject.mutants(source)] == ["move", "move"]


def test_injector_deletes_clears_in_exclusive_if_arms() -> None:
    source = """\
for x in data:
    if amp:
        optimizer.zero_grad()
        scaler.scale(model(x)).backward()
        scaler.step(optimizer)
    else:
        optimizer.zero_grad()
        model(x).backward()
        optimizer.step()
"""
    assert sorted(m.ident for m in inject.mutants(source)) == [
        "delete@3",
        "delete@7",
        "move@3",
        "move@7",
    ]


def test_injector_respects_no_inject_comments_and_closures() -> None:
    source = """\
for x in data:
    def closure():
        optimizer.zero_grad()  # no-inject: for the test
        loss = model(x)
        loss.backward()
        return loss
    optimizer.step(closure)
"""
    assert inject.mutants(source) == []


def test_injector_does_not_move_a_clear_before_a_closure_step() -> None:
    """A closure defined before the step runs its backward inside ``step(closure=...)``:
    moving the clear after the step to just before it keeps it before the backward, so
    it is no ZG102 and no mutant (lightning_test_manual_optimization.py had one)."""
    source = """\
for x in data:
    def closure():
        loss = model(x)
        loss.backward()
        return loss
    optimizer.step(closure=closure)
    optimizer.zero_grad()
"""
    assert [m.kind for m in inject.mutants(source)] == ["delete"]
