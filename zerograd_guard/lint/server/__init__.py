"""``zerograd-lint server``: the linter as a language server (LSP over stdio, on pygls).

Diagnostics on open, change and save of Python files and Jupyter notebooks (LSP 3.17
notebook document sync), code actions for the fixes and for adding a ``# noqa``, the
configuration found as the command line finds it. Needs the ``[lsp]`` extra; never
imports torch.
"""
