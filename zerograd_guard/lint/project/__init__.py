"""Project mode: the files of one run analysed as one program.

* ``layout`` — the module names a file can be imported as (packages, ``src/`` layouts,
  the nearest ``pyproject.toml``, namespace packages).
* ``index`` — one cheap pass per file with the C ``ast`` parser: what a module defines
  and imports; and, read only when asked, what one of its definitions says of gradients
  (``Marks``) and which names it refers to (``Links``).
* ``sources`` — the text a file is indexed from, read again only while unchanged.
* ``build`` — the index of a run (in workers for a large one), and its cache.
* ``graph`` — the run's modules together: import resolution (aliases, relative imports,
  re-exports, cycles bounded), what a definition may reach within the calls the analysis
  follows, and the per-file ``ProjectContext`` a task carries.
* ``seeds`` — which uses of the analysed file's imports may reach a backward elsewhere
  (the fast path keeps the statements that hold them).
* ``session`` — the index installed once per process (in-process and in every worker).
* ``external`` — the seam into the analysis: a call that resolves to a function or class
  of another linted module gets that module's event model (built once, cached).
* ``places`` — where an event of another module is reported in the linted file.
"""
