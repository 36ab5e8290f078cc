"""pytest plugin entry point (being built: see the runtime guard issue)."""
