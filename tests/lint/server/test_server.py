"""``zerograd-lint server`` end to end over stdio, driven by a real JSON-RPC client:
initialize, open a buggy document, get the diagnostic, apply a code action, see the
diagnostic go; notebooks (LSP 3.17 notebook sync); configuration discovery; bad config."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls")

from cli_helpers import BUGGY, BUGGY_COLUMN, BUGGY_LINE
from lsp_client import LspClient

ROOT = Path(__file__).resolve().parents[3]
DIAGNOSTICS = "textDocument/publishDiagnostics"


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("lsp-workspace")


@pytest.fixture(scope="module")
def client(workspace: Path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    lsp = LspClient(
        [sys.executable, "-m", "zerograd_guard.lint", "server", "--no-plugins"],
        cwd=str(workspace),
        env=env,
    )
    result = lsp.request(
        "initialize",
        {
            "processId": os.getpid(),
            "rootUri": workspace.as_uri(),
            "capabilities": {
                "textDocument": {"publishDiagnostics": {}, "codeAction": {}},
                "notebookDocument": {"synchronization": {}},
            },
        },
    )
    lsp.capabilities = result["capabilities"]
    lsp.notify("initialized", {})
    yield lsp
    lsp.close()


def _open(client: LspClient, path: Path, text: str) -> dict:
    uri = path.as_uri()
    client.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": text}},
    )
    return client.wait_for(DIAGNOSTICS, lambda params: params["uri"] == uri)


def _change(client: LspClient, path: Path, text: str, version: int) -> dict:
    uri = path.as_uri()
    client.notify(
        "textDocument/didChange",
        {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]},
    )
    return client.wait_for(DIAGNOSTICS, lambda params: params["uri"] == uri)


def _apply(text: str, edits: list[dict]) -> str:
    """Apply LSP text edits to ASCII text (UTF-16 units are characters there)."""
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(position: dict) -> int:
        return starts[position["line"]] + position["character"]

    for edit in sorted(edits, key=lambda e: offset(e["range"]["start"]), reverse=True):
        start, end = offset(edit["range"]["start"]), offset(edit["range"]["end"])
        text = text[:start] + edit["newText"] + text[end:]
    return text


def _actions(client: LspClient, uri: str, diagnostic: dict) -> list[dict]:
    return client.request(
        "textDocument/codeAction",
        {
            "textDocument": {"uri": uri},
            "range": diagnostic["range"],
            "context": {"diagnostics": [diagnostic]},
        },
    )


def test_capabilities(client):
    capabilities = client.capabilities
    assert capabilities["codeActionProvider"]
    assert capabilities["textDocumentSync"]
    assert capabilities["notebookDocumentSync"]["notebookSelector"]


def test_diagnostic_then_fix_action_clears_it(client, workspace):
    path = workspace / "train.py"
    published = _open(client, path, BUGGY)
    [diagnostic] = published["diagnostics"]
    assert diagnostic["code"] == "ZG101"
    assert diagnostic["source"] == "zerograd-lint"
    assert diagnostic["range"]["start"] == {"line": BUGGY_LINE - 1, "character": BUGGY_COLUMN - 1}
    assert diagnostic["codeDescription"]["href"].endswith("/rules/zg101/")
    # the message, then the finding's own fix hint on a second line (issue 16)
    message, hint = diagnostic["message"].split("\n")
    assert message.startswith("gradients are not cleared between optimizer steps: ")
    assert hint == f"Call `optimizer.zero_grad()` right after the step at line {BUGGY_LINE + 1}"
    actions = _actions(client, path.as_uri(), diagnostic)
    [fix] = [action for action in actions if "noqa" not in action["title"]]
    assert fix["kind"] == "quickfix" and fix["isPreferred"]
    fixed = _apply(BUGGY, fix["edit"]["changes"][path.as_uri()])
    assert fixed.count("optimizer.zero_grad()") == 1
    assert _change(client, path, fixed, 2)["diagnostics"] == []


def test_noqa_action_silences_the_line(client, workspace):
    path = workspace / "legacy.py"
    [diagnostic] = _open(client, path, BUGGY)["diagnostics"]
    [noqa] = [a for a in _actions(client, path.as_uri(), diagnostic) if "noqa" in a["title"]]
    edited = _apply(BUGGY, noqa["edit"]["changes"][path.as_uri()])
    assert edited.splitlines()[BUGGY_LINE - 1].endswith("loss.backward()  # noqa: ZG101")
    assert _change(client, path, edited, 2)["diagnostics"] == []


def test_save_and_close(client, workspace):
    path = workspace / "saved.py"
    assert len(_open(client, path, BUGGY)["diagnostics"]) == 1
    client.notify("textDocument/didSave", {"textDocument": {"uri": path.as_uri()}})
    again = client.wait_for(DIAGNOSTICS, lambda params: params["uri"] == path.as_uri())
    assert len(again["diagnostics"]) == 1
    client.notify("textDocument/didClose", {"textDocument": {"uri": path.as_uri()}})
    closed = client.wait_for(DIAGNOSTICS, lambda params: params["uri"] == path.as_uri())
    assert closed["diagnostics"] == []


def test_configuration_is_discovered_as_on_the_command_line(client, workspace):
    project = workspace / "quiet"
    project.mkdir()
    (project / "pyproject.toml").write_text('[tool.zerograd-guard]\nignore = ["ZG101"]\n')
    assert _open(client, project / "train.py", BUGGY)["diagnostics"] == []


def test_bad_configuration_is_logged_not_fatal(client, workspace):
    project = workspace / "broken"
    project.mkdir()
    (project / "pyproject.toml").write_text("[tool.zerograd-guard]\nselect = 5\n")
    published = _open(client, project / "train.py", BUGGY)
    assert published["diagnostics"] == []
    logged = [
        message["params"]["message"]
        for message in client.seen
        if message.get("method") == "window/logMessage"
    ]
    assert any("pyproject.toml: error:" in line and "select" in line for line in logged)
    # The server lives on.
    assert len(_open(client, workspace / "after.py", BUGGY)["diagnostics"]) == 1


def test_notebook_cells_get_their_own_diagnostics(client, workspace):
    notebook = (workspace / "train.ipynb").as_uri()
    cells = [
        ("markdown", "# Training\n"),
        ("code", "import torch\nmodel = torch.nn.Linear(4, 1)\n"),
        ("code", "optimizer = torch.optim.SGD(model.parameters(), lr=0.1)\n"),
        (
            "code",
            "for x, y in loader:\n"
            "    loss = torch.nn.functional.mse_loss(model(x), y)\n"
            "    loss.backward()\n"
            "    optimizer.step()\n",
        ),
    ]
    uris = [f"{notebook}#cell{index}" for index in range(len(cells))]
    client.notify(
        "notebookDocument/didOpen",
        {
            "notebookDocument": {
                "uri": notebook,
                "notebookType": "jupyter-notebook",
                "version": 1,
                "cells": [
                    {"kind": 2 if kind == "code" else 1, "document": uri}
                    for (kind, _), uri in zip(cells, uris, strict=True)
                ],
            },
            "cellTextDocuments": [
                {
                    "uri": uri,
                    "languageId": "python" if kind == "code" else "markdown",
                    "version": 1,
                    "text": text,
                }
                for (kind, text), uri in zip(cells, uris, strict=True)
            ],
        },
    )
    published = client.wait_for(DIAGNOSTICS, lambda params: params["uri"] == uris[3])
    [diagnostic] = published["diagnostics"]
    assert diagnostic["code"] == "ZG101"
    assert diagnostic["range"]["start"] == {"line": 2, "character": 4}
    [fix] = [a for a in _actions(client, uris[3], diagnostic) if "noqa" not in a["title"]]
    assert set(fix["edit"]["changes"]) == {uris[3]}
    fixed = _apply(cells[3][1], fix["edit"]["changes"][uris[3]])
    client.notify(
        "notebookDocument/didChange",
        {
            "notebookDocument": {"uri": notebook, "version": 2},
            "change": {
                "cells": {
                    "textContent": [
                        {
                            "document": {"uri": uris[3], "version": 2},
                            "changes": [{"text": fixed}],
                        }
                    ]
                }
            },
        },
    )
    after = client.wait_for(DIAGNOSTICS, lambda params: params["uri"] == uris[3])
    assert after["diagnostics"] == []


def test_the_server_never_imports_torch():
    code = (
        "import sys\n"
        "from zerograd_guard.lint.server.server import build_server\n"
        "build_server(entry_points=False)\n"
        "assert 'torch' not in sys.modules, 'torch imported'\n"
    )
    subprocess.run(
        [sys.executable, "-c", code], check=True, env={**os.environ, "PYTHONPATH": str(ROOT)}
    )
