"""The vote counter pauses Python's cyclic collector while it reads a page and counts
(nightfall.collector; docs/performance.md, issue 19: the collector kept traversing every
post read before, a fifth of a 10,000-post count), and always gives it back as it was:
after a page read, refused or unreadable, after a count, and after a count that fails.
A server shares one collector between all its threads, so leaving it off would be a
leak nobody sees; leaving it on during a read would be the slowness this pause removed."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from forumkit import BERLIN

from changelingskit import CHANGELINGS_VOTES
from nightfall.forum import GameFacts, content, count, count_votes, detect, read_page
from nightfall.forum.names import PlayerListError
from nightfall.web.votecount import CountError, Upload, read_pages

FIXTURES = Path(__file__).parent / "fixtures"
PAGE = (FIXTURES / "phpbb3_day2.html").read_bytes()
#: collections an eager collector may run around a paused block (its context manager's
#: objects, made before the pause and freed after it)
PAUSE_EDGES = 6


@contextmanager
def collector(enabled: bool) -> Iterator[list[int]]:
    """The collector switched on or off and eager (a young collection on every new
    tracked object), with the generations of every collection it runs recorded; the
    process's own settings restored afterwards."""
    was_enabled, thresholds = gc.isenabled(), gc.get_threshold()
    runs: list[int] = []

    def record(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            runs.append(info["generation"])

    gc.callbacks.append(record)
    gc.set_threshold(1, 1, 1)
    (gc.enable if enabled else gc.disable)()
    try:
        yield runs
    finally:
        gc.callbacks.remove(record)
        gc.set_threshold(*thresholds)
        (gc.enable if was_enabled else gc.disable)()


@pytest.mark.parametrize("enabled", [True, False])
def test_a_page_is_read_with_the_collector_paused_and_it_is_given_back(enabled: bool
                                                                       ) -> None:
    with collector(enabled) as runs:
        page = read_page(PAGE, "day2.html", BERLIN)
        assert gc.isenabled() is enabled
    assert page.usable and page.posts
    # a collection is due at every new object: at most the few of entering and leaving
    # the pause (the context manager's own objects), none inside
    assert len(runs) <= PAUSE_EDGES


def test_the_check_can_fail_the_same_read_unpaused_collects_all_along() -> None:
    with collector(True) as runs:
        detect._read(PAGE, "day2.html", BERLIN, None)
    assert len(runs) > 10 * PAUSE_EDGES


@pytest.mark.parametrize(("data", "refused"), [
    (b"", False), (b"\xff\xfe<html", False), (b"<html><body>" + b"<div>" * 5000, True),
    ("<html>" + "<b>" * 300_000, True)], ids=["empty", "no forum page", "deep divs",
                                              "deep formatting"])
def test_the_collector_is_given_back_after_a_page_that_is_refused_or_unreadable(
        data: bytes | str, refused: bool) -> None:
    for enabled in (True, False):
        with collector(enabled):
            page = read_page(data, "odd.html", BERLIN)
            assert gc.isenabled() is enabled
        assert not page.usable and (page.refused is not None) is refused


def test_a_count_pauses_the_collector_and_gives_it_back_even_when_it_fails() -> None:
    posts = list(read_page(PAGE, "day2.html", BERLIN).posts)
    players = sorted({post.author for post in posts})
    with collector(True) as runs:
        result = count_votes(posts, players, CHANGELINGS_VOTES)
        assert gc.isenabled()
    assert len(runs) <= PAUSE_EDGES
    assert result.votes or result.invalid
    with collector(True) as runs:  # the check can fail: the same count unpaused collects
        count._count_votes(posts, players, CHANGELINGS_VOTES, None, None, None, GameFacts())
    assert len(runs) > 10 * PAUSE_EDGES
    with collector(True):  # a player list the count refuses
        with pytest.raises(PlayerListError):
            count_votes(posts, ["Ann", "ann"], CHANGELINGS_VOTES)
        assert gc.isenabled()


def test_the_web_upload_is_read_paused_and_gives_the_collector_back_on_refusal() -> None:
    with collector(True) as runs:
        pages = read_pages([Upload("day2.html", PAGE)], BERLIN)
        assert gc.isenabled() and len(runs) <= PAUSE_EDGES and pages[0].posts
        with pytest.raises(CountError):
            read_pages([Upload("empty.html", b"")], BERLIN)
        assert gc.isenabled()


#: the readers of the optional mypyc build (scripts/build_compiled.sh): its nested
#: functions share one environment object that refers back to them, a cycle per call by
#: mypyc's design, which the collector takes once the pause is over
COMPILED_READERS = Path(content.__file__ or "").suffix in (".so", ".pyd")


@pytest.mark.skipif(COMPILED_READERS, reason="mypyc's closures are cycles by design")
@pytest.mark.parametrize("fixture", sorted(
    path.name for path in FIXTURES.iterdir() if not path.name.endswith((".expected.json",
                                                                        ".txt"))))
def test_reading_and_counting_leave_no_cycles_for_the_paused_collector(fixture: str) -> None:
    """Why the pause is safe: a read and a count of every fixture format make no
    reference cycles, so nothing waits for the collector (a count of a huge thread does
    not pile up garbage while it is paused)."""
    data = (FIXTURES / fixture).read_bytes()
    was_enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        page = read_page(data, fixture, BERLIN)
        players = sorted({post.author for post in page.posts})
        count_votes(list(page.posts), players, CHANGELINGS_VOTES)
        del page
        assert gc.collect() == 0
    finally:
        if was_enabled:
            gc.enable()
