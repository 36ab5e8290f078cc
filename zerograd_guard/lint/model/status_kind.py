"""``StatusKind``: what the flow check says an optimizer's gradients hold at a step (the
statuses themselves are in ``flow.state``). Rules read these kinds; importing them costs
no parser."""

from __future__ import annotations

from enum import Enum


class StatusKind(Enum):
    """What an optimizer's gradients hold at a point of a path (see ``flow.state``)."""

    ENTRY = "entry"
    UNKNOWN = "unknown"
    CLEARED = "cleared"
    FRESH = "fresh"
    CARRIED = "carried"
    DISCARDED = "discarded"
    REFILLED = "refilled"
    STALE = "stale"
    STALE_FRESH = "stale+fresh"
    FOREIGN = "foreign"
    FOREIGN_FRESH = "foreign+fresh"

    # members are singletons: identity hashing (Enum's own hashes the name, in Python)
    __hash__ = object.__hash__
