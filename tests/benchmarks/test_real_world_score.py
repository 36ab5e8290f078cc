"""benchmarks/real_world_score.py: what it counts, and that it reads marks like the corpus test."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "real_world_score.py"


def _load(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


score = _load(SCRIPT, "zerograd_real_world_score")

# A loop that never clears: the analyzer reports ZG101 at the backward (line 6).
# The backward is marked with the wrong code and a silent line is marked too.
_NEVER_CLEARS = """\
import torch

optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for x in data:
    loss = model(x)
    loss.backward()  # expect: ZG103
    optimizer.step()  # expect: ZG102
"""


def test_counts_pairs_per_code_and_lines_alone(tmp_path: Path) -> None:
    path = tmp_path / "never_clears.py"
    path.write_text(_NEVER_CLEARS, encoding="utf-8")
    result = score.summary([score.score_file(path)])
    assert result["overall"] == {"tp": 0, "fp": 1, "fn": 2, "precision": 0.0, "recall": 0.0}
    assert result["per_code"]["ZG101"]["fp"] == 1
    assert result["per_code"]["ZG103"]["fn"] == 1
    # Ignoring the code, the backward's line is found; the step's line is missed.
    assert result["line_only"] == {"tp": 1, "fp": 0, "fn": 1, "precision": 1.0, "recall": 0.5}
    assert result["files"][0]["false_positives"] == [(6, "ZG101")]


def test_unparsable_file_counts_its_marks_as_missed(tmp_path: Path) -> None:
    path = tmp_path / "broken.py"
    path.write_text("loss.backward(  # expect: ZG101\n", encoding="utf-8")
    result = score.summary([score.score_file(path)])
    assert result["overall"]["fn"] == 1
    assert "syntax error" in result["files"][0]["error"]


def test_marks_are_read_like_the_corpus_test() -> None:
    corpus_test = _load(ROOT / "tests" / "lint" / "test_real_world.py", "zerograd_rw_for_score")
    for path in score.corpus_files():
        source = path.read_text(encoding="utf-8")
        assert score.expected_findings(source) == corpus_test.expected_findings(source), path.name


def test_cli_json_and_unreadable_file(tmp_path: Path) -> None:
    good = tmp_path / "never_clears.py"
    good.write_text(_NEVER_CLEARS, encoding="utf-8")
    missing = tmp_path / "missing.py"
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--json", str(good), str(missing)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "missing.py" in done.stderr
    result = json.loads(done.stdout)
    assert [row["file"] for row in result["files"]] == ["never_clears.py"]
