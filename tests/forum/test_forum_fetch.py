"""Reading a thread by its address (``nightfall.forum.fetch``) from a real HTTP server on
loopback: every page of each forum's pagination, politely (one request at a time, the
delay, the User-Agent), conditionally (304), within limits, and a clear error for
everything that is not a readable thread."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime, timedelta
from itertools import pairwise

import pytest
from forumserver import ForumServer, forum_server
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from threadkit import (
    BERLIN,
    TPost,
    day_thread,
    discourse_pages,
    phpbb_pages,
    quote,
    red,
    vb3_pages,
    vb4_pages,
    with_body,
    xf1_pages,
    xf2_pages,
)

from changelingskit import CHANGELINGS_VOTES
from nightfall.forum import count_votes
from nightfall.forum import fetch as fetch_module
from nightfall.forum.fetch import Credentials, FetchError, Limits, MemoryCache, read_thread
from nightfall.forum.reading import changes

PLAYERS = ["Anna", "Bert", "Cleo", "Dora", "Emil", "Fritz", "Greta"]
VOTES = [("Anna", "Bert"), ("Bert", "Cleo"), ("Cleo", "Bert"), ("Dora", "Emil"),
         ("Emil", "Bert"), ("Fritz", "Anna"), ("Greta", "Bert"), ("Anna", "Cleo"),
         ("Dora", "Bert")]
EXPECTED = {"Anna": "Cleo", "Bert": "Cleo", "Cleo": "Bert", "Dora": "Bert", "Emil": "Bert",
            "Fritz": "Anna", "Greta": "Bert"}
START = datetime(2012, 12, 23, 20, 0, tzinfo=BERLIN)
FAST = Limits(delay=0.05, timeout=2.0, page_seconds=5.0)

Builder = Callable[[list[TPost]], dict[str, str]]
FORUMS: dict[str, tuple[Builder, str]] = {
    # forum: (pages, the address the GM gives: a page in the middle, with noise)
    "phpbb": (phpbb_pages, "/viewtopic.php?f=3&t=77&start=5&sid=feedface#p5007"),
    "vbulletin4": (vb4_pages, "/showthread.php/5512-Changeling-Game-7-Day-2/page2"),
    "vbulletin3": (vb3_pages, "/showthread.php?t=88&page=2"),
    "xenforo2": (xf2_pages, "/threads/changelings-9-day-2.3301/page-2#post-9006"),
    "xenforo1": (xf1_pages, "/threads/changelings-9-day-2.4402/page-3"),
    "discourse": (lambda posts: discourse_pages(posts, first=6)[0],
                  "/t/changelings-9-day-2/42/7"),
}


def thread() -> list[TPost]:
    return day_thread(START, PLAYERS, VOTES, extra=26)


DISCOURSE_CHUNKS = [discourse_pages(thread(), first=6)[1]]


def serve(server: ForumServer, pages: dict[str, str], **options: object) -> None:
    if "/t/42.json" in pages:  # Discourse: the posts by id, from the same thread
        server.serve_query("/t/42/posts.json", DISCOURSE_CHUNKS[0],
                           content_type="application/json", **options)
    for target, body in pages.items():
        content_type = "application/json" if target.partition("?")[0].endswith(".json") \
            else "text/html; charset=utf-8"
        server.serve(target, body.replace("{base}", server.url("")),
                     content_type=content_type, **options)


@pytest.mark.parametrize("forum", sorted(FORUMS))
def test_every_page_of_each_forum_is_read_once_politely(forum: str) -> None:
    build, address = FORUMS[forum]
    posts = thread()
    pages = build(posts)
    with forum_server() as server:
        serve(server, pages)
        read = read_thread(server.url(address), BERLIN, limits=FAST)
        log = server.requests()
    assert read.software == forum.rstrip("1234")
    assert len({p.id for p in read.posts}) == len(posts)  # every post, each page once
    assert len(read.reads) == len({r.url for r in read.reads}) == len(log)
    assert len(read.reads) >= 3
    assert all(r.status == 200 and r.sha256 and r.posts for r in read.reads)
    count = count_votes(read.posts, PLAYERS, CHANGELINGS_VOTES)
    assert {v: c.target for v, c in count.votes.items()} == EXPECTED  # C3.1, quotes C3.2
    assert {i.reason.value for i in count.invalid} == {"quoted", "not_a_player"}
    for request in log:
        assert request.headers["user-agent"].startswith("Nightfall/")
    for before, after in pairwise(log):  # one at a time (the server answered the one
        assert after.started >= before.ended  # before it heard the next), with the pause
        assert after.started - before.started >= FAST.delay


def test_a_reread_asks_conditionally_and_fetches_only_what_changed() -> None:
    posts = thread()
    cache = MemoryCache()
    with forum_server() as server:
        serve(server, phpbb_pages(posts))
        url = server.url("/viewtopic.php?f=3&t=77")
        first = read_thread(url, BERLIN, limits=FAST, cache=cache)
        # a vote on page 2 changes between the reads: the forum marks the post edited
        changed = with_body(posts, 8, f"Doch lieber {red('Greta')}.",
                            edited=START.replace(hour=21))
        serve(server, {k: v for k, v in phpbb_pages(changed).items() if "start=5" in k})
        second = read_thread(url, BERLIN, limits=FAST, cache=cache)
        log = server.requests()
    statuses = {r.url.rpartition("?")[2]: r.status for r in second.reads}
    assert len(statuses) == 8 and statuses.pop("f=3&t=77&start=5") == 200
    assert set(statuses.values()) == {304}
    assert all("if-none-match" in r.headers for r in log[len(first.reads):])
    assert second.reads[0].sha256 == first.reads[0].sha256
    assert second.reads[1].sha256 != first.reads[1].sha256
    count = count_votes(second.posts, PLAYERS, CHANGELINGS_VOTES)
    assert "edited" in {i.reason.value for i in count.invalid}  # C3.2: edited → invalid
    notes = changes(first.reads, second.reads, second.started_at, first.started_at)
    assert [n.params["url"] for n in notes] == [second.reads[1].url]


def test_a_post_deleted_between_two_reads_is_reported() -> None:
    posts = thread()
    cache = MemoryCache()
    with forum_server() as server:
        serve(server, xf2_pages(posts))
        url = server.url("/threads/changelings-9-day-2.3301/")
        first = read_thread(url, BERLIN, limits=FAST, cache=cache)
        serve(server, xf2_pages([p for p in posts if p.number != 3]))
        second = read_thread(url, BERLIN, limits=FAST, cache=cache)
    notes = changes(first.reads, second.reads, second.started_at, first.started_at)
    gone = [n for n in notes if "posts" in n.params]
    assert gone and gone[0].params["posts"] == "post-9003"


def test_a_page_linked_but_gone_is_a_note_not_a_failure() -> None:
    posts = thread()
    pages = vb3_pages(posts)
    last = max(pages, key=lambda k: (len(k), k))
    with forum_server() as server:
        serve(server, {k: v for k, v in pages.items() if k != last})
        read = read_thread(server.url("/showthread.php?t=88"), BERLIN, limits=FAST)
    assert [r.status for r in read.reads].count(404) == 1
    assert read.notes and read.notes[0].params["status"] == 404


def _error(address: str, setup: Callable[[ForumServer], None],
           credentials: Credentials | None = None, limits: Limits = FAST) -> FetchError:
    with forum_server(setup) as server, pytest.raises(FetchError) as caught:
        read_thread(server.url(address), BERLIN, limits=limits, credentials=credentials)
    return caught.value


def test_a_redirect_to_the_login_page_is_a_clear_error() -> None:
    def setup(server: ForumServer) -> None:
        server.serve("/viewtopic.php?t=77", b"", status=302,
                     location=server.url("/ucp.php?mode=login&redirect=viewtopic.php"))

    error = _error("/viewtopic.php?t=77", setup)
    assert error.kind == fetch_module.LOGIN and "--cookie" in error.msgid


def test_a_redirect_to_another_host_is_refused() -> None:
    def setup(server: ForumServer) -> None:
        server.serve("/viewtopic.php?t=77", b"", status=301,
                     location="http://localhost:9/viewtopic.php?t=77")

    assert _error("/viewtopic.php?t=77", setup).kind == fetch_module.OFF_HOST


def test_a_redirect_on_the_same_host_is_followed() -> None:
    posts = thread()

    def setup(server: ForumServer) -> None:
        serve(server, phpbb_pages(posts))
        server.serve("/old/topic77", b"", status=301, location="/viewtopic.php?f=3&t=77")

    with forum_server(setup) as server:
        read = read_thread(server.url("/old/topic77"), BERLIN, limits=FAST)
    assert len({p.id for p in read.posts}) == len(posts)


def test_a_slow_page_hits_the_timeout_in_bounded_time() -> None:
    def setup(server: ForumServer) -> None:
        serve(server, phpbb_pages(thread()), delay=3.0)

    began = time.monotonic()
    error = _error("/viewtopic.php?f=3&t=77", setup,
                   limits=Limits(delay=0.01, timeout=0.5, page_seconds=1.0))
    assert error.kind == fetch_module.TIMEOUT
    assert time.monotonic() - began < 5


def test_missing_and_closed_threads() -> None:
    assert _error("/viewtopic.php?t=999", lambda s: None).kind == fetch_module.NOT_FOUND
    pages = phpbb_pages(thread())

    def closed(server: ForumServer) -> None:
        serve(server, pages, cookie="phpbb3_sid=s3cret")

    error = _error("/viewtopic.php?f=3&t=77", closed)
    assert error.kind == fetch_module.FORBIDDEN and "--cookie" in error.msgid
    wrong = _error("/viewtopic.php?f=3&t=77", closed, Credentials.parse(["phpbb3_sid=old"]))
    assert wrong.kind == fetch_module.FORBIDDEN and "expired" in wrong.msgid
    with forum_server(closed) as server:
        read = read_thread(server.url("/viewtopic.php?f=3&t=77"), BERLIN, limits=FAST,
                           credentials=Credentials.parse(["phpbb3_sid=s3cret"],
                                                         ["X-Forum: yes"]))
        assert all("phpbb3_sid=s3cret" in r.headers["cookie"] for r in server.requests())
        assert all(r.headers["x-forum"] == "yes" for r in server.requests())
    assert len(read.reads) == 8


def test_pages_that_are_not_a_thread() -> None:
    index = ('<html><body id="phpbb"><ul class="topiclist"><li><a href="./viewforum.php?f=3">'
             'Games</a></li></ul></body></html>')
    login = ('<html><body><form action="/login" method="post"><input name="user">'
             '<input type="password" name="pw"></form></body></html>')
    other = "<html><body><p>Hello, this is a blog.</p></body></html>"

    def setup(server: ForumServer) -> None:
        server.serve("/index.php", index)
        server.serve("/viewtopic.php?t=5", login)
        server.serve("/blog", other)
        server.serve("/t/9.json", b'{"errors": ["not found"]}',
                     content_type="application/json")

    assert _error("/index.php", setup).kind == fetch_module.NOT_A_THREAD
    assert _error("/viewtopic.php?t=5", setup).kind == fetch_module.LOGIN
    assert _error("/blog", setup).kind == fetch_module.UNKNOWN_MARKUP
    assert _error("/t/slug/9", setup).kind == fetch_module.UNKNOWN_MARKUP
    with pytest.raises(FetchError) as caught:
        read_thread("file:///etc/passwd", BERLIN)
    assert caught.value.kind == fetch_module.BAD_ADDRESS


def test_a_thread_past_the_limits_is_refused() -> None:
    pages = xf2_pages(thread())

    def setup(server: ForumServer) -> None:
        serve(server, pages)

    too_many = _error("/threads/changelings-9-day-2.3301/", setup,
                      limits=Limits(delay=0.01, max_pages=2))
    assert too_many.kind == fetch_module.TOO_BIG and too_many.params["limit"] == 2
    too_large = _error("/threads/changelings-9-day-2.3301/", setup,
                       limits=Limits(delay=0.01, max_page_bytes=2000))
    assert too_large.kind == fetch_module.TOO_BIG
    in_total = _error("/threads/changelings-9-day-2.3301/", setup,
                      limits=Limits(delay=0.01, max_total_bytes=12000))
    assert in_total.kind == fetch_module.TOO_BIG


def test_xenforo1_markup_quotes_edits_signatures_and_code() -> None:
    """XenForo 1 (``nightfall.forum.xenforo1``): the body is a blockquote but not a quote,
    a quoted vote is ``quoted``, a red name in a signature is no vote, an edited post
    carries its edit time, code is never a vote (C3.2)."""
    from nightfall.forum import read_page

    when = START + timedelta(hours=2)
    posts = [
        TPost(1, "Anna", when, f"Mein Tipp: {red('Bert')}", signature=red("Cleo")),
        TPost(2, "Bert", when + timedelta(minutes=5),
              quote("Anna", f"Mein Tipp: {red('Bert')}") + f" Nein: {red('Anna')}",
              edited=when + timedelta(minutes=9)),
        TPost(3, "Cleo", when + timedelta(minutes=7), f"Ich sage {red('Dora')}"),
    ]
    page_html = xf1_pages(posts, per_page=5)["/threads/changelings-9-day-2.4402/"]
    page = read_page(page_html.replace("{base}", "http://forum.test"), "xf1.html", BERLIN)
    assert page.format == "xenforo1" and [p.id for p in page.posts] == [
        "post-12001", "post-12002", "post-12003"]
    bert = page.posts[1]
    assert bert.edited and bert.edited_at == (when + timedelta(minutes=9)).replace(second=0)
    assert bert.number == 2 and bert.quotes[0].author == "Anna"
    count = count_votes(page.posts, PLAYERS, CHANGELINGS_VOTES)
    assert {v: c.target for v, c in count.votes.items()} == {"Anna": "Bert", "Cleo": "Dora"}
    assert {(i.author, i.reason.value) for i in count.invalid} == {
        ("Bert", "quoted"), ("Bert", "edited")}


BUILDERS: dict[str, Callable[[list[TPost], int], dict[str, str]]] = {
    "phpbb": lambda posts, per: phpbb_pages(posts, per_page=per),
    "vbulletin4": lambda posts, per: vb4_pages(posts, per_page=per),
    "vbulletin3": lambda posts, per: vb3_pages(posts, per_page=per),
    "xenforo2": lambda posts, per: xf2_pages(posts, per_page=per),
    "xenforo1": lambda posts, per: xf1_pages(posts, per_page=per),
}


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(forum=st.sampled_from(sorted(BUILDERS)), size=st.integers(1, 40),
       per_page=st.integers(1, 9), start=st.integers(0, 10))
def test_any_thread_is_read_whole_from_any_of_its_pages(forum: str, size: int, per_page: int,
                                                        start: int) -> None:
    """Property: whatever the forum, the thread's length, the page size and the page the
    GM's address points to, every post is read exactly once, each page with one request."""
    posts = [TPost(n, PLAYERS[n % len(PLAYERS)], START + timedelta(minutes=n),
                   f"Beitrag {n} {red(PLAYERS[(n * 3) % len(PLAYERS)])}")
             for n in range(1, size + 1)]
    pages = BUILDERS[forum](posts, per_page)
    targets = sorted((target for target in pages  # phpBB's canonical spelling: the same
                      if not target.startswith("/viewtopic.php?t=")),  # pages once more
                     key=lambda t: (len(t), t))
    address = targets[min(start, len(targets) - 1)]
    with forum_server() as server:
        serve(server, pages)
        read = read_thread(server.url(address), BERLIN, limits=Limits(delay=0, timeout=5))
        requests = len(server.requests())
    assert len({p.id for p in read.posts}) == len(read.posts) == size
    assert requests == len(read.reads) == -(-size // per_page)
