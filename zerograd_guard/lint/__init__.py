"""The static half: ``zerograd-lint``, a libcst flow analyzer. Never imports torch.

The analysis model (each folder has one job):

* ``findings`` — what the analysis reports (``Finding``, ``Fix``, ``Edit``).
* ``options`` — what the analysis can be told (extra call names, engines).
* ``model/`` — the event model: backward, clear, step and the calls that may hold them.
* ``extract/`` — syntax tree -> events.
* ``flow/`` — the flow check over each function's control flow.
* ``rules/`` — ZG1xx rules reading the model; each carries its own examples.
* ``fixes/`` — the edits that repair a finding.
* ``analyze`` — ``analyze_source()``, the one entry point that ties them together.

Around the model:

* ``cli`` / ``__main__`` — ``zerograd-lint``; ``runner`` — the per-file pipeline and process pool.
* ``config`` — ``[tool.zerograd-guard]``; ``selection`` — select/ignore/per-file-ignores.
* ``discovery`` — which files to lint; ``sourcefile`` — decoding and atomic writes.
* ``noqa`` — suppressions; ``notebooks`` — ``.ipynb`` cells in and out.
* ``prefilter`` — which texts need parsing at all; ``cache`` — per-file result cache;
  ``fixes_apply`` — applying edits safely.
* ``formats/`` — text, json, sarif, github, statistics; ``rule_docs`` — rule pages.
* ``plugins/`` — pluggy hooks for third-party patterns and rules.
"""
