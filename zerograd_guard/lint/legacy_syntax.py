"""Python 3.6 syntax that later versions reject, masked so old training code parses.

Research code from PyTorch 0.3 / 0.4 moves tensors with ``x.cuda(async=True)``; ``async``
became a keyword in Python 3.7, so such a file is a syntax error today and would not be
checked at all. ``async`` used as a name before ``=`` (a keyword argument, an
assignment) is replaced by ``_sync``: the same length, so every offset, line and column
of the file stays where it was (findings, ``# noqa`` and fixes are those of the file as
written; a fix is applied to the unmasked text). Strings and comments are left alone.
"""

from __future__ import annotations

import io
import itertools
import re
import tokenize

# no leading ``\b``: it keeps ``re`` from its literal-prefix scan (2 s over the 104 MB
# repository set instead of 0.05 s); the character before is tested by hand
_CANDIDATE = re.compile(r"async\s*=(?!=)")
MASK = "_sync"


def _starts_a_name(text: str, offset: int) -> bool:
    return offset == 0 or not (text[offset - 1].isalnum() or text[offset - 1] == "_")


def mask_legacy_syntax(text: str) -> str:
    """``text`` with every ``async`` name before ``=`` replaced by ``_sync`` (``text``
    itself when there is none, or when it cannot be tokenized)."""
    if not any(_starts_a_name(text, match.start()) for match in _CANDIDATE.finditer(text)):
        return text
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError):
        return text
    starts = [0]
    starts.extend(match.end() for match in re.finditer("\n", text))  # readline's lines
    offsets = [
        starts[token.start[0] - 1] + token.start[1]
        for token, following in itertools.pairwise(tokens)
        if token.type == tokenize.NAME
        and token.string == "async"
        and following.type == tokenize.OP
        and following.string == "="
    ]
    if not offsets:
        return text
    parts = []
    previous = 0
    for offset in offsets:
        parts += [text[previous:offset], MASK]
        previous = offset + len(MASK)
    parts.append(text[previous:])
    return "".join(parts)
