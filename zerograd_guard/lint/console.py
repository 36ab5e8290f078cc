"""Where the report goes and whether it is coloured (``-o``, ``--color``, ``FORCE_COLOR``)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TextIO

COLOR_CHOICES = ("auto", "always", "never")


def use_colour(choice: str, stream: TextIO, environ: Mapping[str, str] | None = None) -> bool:
    """``--color always|never`` decides; ``auto``: ``FORCE_COLOR`` (non-empty) turns colour
    on, ``NO_COLOR`` (non-empty) off, else colour when ``stream`` is a terminal."""
    if choice == "always":
        return True
    if choice == "never":
        return False
    env = os.environ if environ is None else environ
    if env.get("FORCE_COLOR"):
        return True
    if env.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())
