"""``extract/positions.py`` subclasses libcst's private ``CodegenState`` (the public
metadata API regenerates the whole module for every position: several milliseconds a
file). pyproject pins libcst below 2; this test checks, on the installed libcst, that
the private route gives exactly the positions of the public ``PositionProvider``."""

from __future__ import annotations

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from zerograd_guard.lint.extract.positions import Positions

SOURCE = (
    "import torch\r\n"
    "\x0c\n"
    "def train(loader):\n"
    "    for x, y in loader:\n"
    "        loss = model(x).sum(); loss.backward()\n"
    "        if optimizer.step(\n"
    "                closure=None):\n"
    "            pass\n"
)


def test_codegen_positions_match_the_public_position_provider():
    wrapper = MetadataWrapper(cst.parse_module(SOURCE), unsafe_skip_copy=True)
    expected = wrapper.resolve(PositionProvider)
    calls = [node for node in expected if isinstance(node, (cst.Call, cst.SimpleStatementLine))]
    positions = Positions(wrapper.module, SOURCE)
    positions._generate(calls)  # the code-generation route, on every node
    for node in calls:
        span = positions.span(node)
        public = expected[node]
        if isinstance(node, cst.Call):
            assert (span.line, span.column) == (public.start.line, public.start.column + 1)
            assert (span.end_line, span.end_column) == (public.end.line, public.end.column + 1)
        else:  # a statement line's span is the whole line: indentation and newline
            assert (span.line, span.column) == (public.start.line, 1)
            assert span.indent == " " * public.start.column
            assert (span.end_line, span.end_column) == (public.end.line + 1, 1)
