"""How many examples each property test runs.

The default keeps the suite fast; ``ZEROGRAD_FUZZ_EXAMPLES=20000`` (say) runs a long
campaign with the same tests::

    ZEROGRAD_FUZZ_EXAMPLES=20000 .venv/bin/pytest tests/lint/hardening -p no:randomly -q
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings


def fuzz_settings(default: int) -> settings:
    """``default`` examples unless ``ZEROGRAD_FUZZ_EXAMPLES`` says otherwise; no deadline
    (the machine is shared), no example database (runs stay independent). The default run
    is derandomized, so CI sees the same examples every time; a long run explores."""
    budget = os.environ.get("ZEROGRAD_FUZZ_EXAMPLES")
    return settings(
        max_examples=int(budget) if budget else default,
        derandomize=not budget,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
