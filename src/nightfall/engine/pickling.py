"""Pickling of the state's frozen records, the same in the interpreted and the compiled
build.

The state is pickled for snapshots, rollbacks and undo. A frozen dataclass is unpickled
by setting its fields one by one, which the frozen classes of the mypyc build
(``scripts/build_compiled.sh``) refuse; rebuilding the record through its constructor
works in both builds and reads pickles written by either. Pickles of earlier versions
hold the field values as a list (the dataclass's own format); :func:`restore` reads them,
in the compiled build too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from operator import attrgetter
from typing import Any

#: per record class, the function that reads its fields' values as a tuple (``fields()``
#: builds its answer anew on every call, and a state copy reduces thousands of records)
_GETTERS: dict[type, Callable[[Any], tuple[Any, ...]]] = {}


def _getter(cls: type, record: Any) -> Callable[[Any], tuple[Any, ...]]:
    names = tuple(f.name for f in fields(record))
    if len(names) == 1:
        one = attrgetter(names[0])
        getter: Callable[[Any], tuple[Any, ...]] = lambda r: (one(r),)  # noqa: E731
    elif names:
        getter = attrgetter(*names)
    else:
        getter = lambda r: ()  # noqa: E731
    _GETTERS[cls] = getter
    return getter


def by_fields(record: Any) -> tuple[Any, ...]:
    """``__reduce__`` of a dataclass whose fields are all constructor arguments."""
    cls = type(record)
    getter = _GETTERS.get(cls) or _getter(cls, record)
    return (cls, getter(record))


def restore(record: Any, state: Any) -> None:
    """``__setstate__`` for pickles written before :func:`by_fields`: the field values in
    declaration order (set past the frozen guard, as the dataclass itself does)."""
    for f, value in zip(fields(record), state, strict=True):
        object.__setattr__(record, f.name, value)
