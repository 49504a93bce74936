"""The thread is paged (issue 18: 1,600 posts made a 600 kB page, reloaded for every
live post): the page shows the newest 50 entries with links to older pages, the API
pages the view's thread the same way, and a live post appends only what is new
(``…/entries?after=N``) instead of reloading the page. Entry numbers, never log seqs,
so nothing counts the hidden events between two posts."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from selectolax.lexbor import LexborHTMLParser

from nightfall.engine import Command
from nightfall.web import pages
from webkit import Env, Small, make_env, small_game

POSTS = 1600
PLAYERS = ["Ann", "Bob", "Cid", "Dee", "Eve"]


@pytest.fixture(scope="module")
def busy(tmp_path_factory: pytest.TempPathFactory) -> tuple[Env, Small]:
    env = make_env(tmp_path_factory.mktemp("thread"))
    game = small_game(env.service)
    for number in range(POSTS):
        env.service.submit(game.game_id, Command(
            "post", by=PLAYERS[number % 5], text=f"post number {number} " + "x" * 200))
    return env, game


def posts_on(html: str) -> list[int]:
    return [int(n) for n in re.findall(r"post number (\d+) ", html)]


@pytest.mark.parametrize("which", ["player", "public"])
def test_the_page_shows_the_newest_entries_with_links_to_older_ones(
    busy: tuple[Env, Small], which: str
) -> None:
    env, game = busy
    url = game.p("Ann") + "/thread" if which == "player" else f"/g/{game.game_id}"
    page = env.client.get(url)
    assert page.status_code == 200 and len(page.text) < 60_000, len(page.text)
    shown = posts_on(page.text)
    assert shown == list(range(POSTS - len(shown), POSTS)) and len(shown) <= 50
    tree = LexborHTMLParser(page.text)
    older = tree.css_first('nav.pages a[rel="prev"]')
    assert older is not None
    first = env.client.get(url + "?page=1")
    assert posts_on(first.text)[:3] == [0, 1, 2] or "phase" in first.text
    seen: list[int] = []
    count = int(tree.css_first('nav.pages [aria-current="page"]').text())  # the newest
    for number in range(1, count + 1):
        seen += posts_on(env.client.get(f"{url}?page={number}").text)
    assert seen == list(range(POSTS))  # every post on exactly one page, in order
    for junk in ("0", "-1", "abc", "99999999999"):
        assert env.client.get(f"{url}?page={junk}").status_code == 200


@pytest.mark.parametrize("which", ["player", "public", "gm"])
def test_the_api_pages_the_thread(busy: tuple[Env, Small], which: str) -> None:
    env, game = busy
    url = {"player": "/api" + game.p("Ann"), "public": f"/api/g/{game.game_id}",
           "gm": f"/api{game.g}"}[which]
    data = env.client.get(url).json()
    paging = data["view"]["thread_page"]
    assert len(data["view"]["thread"]) <= paging["size"] == pages.THREAD_PAGE_SIZE
    assert paging["number"] == paging["count"] and paging["total"] >= POSTS
    oldest = env.client.get(url + "?page=1").json()["view"]
    assert oldest["thread_page"]["number"] == 1
    assert len(env.client.get(url).text) < 80_000


def test_a_live_post_appends_only_what_is_new(tmp_path: Path) -> None:
    env = make_env(tmp_path)
    game = small_game(env.service)
    url = game.p("Bob") + "/thread"
    page = env.client.get(url)
    tree = LexborHTMLParser(page.text)
    after = tree.css_first("#thread-after").attributes["value"]
    live = tree.css_first("#thread")
    assert live.attributes["hx-get"] == url + "/entries"
    assert live.attributes["hx-swap"] == "beforeend"
    assert "nf:post" in live.attributes["hx-trigger"]
    env.service.submit(game.game_id, Command("elect", by="Ann", target="Cid"))
    env.service.submit(game.game_id, Command("post", by="Ann", text="fresh words"))
    env.service.submit(game.game_id, Command("elect", by="Ann", target="Dee"))
    fragment = env.client.get(f"{url}/entries?after={after}")
    assert fragment.status_code == 200 and "<html" not in fragment.text
    assert "fresh words" in fragment.text and len(fragment.text) < 8000
    parts = LexborHTMLParser(fragment.text)
    new_after = parts.css_first("#thread-after").attributes["value"]
    assert int(str(new_after)) == int(str(after)) + 3
    assert parts.css_first("#live-head").attributes.get("hx-swap-oob") == "true"
    # nothing new: only the head and the mark come back
    again = env.client.get(f"{url}/entries?after={new_after}")
    assert "fresh words" not in again.text
    # a vote replaced after the reader saw it is swapped in as superseded
    seen = env.client.get(f"{url}/entries?after={int(str(after)) + 1}")
    replaced = LexborHTMLParser(seen.text).css('li[hx-swap-oob="true"]')
    assert [li.attributes.get("class") for li in replaced] == ["post vote superseded"]
    # a reader far behind (or a junk mark) reloads the page instead
    assert env.client.get(f"{url}/entries?after=junk").headers.get("HX-Refresh") == "true"


def test_entry_numbers_do_not_count_hidden_events(tmp_path: Path) -> None:
    """A secret night move between two posts changes no number a reader sees."""
    env = make_env(tmp_path)
    game = small_game(env.service)
    for name in PLAYERS:
        env.service.submit(game.game_id, Command("elect", by=name, target="Ann"))
    env.service.gm(game.game_id, "advance")  # night 1

    def numbers() -> list[str]:
        html = env.client.get(f"/g/{game.game_id}").text
        return re.findall(r'id="e-(\d+)"', html) + re.findall(
            r'id="thread-after"[^>]*value="(\d+)"', html)

    before = numbers()
    env.service.submit(game.game_id, Command("visit", by="Dee", target="Eve"))
    assert numbers() == before


@given(st.integers(0, 400), st.one_of(st.none(), st.integers(-5, 20)),
       st.integers(1, 60))
def test_pages_split_the_entries_in_order(total: int, number: int | None,
                                          size: int) -> None:
    part, chosen, count = pages.page_slice(total, number, size)
    items = list(range(total))
    assert 1 <= chosen <= count and len(items[part]) <= size
    assert [i for n in range(1, count + 1) for i in items[pages.page_slice(
        total, n, size)[0]]] == items
    if number is None and total:
        assert items[part][-1] == total - 1
