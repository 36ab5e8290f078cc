"""Plugins registered in-process: extra call names and extra rules."""

from __future__ import annotations

from collections.abc import Iterable

from cli_helpers import BUGGY, write

from zerograd_guard.lint.findings import Finding
from zerograd_guard.lint.plugins import hookimpl
from zerograd_guard.lint.plugins.manager import load
from zerograd_guard.lint.rules.base import Rule

CUSTOM_CLEAR = BUGGY.replace(
    "        loss = torch.nn", "        wipe_gradients()\n        loss = torch.nn"
)


class WipeGradientsPlugin:
    @hookimpl
    def zerograd_guard_clear_calls(self) -> Iterable[str]:
        return ["wipe_gradients"]


class NoPrintInLoops(Rule):
    """A toy plugin rule: it reports line 1 of any file mentioning ``print(``."""

    code = "XP001"
    name = "toy-print"
    summary = "A toy plugin rule."
    explanation = "Reports files that print."

    def check(self, model: object) -> Iterable[Finding]:
        source = getattr(model, "source", "")
        if "print(" in source:
            yield Finding(self.code, "prints", 1, 1, 1, 2)


class RulePlugin:
    @hookimpl
    def zerograd_guard_rules(self) -> Iterable[type[Rule]]:
        return [NoPrintInLoops]


def test_plugin_clear_call_reaches_the_analysis(tmp_path, lint):
    write(tmp_path, "custom.py", CUSTOM_CLEAR)
    assert lint("custom.py").code == 1
    assert lint("custom.py", plugins=(WipeGradientsPlugin(),)).code == 0


def test_plugin_rules_are_selectable_and_explained(tmp_path, lint):
    plugins = (RulePlugin(),)
    result = lint("--explain", "XP001", plugins=plugins)
    assert result.code == 0 and "toy-print" in result.out
    write(tmp_path, "loud.py", BUGGY + "print('done')\n")
    result = lint("--select", "XP", "loud.py", plugins=plugins)
    assert result.code == 1
    assert result.out.startswith("loud.py:1:1: XP001 prints")
    assert "ZG101" not in result.out
    assert "ZG101" in lint("loud.py", plugins=plugins).out
    assert lint("--select", "XP", "loud.py").code == 2  # unknown without the plugin


def test_contributions_are_merged():
    contributions = load([WipeGradientsPlugin(), RulePlugin()], entry_points=False)
    assert contributions.clear_calls == frozenset({"wipe_gradients"})
    assert contributions.rules == (NoPrintInLoops,)


def test_a_broken_plugin_is_a_one_line_error(tmp_path, lint):
    class Broken:
        @hookimpl
        def zerograd_guard_step_calls(self) -> Iterable[str]:
            raise RuntimeError("boom\nsecond line")

    write(tmp_path, "bad.py", BUGGY)
    result = lint("bad.py", plugins=(Broken(),))
    assert result.code == 2
    assert result.err == "error: a plugin failed: RuntimeError: boom second line\n"


def test_entry_point_plugins_are_loaded(tmp_path, lint, monkeypatch):
    """A package installed with a ``zerograd_guard`` entry point is picked up by itself."""
    site = tmp_path / "site"
    write(
        site,
        "acme_zg_plugin.py",
        "from zerograd_guard.lint.plugins import hookimpl\n\n\n"
        "@hookimpl\ndef zerograd_guard_clear_calls():\n    return ['wipe_gradients']\n",
    )
    write(
        site,
        "acme_zg_plugin-1.0.dist-info/METADATA",
        "Metadata-Version: 2.1\nName: acme-zg-plugin\nVersion: 1.0\n",
    )
    write(
        site,
        "acme_zg_plugin-1.0.dist-info/entry_points.txt",
        "[zerograd_guard]\nacme = acme_zg_plugin\n",
    )
    monkeypatch.syspath_prepend(str(site))
    write(tmp_path, "custom.py", CUSTOM_CLEAR)
    assert lint("custom.py").code == 0
    assert lint("--no-plugins", "custom.py").code == 1
