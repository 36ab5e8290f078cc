"""Plain training functions for the engine integration tests.

Each module holds one engine's loop as an ordinary function taking a ``broken``
flag: ``broken=False`` is the engine's documented, correct usage; ``broken=True``
is the same loop with the gradient clear removed. The functions know nothing about
the guard, so the same code is run unguarded (a sanity check that the loop itself
works) and guarded (the guard must stay silent, or catch the bug).
"""
