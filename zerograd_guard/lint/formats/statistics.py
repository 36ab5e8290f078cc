"""``--statistics``: one line per code with its count, most frequent first."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from zerograd_guard.lint.runner import Reported


def render(items: Sequence[Reported], names: Mapping[str, str]) -> str:
    counts = Counter(item.code for item in items)
    fixable = Counter(item.code for item in items if item.fix is not None and item.fix.safe)
    lines = []
    for code, count in sorted(counts.items(), key=lambda pair: (-pair[1], pair[0])):
        mark = "[*]" if fixable[code] else "[ ]"
        lines.append(f"{count:>5}\t{code}\t{mark} {names.get(code, '')}".rstrip() + "\n")
    return "".join(lines)
