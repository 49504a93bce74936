"""Pausing Python's cyclic garbage collector around work that allocates many objects
that live until it ends.

Why: the collector's older generations are traversed again and again while such work
runs (a simulated game, the pages of a forum thread being read), and none of that work
makes the cycles it exists to find in any number; reference counting frees almost
everything at once, and whatever cycles there are wait until the block is over. Used by
the simulator (a game, ``nightfall.sim.play``) and the forum readers (a page, a count,
``nightfall.forum``): a leaf module, so that neither imports the other.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector for the block (reference counting still frees
    almost everything at once); it is switched back on after the block only if it was on
    before, so nested or concurrent uses never leave it off for good. Results do not
    depend on it: nothing in a game or a count reads the collector."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


__all__ = ["gc_paused"]
