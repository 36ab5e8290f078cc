"""The docs' snippets work when pasted: pytest ini/TOML settings, configuration tables,
the GitHub workflow example, the pre-commit examples and the install lines."""

from __future__ import annotations

import contextlib
import json
import re
import shutil
from pathlib import Path

import jsonschema
import pytest
import yaml

from zerograd_guard.lint.cli import main as lint_main
from zerograd_guard.lint.config import TABLE, parse_table, tomllib

# The pytester runs below turn the guard on in this process, which imports torch, and
# pytester drops the modules a run imported when it ends; torch (numpy) cannot be
# imported a second time in one process, so import it before any snapshot is taken.
with contextlib.suppress(ImportError):
    import torch  # noqa: F401

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_BLOCK = re.compile(r"^```(\w+)\n(.*?)^```", re.MULTILINE | re.DOTALL)


def _blocks(language: str) -> list[tuple[str, str]]:
    found = []
    for path in DOCS:
        for lang, body in _BLOCK.findall(path.read_text(encoding="utf-8")):
            if lang == language:
                found.append((path.name, body))
    return found


def _mode_values(body: str) -> list[str]:
    return re.findall(r"^zerograd_guard\s*=\s*(.+)$", body, re.MULTILINE)


PYTEST_INI = [body for _, body in _blocks("ini") if "[pytest]" in body]
PYTEST_TOML = [body for _, body in _blocks("toml") if "[tool.pytest.ini_options]" in body]


def test_the_docs_have_the_pytest_snippets():
    assert PYTEST_INI and PYTEST_TOML


@pytest.mark.parametrize("body", PYTEST_INI)
def test_pytest_ini_snippets_work_pasted(pytester, monkeypatch, body):
    from zerograd_guard.pytest_plugin import _SESSION_KEY

    monkeypatch.delenv("ZEROGRAD_GUARD", raising=False)
    [value] = _mode_values(body)
    pytester.makefile(".ini", pytest=body)
    config = pytester.parseconfigure()
    assert config.stash[_SESSION_KEY]["mode"] == {"true": "error"}.get(value, value)


@pytest.mark.parametrize("body", PYTEST_TOML)
def test_pyproject_pytest_snippets_work_pasted(pytester, monkeypatch, body):
    from zerograd_guard.pytest_plugin import _SESSION_KEY

    monkeypatch.delenv("ZEROGRAD_GUARD", raising=False)
    [value] = _mode_values(body)
    pytester.makefile(".toml", pyproject=body)
    config = pytester.parseconfigure()
    assert config.stash[_SESSION_KEY]["mode"] == json.loads(value)


@pytest.mark.parametrize("body", [body for _, body in _blocks("toml") if f"[tool.{TABLE}" in body])
def test_configuration_snippets_are_valid_tables(tmp_path, body):
    data = tomllib.loads(body)
    parse_table(data["tool"][TABLE], tmp_path / "pyproject.toml")


def test_github_workflow_example_parses_installs_from_a_pin_and_its_lint_step_runs(
    tmp_path, monkeypatch, capsys
):
    path = ROOT / "docs" / "examples" / "zerograd-lint-workflow.yml"
    text = path.read_text(encoding="utf-8")
    assert text in (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
    workflow = yaml.safe_load(text)
    steps = workflow["jobs"]["lint"]["steps"]
    runs = [step["run"] for step in steps if "run" in step]
    assert "git+https://" in workflow["env"]["ZEROGRAD_GUARD"]
    assert "@<commit sha>" in workflow["env"]["ZEROGRAD_GUARD"]
    assert not any(re.search(r"pip install zerograd-guard\b", run) for run in runs)
    [lint] = [run for run in runs if run.startswith("zerograd-lint ")]
    upload = [step for step in steps if "upload-sarif" in step.get("uses", "")]
    [sarif_file] = [step["with"]["sarif_file"] for step in upload]
    assert workflow["permissions"]["security-events"] == "write"
    # Run the lint step as written, in a repository with a bug.
    shutil.copy(ROOT / "examples" / "buggy_missing_clear.py", tmp_path / "train.py")
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)
    assert lint_main(["--no-cache", *lint.split()[1:]]) == 0  # --exit-zero
    log = json.loads((tmp_path / sarif_file).read_text(encoding="utf-8"))
    schema_path = ROOT / "tests" / "lint" / "cli" / "data" / "sarif-schema-2.1.0.json"
    jsonschema.validate(log, json.loads(schema_path.read_text(encoding="utf-8")))
    assert (
        log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        == "train.py"
    )


def test_pre_commit_examples_pin_a_commit_and_name_the_shipped_hook():
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    ids = {hook["id"] for hook in hooks}
    snippets = [body for _, body in _blocks("yaml") if "repos:" in body]
    assert snippets
    for body in snippets:
        config = yaml.safe_load(body)
        for repo in config["repos"]:
            # No release tag exists yet: a rev must be a commit (a placeholder for one).
            assert repo["rev"] == "<commit sha>", repo
            assert {hook["id"] for hook in repo["hooks"]} <= ids


def test_no_doc_installs_from_an_index_the_package_is_not_on():
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"pip install (-U )?zerograd-guard(\[\w+\])?(\s|$|`)", text), path


def _schema() -> dict:
    path = ROOT / "zerograd_guard" / "lint" / "config.schema.json"
    return json.loads(path.read_text(encoding="utf-8"))


def test_config_schema_covers_exactly_the_keys_the_linter_reads():
    from zerograd_guard.lint.config import _KNOWN_KEYS

    schema = _schema()
    jsonschema.Draft7Validator.check_schema(schema)
    assert set(schema["properties"]) == set(_KNOWN_KEYS)


@pytest.mark.parametrize("body", [body for _, body in _blocks("toml") if f"[tool.{TABLE}" in body])
def test_config_schema_accepts_the_documented_tables(body):
    jsonschema.validate(tomllib.loads(body)["tool"][TABLE], _schema())


@pytest.mark.parametrize(
    "table",
    [{"selct": ["ZG101"]}, {"select": "ZG101"}, {"per-file-ignores": {"x.py": "ZG101"}}],
    ids=["misspelt-key", "string-not-list", "codes-not-list"],
)
def test_config_schema_rejects_what_the_linter_rejects(tmp_path, table):
    from zerograd_guard.lint.config import ConfigError

    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(table, _schema())
    with pytest.raises(ConfigError):
        parse_table(table, tmp_path / "pyproject.toml")


def test_generated_rule_pages_are_up_to_date():
    """docs/rules/ holds exactly what ``python -m zerograd_guard.lint.rule_docs docs`` writes."""
    from zerograd_guard.lint.rule_docs import rule_pages

    pages = rule_pages()
    on_disk = {
        path.relative_to(ROOT / "docs").as_posix()
        for path in (ROOT / "docs" / "rules").glob("*.md")
    }
    assert on_disk == set(pages), "run: python -m zerograd_guard.lint.rule_docs docs"
    for relative, text in pages.items():
        assert (ROOT / "docs" / relative).read_text(encoding="utf-8") == text, (
            f"docs/{relative} is out of date: run python -m zerograd_guard.lint.rule_docs docs"
        )


@pytest.mark.parametrize("code", ["ZG101", "ZG102", "ZG103", "ZG104"])
def test_rule_pages_say_runtime_settings_limitations_and_link_pytorch(code):
    text = (ROOT / "docs" / "rules" / f"{code.lower()}.md").read_text(encoding="utf-8")
    for heading in ("## At runtime", "## Settings", "## Limitations", "## PyTorch documentation"):
        assert heading in text, (code, heading)
    assert "torch.optim.Optimizer.zero_grad.html" in text
    assert "pytorch.org/docs/stable/notes/autograd.html" in text
    # Relative links to other docs pages resolve to existing pages.
    for target in re.findall(r"\]\(\.\./([\w\-]+\.md)", text):
        assert (ROOT / "docs" / target).is_file(), target


@pytest.mark.parametrize("where, body", _blocks("toml"), ids=lambda value: str(value)[:20])
def test_every_toml_snippet_is_valid_toml(where, body):
    tomllib.loads(body)  # the Helix and plugin entry-point snippets too


@pytest.mark.parametrize("where, body", _blocks("ini"), ids=lambda value: str(value)[:20])
def test_every_ini_snippet_is_a_pytest_ini_the_tests_above_paste(where, body):
    assert body in PYTEST_INI, f"{where}: an ini snippet no test pastes"


def test_no_error_message_sends_users_to_an_index_the_package_is_not_on():
    # The hints printed when torch or the language server's packages are missing.
    pattern = re.compile(r"pip install ['\"]?zerograd-guard\b")
    for path in sorted((ROOT / "zerograd_guard").rglob("*.py")):
        assert not pattern.search(path.read_text(encoding="utf-8")), path
