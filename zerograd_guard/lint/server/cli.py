"""``zerograd-lint server [--no-plugins]``: start the language server on stdin/stdout."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def main(argv: Sequence[str] = ()) -> int:
    parser = argparse.ArgumentParser(
        prog="zerograd-lint server", description="the zerograd-lint language server (stdio)"
    )
    parser.add_argument(
        "--no-plugins", action="store_true", help="do not load plugins from installed packages"
    )
    try:
        args = parser.parse_args(list(argv))
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 2
    try:
        from zerograd_guard.lint.server.server import build_server
    except ImportError as exc:
        sys.stderr.write(
            f"error: the language server needs pygls and lsprotocol (pip install "
            f"'pygls>=2.0' 'lsprotocol>=2024.0', or the [lsp] extra of a checkout: "
            f"pip install './zerograd-guard[lsp]'): {exc}\n"
        )
        return 2
    build_server(entry_points=not args.no_plugins).start_io()
    return 0
