"""``--format sarif`` validated against the official SARIF 2.1.0 schema (vendored)."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
from cli_helpers import BUGGY, BUGGY_COLUMN, BUGGY_LINE, write

SCHEMA = json.loads(
    (Path(__file__).parent / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8")
)


def _validate(log: dict) -> None:
    jsonschema.Draft4Validator(
        SCHEMA, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER
    ).validate(log)


def test_sarif_is_valid_and_complete(tmp_path, lint):
    write(tmp_path, "src/bad file.py", BUGGY)
    write(tmp_path, "broken.py", "loss.backward(\n")
    result = lint("--format", "sarif", ".")
    assert result.code == 2
    log = json.loads(result.out)
    _validate(log)
    assert log["version"] == "2.1.0" and log["$schema"].endswith("sarif-schema-2.1.0.json")
    [run] = log["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "zerograd-lint" and driver["informationUri"].startswith("https://")
    rule_ids = [rule["id"] for rule in driver["rules"]]
    assert "ZG101" in rule_ids
    for rule in driver["rules"]:
        assert rule["shortDescription"]["text"] and rule["fullDescription"]["text"]
        assert rule["help"]["text"] and rule["helpUri"].startswith("https://")
        assert rule["defaultConfiguration"]["level"] in ("error", "warning", "note")
    [finding] = run["results"]
    assert finding["ruleId"] == "ZG101" and finding["level"] == "error"
    assert rule_ids[finding["ruleIndex"]] == "ZG101"
    location = finding["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "src/bad%20file.py", "uriBaseId": "%SRCROOT%"}
    assert (location["region"]["startLine"], location["region"]["startColumn"]) == (
        BUGGY_LINE,
        BUGGY_COLUMN,
    )
    assert finding["partialFingerprints"]
    [invocation] = run["invocations"]
    assert invocation["executionSuccessful"] is False
    assert "broken.py" in json.dumps(invocation["toolExecutionNotifications"])


def test_fingerprints_survive_lines_added_above(tmp_path, lint):
    write(tmp_path, "bad.py", BUGGY)
    before = json.loads(lint("--format", "sarif", "bad.py").out)["runs"][0]["results"][0]
    write(tmp_path, "bad.py", "# a new comment\n\n" + BUGGY)
    after = json.loads(lint("--format", "sarif", "bad.py").out)["runs"][0]["results"][0]
    assert after["locations"] != before["locations"]
    assert after["partialFingerprints"] == before["partialFingerprints"]


def test_empty_sarif_is_valid(tmp_path, lint):
    write(tmp_path, "ok.py", "x = 1\n")
    log = json.loads(lint("--format", "sarif", "ok.py").out)
    _validate(log)
    assert log["runs"][0]["results"] == []


def test_schema_rejects_a_broken_log():
    try:
        _validate({"version": "2.1.0", "runs": [{"tool": {"driver": {}}}]})
    except jsonschema.ValidationError as error:
        assert "'name' is a required property" in error.message
    else:  # pragma: no cover - the schema must catch a driver without a name
        raise AssertionError("the vendored schema accepted an invalid log")


def test_uris_are_relative_to_the_repository_root(tmp_path, lint, monkeypatch):
    (tmp_path / ".git").mkdir()
    write(tmp_path, "services/train/pyproject.toml", "[tool.zerograd-lint]\n")
    write(tmp_path, "services/train/src/bad.py", BUGGY)
    monkeypatch.chdir(tmp_path / "services" / "train")
    log = json.loads(lint("--format", "sarif", "src").out)
    _validate(log)
    [run] = log["runs"]
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == tmp_path.as_uri() + "/"
    [finding] = run["results"]
    location = finding["locations"][0]["physicalLocation"]["artifactLocation"]
    assert location == {"uri": "services/train/src/bad.py", "uriBaseId": "%SRCROOT%"}


def test_without_git_the_project_root_is_the_base(tmp_path, lint, monkeypatch):
    write(tmp_path, "proj/pyproject.toml", "[tool.zerograd-lint]\n")
    write(tmp_path, "proj/pkg/bad.py", BUGGY)
    monkeypatch.chdir(tmp_path / "proj" / "pkg")
    log = json.loads(lint("--format", "sarif", "bad.py").out)
    [finding] = log["runs"][0]["results"]
    location = finding["locations"][0]["physicalLocation"]["artifactLocation"]
    assert location == {"uri": "pkg/bad.py", "uriBaseId": "%SRCROOT%"}
