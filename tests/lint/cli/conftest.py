from cli_helpers import lint  # noqa: F401  (the fixture, for every test in this folder)
