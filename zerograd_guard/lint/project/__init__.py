"""Project mode: the files of one run analysed as one program.

* ``layout`` — the module names a file can be imported as (packages, ``src/`` layouts,
  the nearest ``pyproject.toml``, namespace packages).
* ``index`` — one cheap pass per file with the C ``ast`` parser: what a module defines
  and imports, and which of its definitions may touch gradients.
* ``graph`` — the run's modules together: import resolution (aliases, relative imports,
  re-exports, cycles bounded) and the per-file ``ProjectContext`` a task carries.
* ``session`` — the index installed once per process (in-process and in every worker).
* ``external`` — the seam into the analysis: a call that resolves to a function or class
  of another linted module gets that module's event model (built once, cached).
* ``places`` — where an event of another module is reported in the linted file.
"""
