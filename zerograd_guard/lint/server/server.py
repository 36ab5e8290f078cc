"""The language server: documents in, diagnostics and code actions out."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from zerograd_guard._version import __version__
from zerograd_guard.lint.runner import Reported
from zerograd_guard.lint.server.convert import diagnostic, noqa_edit, overlaps, text_edit
from zerograd_guard.lint.server.linting import BufferLinter, CellText, notebook_json

PYTHON_SUFFIXES = (".py", ".pyi")
_NEWLINE = re.compile(r"\r\n|\r|\n")


def split_lines(text: str) -> list[str]:
    """Lines as Python (and LSP) count them: broken only at ``\\r\\n``, ``\\r``, ``\\n``."""
    return _NEWLINE.split(text)


@dataclass
class _Linted:
    """The last lint of one document (a file, or a notebook's cells)."""

    items: list[Reported] = field(default_factory=list)
    # Where each finding lives: the document URI and its lines; for notebooks, per cell.
    targets: dict[int | None, tuple[str, list[str]]] = field(default_factory=dict)


class ZerogradServer(LanguageServer):
    def __init__(self, linter: BufferLinter) -> None:
        super().__init__(
            "zerograd-lint",
            __version__,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            notebook_document_sync=types.NotebookDocumentSyncOptions(
                notebook_selector=[
                    types.NotebookDocumentFilterWithCells(
                        notebook="jupyter-notebook",
                        cells=[types.NotebookCellLanguage(language="python")],
                    )
                ],
                save=True,
            ),
        )
        self.linter = linter
        self.levels: dict[str, str] = {}
        self.linted: dict[str, _Linted] = {}  # document (or notebook) URI -> last lint

    # --- linting ----------------------------------------------------------------

    def _log(self, message: str, kind: types.MessageType = types.MessageType.Warning) -> None:
        self.window_log_message(types.LogMessageParams(type=kind, message=message))

    def _run(self, uri: str, data: bytes, suffix: str) -> list[Reported] | None:
        path = Path(to_fs_path(uri) or f"untitled{suffix}")
        if path.suffix != suffix:
            path = path.with_suffix(suffix)
        outcome = self.linter.lint(path, data)
        if outcome.problem is not None:
            self._log(f"zerograd-lint: {outcome.problem}")
            return None
        result = outcome.result
        assert result is not None
        if result.error:
            self._log(f"zerograd-lint: {uri}: {result.error}", types.MessageType.Info)
        return result.reported

    def lint_text_document(self, uri: str) -> None:
        document = self.workspace.get_text_document(uri)
        items = self._run(uri, document.source.encode("utf-8", "surrogatepass"), ".py")
        lines = split_lines(document.source)
        linted = _Linted(items or [], {None: (uri, lines)})
        self.linted[uri] = linted
        self._publish(uri, [diagnostic(i, lines, self._level(i)) for i in linted.items])

    def lint_notebook(self, notebook_uri: str) -> None:
        notebook = self.workspace.get_notebook_document(notebook_uri=notebook_uri)
        if notebook is None:
            return
        cells: list[CellText] = []
        targets: dict[int | None, tuple[str, list[str]]] = {}
        for index, cell in enumerate(notebook.cells, start=1):
            text = self.workspace.get_text_document(cell.document).source
            kind = "code" if cell.kind == types.NotebookCellKind.Code else "markdown"
            cells.append((kind, text))
            targets[index] = (cell.document, split_lines(text))
        items = self._run(notebook_uri, notebook_json(cells), ".ipynb") or []
        self.linted[notebook_uri] = _Linted(items, targets)
        by_cell: dict[str, list[types.Diagnostic]] = {uri: [] for uri, _ in targets.values()}
        for item in items:
            target = targets.get(item.cell)
            if target is not None:
                by_cell[target[0]].append(diagnostic(item, target[1], self._level(item)))
        for cell_uri, diagnostics in by_cell.items():
            self._publish(cell_uri, diagnostics)

    def lint_document(self, uri: str) -> None:
        """Lint a text document, or the notebook it is a cell of."""
        notebook = self.workspace.get_notebook_document(cell_uri=uri)
        if notebook is not None:
            self.lint_notebook(notebook.uri)
        elif uri.endswith(PYTHON_SUFFIXES) or self._is_python(uri):
            self.lint_text_document(uri)

    def _is_python(self, uri: str) -> bool:
        document = self.workspace.get_text_document(uri)
        return document.language_id == "python"

    def _level(self, item: Reported) -> str:
        return self.levels.get(item.code, "error")

    def _publish(self, uri: str, diagnostics: list[types.Diagnostic]) -> None:
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics)
        )

    # --- code actions -------------------------------------------------------------

    def code_actions(self, uri: str, wanted: types.Range) -> list[types.CodeAction]:
        notebook = self.workspace.get_notebook_document(cell_uri=uri)
        linted = self.linted.get(notebook.uri if notebook is not None else uri)
        if linted is None:
            return []
        actions: list[types.CodeAction] = []
        for item in linted.items:
            target = linted.targets.get(item.cell)
            if target is None or target[0] != uri:
                continue
            found = diagnostic(item, target[1], self._level(item))
            if not overlaps(found.range, wanted):
                continue
            actions.extend(self._actions_for(item, found, linted))
        return actions

    def _actions_for(
        self, item: Reported, found: types.Diagnostic, linted: _Linted
    ) -> list[types.CodeAction]:
        actions = []
        if item.fix is not None and item.fix_edits:
            changes: dict[str, list[types.TextEdit]] = {}
            for edit in item.fix_edits:
                target = linted.targets.get(edit.cell)
                if target is None:
                    break
                changes.setdefault(target[0], []).append(text_edit(edit, target[1]))
            else:
                unsafe = "" if item.fix.safe else " (unsafe)"
                actions.append(
                    types.CodeAction(
                        title=f"{item.code}: {item.fix.description}{unsafe}",
                        kind=types.CodeActionKind.QuickFix,
                        diagnostics=[found],
                        is_preferred=item.fix.safe,
                        edit=types.WorkspaceEdit(changes=changes),
                    )
                )
        uri, lines = linted.targets[item.cell]
        noqa = noqa_edit(item, lines)
        if noqa is not None:
            actions.append(
                types.CodeAction(
                    title=f"{item.code}: add `# noqa: {item.code}` on this line",
                    kind=types.CodeActionKind.QuickFix,
                    diagnostics=[found],
                    edit=types.WorkspaceEdit(changes={uri: [noqa]}),
                )
            )
        return actions


def build_server(plugins: Sequence[object] = (), entry_points: bool = True) -> ZerogradServer:
    """A server with its handlers registered."""
    linter = BufferLinter(plugins, entry_points)
    server = ZerogradServer(linter)
    from zerograd_guard.lint.rules import BUILTIN_RULES

    server.levels = {rule.code: rule.level for rule in BUILTIN_RULES}

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: ZerogradServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.lint_document(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: ZerogradServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.lint_document(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: ZerogradServer, params: types.DidSaveTextDocumentParams) -> None:
        ls.lint_document(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: ZerogradServer, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        if ls.linted.pop(uri, None) is not None:
            ls._publish(uri, [])

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_OPEN)
    def notebook_open(ls: ZerogradServer, params: types.DidOpenNotebookDocumentParams) -> None:
        ls.lint_notebook(params.notebook_document.uri)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
    def notebook_change(ls: ZerogradServer, params: types.DidChangeNotebookDocumentParams) -> None:
        ls.lint_notebook(params.notebook_document.uri)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_SAVE)
    def notebook_save(ls: ZerogradServer, params: types.DidSaveNotebookDocumentParams) -> None:
        ls.lint_notebook(params.notebook_document.uri)

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]),
    )
    def code_action(ls: ZerogradServer, params: types.CodeActionParams) -> list[types.CodeAction]:
        return ls.code_actions(params.text_document.uri, params.range)

    return server
