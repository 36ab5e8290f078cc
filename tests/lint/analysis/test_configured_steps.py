"""``extend-step-calls`` names: which optimizer a configured step call steps, and fixes
that only ever name an optimizer."""

from __future__ import annotations

from zerograd_guard.lint.analyze import analyze_source
from zerograd_guard.lint.options import AnalysisOptions

OPTIONS = AnalysisOptions(extra_step_calls=frozenset({"apply_update"}))
HEADER = (
    "import torch\n"
    "model = torch.nn.Linear(3, 1)\n"
    "optimizer = torch.optim.SGD(model.parameters(), lr=0.1)\n"
)


def _codes(body: str) -> list[tuple[int, str]]:
    return [(f.line, f.code) for f in analyze_source(HEADER + body, OPTIONS)]


def test_function_form_steps_the_optimizer_it_is_handed() -> None:
    clean = "for x in loader:\n    optimizer.zero_grad()\n    model(x).sum().backward()\n"
    assert _codes(clean + "    apply_update(optimizer)\n") == []
    assert _codes(clean + "    apply_update(optimizer=optimizer)\n") == []


def test_function_form_without_clear_is_fixed_on_the_optimizer() -> None:
    source = (
        HEADER + "for x in loader:\n    model(x).sum().backward()\n    apply_update(optimizer)\n"
    )
    [finding] = analyze_source(source, OPTIONS)
    assert (finding.line, finding.code) == (5, "ZG101")
    assert finding.fix is not None
    [edit] = finding.fix.edits
    assert edit.content.strip() == "optimizer.zero_grad()"
    assert "apply_update.zero_grad" not in finding.message


def test_method_form_without_an_optimizer_argument_is_no_false_positive() -> None:
    body = (
        "trainer = Trainer(model, optimizer)\n"
        "for x in loader:\n"
        "    optimizer.zero_grad()\n"
        "    model(x).sum().backward()\n"
        "    trainer.apply_update()\n"
    )
    assert _codes(body) == []


def test_unresolved_step_reports_without_a_fix_naming_a_non_optimizer() -> None:
    source = "for b in loader:\n    model(b).sum().backward()\n    trainer.apply_update()\n"
    [finding] = analyze_source(source, OPTIONS)
    assert (finding.line, finding.code) == (2, "ZG101")
    assert finding.fix is None
    assert "trainer.zero_grad" not in finding.message
