from project_helpers import findings  # noqa: F401  (the fixture, for every test here)
