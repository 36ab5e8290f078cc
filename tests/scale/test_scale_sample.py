"""CI's bounded slice of the scale run (``run_scale.py`` lints everything; see its doc):
a fixed sample of the standard library and the installed packages through the real
command line, with no internal error, no traceback and a clean exit code."""

from __future__ import annotations

from pathlib import Path

from run_scale import deterministic_sample, library_roots, lint_files, python_files

SAMPLE_SIZE = 300
MAX_BYTES = 60_000  # keeps the sample under the time budget on two shared cores


def test_sample_of_installed_code_lints_without_internal_errors():
    files = python_files(library_roots())
    assert len(files) > 5_000  # the stdlib alone has about 1,800 files
    sample = deterministic_sample(files, SAMPLE_SIZE, MAX_BYTES)
    assert len(sample) == SAMPLE_SIZE
    assert sample == deterministic_sample(files, SAMPLE_SIZE, MAX_BYTES)  # deterministic
    report = lint_files(sample, jobs=1)
    assert report.crashes == []
    assert report.exit_code in (0, 1, 2)
    assert report.exit_code == 2 or not report.parse_errors
    linted = {path.resolve() for path in sample}
    for line in report.parse_errors:  # one line per bad file, naming it
        assert Path(line.split(": error: ")[0]).resolve() in linted, line
