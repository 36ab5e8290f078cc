"""The static half: ``zerograd-lint``, a libcst flow analyzer. Never imports torch.

Layout (each folder has one job):

* ``findings`` — what the analysis reports (``Finding``, ``Fix``, ``Edit``).
* ``options`` — what the analysis can be told (extra call names, engines).
* ``model/`` — the event model: backward, clear, step and the calls that may hold them.
* ``extract/`` — syntax tree -> events.
* ``flow/`` — the flow check over each function's control flow.
* ``rules/`` — ZG1xx rules reading the model; each carries its own examples.
* ``analyze`` — ``analyze_source()``, the one entry point that ties them together.
* ``cli``, ``config``, ``discovery``, ``noqa``, ``formats/``, ``cache``,
  ``notebooks``, ``fixes/``, ``plugins/`` — everything around the model.
"""
