"""In Jupyter, sites name the cell (``In [5], line 3``), not ``ipykernel_<pid>/<hash>.py``.

IPython is not installed here: its shape is faked (``get_ipython().compile._filename_map``
maps a cell's code name to its execution count; the source sits in ``linecache``).
"""

from __future__ import annotations

import linecache
import sys
import types

import pytest
import torch

from zerograd_guard.runtime import GradientGuardError, guard
from zerograd_guard.runtime.sites import describe_site, site_record

CELL_NAME = "/tmp/ipykernel_4242/1234567890.py"
CELL = """\
model = torch.nn.Linear(3, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for _ in range(2):
    model(torch.ones(2, 3)).sum().backward()
    optimizer.step()
"""


@pytest.fixture
def fake_ipython(monkeypatch: pytest.MonkeyPatch) -> None:
    shell = types.SimpleNamespace(compile=types.SimpleNamespace(_filename_map={CELL_NAME: 5}))
    module = types.ModuleType("IPython")
    module.get_ipython = lambda: shell  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "IPython", module)
    lines = CELL.splitlines(keepends=True)
    monkeypatch.setitem(linecache.cache, CELL_NAME, (len(CELL), None, lines, CELL_NAME))


def test_a_cells_site_reads_in_n_line_m(fake_ipython: None) -> None:
    code = compile(CELL, CELL_NAME, "exec")
    assert describe_site((code, 4)) == "In [5], line 4  model(torch.ones(2, 3)).sum().backward()"
    assert site_record((code, 4))["cell"] == 5


def test_a_finding_in_a_cell_names_the_cell(fake_ipython: None) -> None:
    code = compile(CELL, CELL_NAME, "exec")
    with pytest.raises(GradientGuardError) as caught, guard():
        exec(code, {"torch": torch})
    rendered = str(caught.value)
    assert "step:       In [5], line 5  optimizer.step()" in rendered
    assert "backward:   In [5], line 4" in rendered
    assert "ipykernel_4242" not in rendered


def test_old_ipython_input_names_read_as_cells() -> None:
    name = "<ipython-input-7-0123abcd>"
    code = compile("x = 1\n", name, "exec")
    assert describe_site((code, 1)).startswith("In [7], line 1")


def test_a_plain_file_is_unchanged() -> None:
    code = compile("x = 1\n", "/tmp/not_a_cell.py", "exec")
    assert describe_site((code, 1)).endswith("not_a_cell.py:1")
    assert "cell" not in site_record((code, 1))
