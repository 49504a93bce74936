"""Hostile files for the vote counter (issue 18): deep nesting, too much markup, too many
or too large files, ``/dev/zero``. Each is refused quickly with a clear message — by the
reader (``read_page``: ``refused``), on the GM's page (413/422, German here: the game's
language) and by ``nightfall votecount`` in a real subprocess (exit 2, a message, no
traceback) — and every case is bounded in time."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from forumkit import FIXTURES

from changelingskit import CHANGELINGS_VOTES
from nightfall.forum import count_votes, limits, read_page, zone

BERLIN = zone("Europe/Berlin")
PHPBB = (FIXTURES / "phpbb3_day2.html").read_text(encoding="utf-8")
#: the most CPU seconds one hostile file may cost the reader (the unfixed reader spent
#: minutes on the first three)
BOUND = 3.0


def nested(open_tag: str, close_tag: str, depth: int) -> str:
    return open_tag * depth + "x" + close_tag * depth


def in_phpbb_post(body: str) -> str:
    """A real phpBB page whose first post's content is ``body``."""
    marker = '<div class="content">'
    at = PHPBB.index(marker) + len(marker)
    return PHPBB[:at] + body + PHPBB[at:]


HOSTILE: dict[str, Callable[[], str]] = {
    "200,000 nested blockquotes (5 MB)": lambda: "<html><body>" + nested(
        "<blockquote>", "</blockquote>", 200_000) + "</body></html>",
    "100,000 nested divs in a phpBB post": lambda: in_phpbb_post(
        nested("<div>", "</div>", 100_000)),
    "100,000 unclosed spans": lambda: in_phpbb_post("<span>" * 100_000),
    "a Discourse topic nested 100,000 deep": lambda: '{"post_stream": ' + "[" * 100_000
    + "]" * 100_000 + "}",
    "300,000 flat elements in a post": lambda: in_phpbb_post("<b>x</b>" * 300_000),
}


def cpu(work: Callable[[], object]) -> tuple[object, float]:
    started = time.process_time()
    result = work()
    return result, time.process_time() - started


@pytest.mark.parametrize("make", HOSTILE.values(), ids=list(HOSTILE))
def test_the_reader_refuses_hostile_markup_quickly(make: Callable[[], str]) -> None:
    text = make()
    page, seconds = cpu(lambda: read_page(text.encode(), "hostile.html", BERLIN))
    assert seconds < BOUND, f"{seconds:.1f} s"
    assert page.refused is not None and not page.posts  # type: ignore[attr-defined]
    assert "hostile.html" in str(page.issues[0])  # type: ignore[attr-defined]


def test_bbcode_nested_100000_deep_is_read_and_counted_quickly() -> None:
    """BBCode needs no refusal: its parser keeps tags past its depth as text, linearly."""
    text = ("--- post p1 | author: Ann | time: 2012-12-24 18:05\n"
            + nested("[quote=Bob]", "[/quote]", 100_000)
            + "\n[color=red]Bob[/color]\n")
    page, seconds = cpu(lambda: read_page(text, "deep.bbcode", BERLIN))
    count, counting = cpu(lambda: count_votes(list(page.posts), ["Ann", "Bob"],  # type: ignore[attr-defined]
                                              CHANGELINGS_VOTES))
    assert seconds + counting < BOUND, f"{seconds:.1f} s + {counting:.1f} s"
    assert page.refused is None  # type: ignore[attr-defined]
    assert count.votes["Ann"].target == "Bob"  # type: ignore[attr-defined]


def test_real_pages_are_well_within_the_limits() -> None:
    for path in sorted(FIXTURES.iterdir()):
        budget = limits.Budget()
        limits.check_markup(path.name, path.read_text(encoding="utf-8"), budget)
        assert limits.MAX_ELEMENTS - budget.elements < limits.MAX_ELEMENTS // 100


def test_the_budget_is_shared_by_the_files_of_one_count() -> None:
    page = in_phpbb_post("<b>x</b>" * 60_000)  # within the limit alone
    budget = limits.Budget()
    read = [read_page(page, f"page{i}.html", BERLIN, budget) for i in range(5)]
    assert [p.refused is None for p in read] == [True, True, True, True, False]


def test_dev_zero_is_read_no_further_than_the_limit() -> None:
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    with pytest.raises(limits.LimitExceeded):
        limits.read_limited(Path("/dev/zero"))


# -- the command line, as the GM runs it -------------------------------------------------
def votecount(*args: str) -> tuple[subprocess.CompletedProcess[str], float]:
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "nightfall.cli", "votecount", *args,
                           "--players", "Ann,Bob", "--locale", "en"],
                          capture_output=True, text=True, timeout=60)
    return done, time.monotonic() - started


@pytest.mark.parametrize("name", ["200,000 nested blockquotes (5 MB)",
                                  "a Discourse topic nested 100,000 deep",
                                  "300,000 flat elements in a post"])
def test_the_command_refuses_hostile_files_with_exit_2(tmp_path: Path, name: str) -> None:
    path = tmp_path / "hostile.html"
    path.write_text(HOSTILE[name](), encoding="utf-8")
    done, seconds = votecount(str(path))
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
    assert "hostile.html" in done.stderr and "Nothing was counted" in done.stderr
    assert seconds < 20


def test_the_command_refuses_dev_zero_too_many_and_too_large_files(tmp_path: Path) -> None:
    good = tmp_path / "page.html"
    good.write_text(PHPBB, encoding="utf-8")
    if os.path.exists("/dev/zero"):
        done, seconds = votecount("/dev/zero")
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        assert "larger than 5 MB" in done.stderr and seconds < 20
    done, _ = votecount(*[str(good)] * (limits.MAX_FILES + 1))
    assert done.returncode == 2 and f"At most {limits.MAX_FILES} files" in done.stderr
    big = tmp_path / "big.bbcode"
    big.write_bytes(b"x" * (limits.MAX_FILE_BYTES - 10))
    done, _ = votecount(*[str(big)] * 3)
    assert done.returncode == 2 and f"more than {limits.MAX_TOTAL_MB} MB" in done.stderr
    done, _ = votecount(str(good), "--json")  # and a real page still counts
    assert done.returncode == 0 and json.loads(done.stdout)["tally"] is not None


# -- the fast path decides as the scan does ----------------------------------------------
_SOUP_NAMES = ["div", "DIV", "span", "b", "p", "li", "br", "a", "blockquote", "br-x", "td",
               "x:y", "Span", "script", "SCRIPT", "style", "scripts", "script-x", "xmp"]
_SOUP_BITS = ["text", "a < b", "<", ">", "<!-- c -->", "<!-- <div> -->", "<!--", "-->",
              "<script><div></script>", "<script>", "</script>", "<b", "< div>", "</ >",
              "<script_x>", "</div", "<div", "["]


def _soup(rng: random.Random) -> str:
    parts = []
    for _ in range(rng.randint(0, 60)):
        if rng.random() < 0.02:
            depth = rng.randint(limits.MAX_NESTING - 30, limits.MAX_NESTING + 30)
            name = rng.choice(_SOUP_NAMES)
            closed = rng.random() < 0.5
            parts.append(f"<{name}>" * depth + "y" + (f"</{name}>" * depth if closed else ""))
        name, roll = rng.choice(_SOUP_NAMES), rng.random()
        if roll < 0.35:
            parts.append(f"<{name}{rng.choice(['', ' a=1', ' /', '/', ' a=/', chr(160)])}>")
        elif roll < 0.7:
            parts.append(f"</{name}{rng.choice(['', ' ', '/', ' x'])}>")
        else:
            parts.append(rng.choice(_SOUP_BITS))
    return "".join(parts)


def test_the_fast_check_decides_and_charges_as_the_scan() -> None:
    """``check_markup`` proves most pages shallow in C and defers their exact element
    count; it must refuse exactly what the scan refuses and leave the same budget."""
    rng = random.Random(19)
    shallow = 0
    for _ in range(1500):
        texts = [_soup(rng) for _ in range(rng.randint(1, 3))]
        left = rng.choice([limits.MAX_ELEMENTS, rng.randint(0, 150)])
        budget, outcomes, expected = limits.Budget(left), [], []
        remaining = left
        for text in texts:
            depth, elements = limits._html_depth(text, remaining)
            if depth > limits.MAX_NESTING or elements > remaining:
                expected.append("refused")
            else:
                expected.append("read")
                remaining -= elements
            try:
                limits.check_markup("soup.html", text, budget)
                outcomes.append("read")
            except limits.LimitExceeded:
                outcomes.append("refused")
            shallow += limits._shallow(text)
        assert (outcomes, budget.elements) == (expected, remaining), texts
    assert shallow > 1000  # the fast path was taken, not only the scan


# -- a page of few tags: parsed first, its nesting read on Lexbor's tree -----------------
def _page_of(body: str) -> str:
    return "<html><body>" + body + "</body></html>"


def test_a_small_page_is_checked_on_the_tree_with_the_same_plain_limit() -> None:
    """400 nested elements inside the body are read, 401 refused: the scan's limit,
    read on the tree the readers walk (``limits.check_tree``)."""
    for tag in ("div", "blockquote", "span", "b"):
        for depth, refused in ((limits.MAX_NESTING, False), (limits.MAX_NESTING + 1, True)):
            text = _page_of(nested(f"<{tag}>", f"</{tag}>", depth))
            assert limits.tree_checkable(text)
            page = read_page(text, "small.html", BERLIN)
            assert (page.refused is not None) is refused, (tag, depth)
            if refused:
                assert "small.html nests its markup more than 400" in str(page.issues[0])


def test_the_tree_check_asks_the_full_depth_only_below_its_probe() -> None:
    """A page with nothing 100 levels below ``<html>`` is shallow at once; one with
    something there is asked the full depth (``limits._DEEP``, then ``_TOO_DEEP``)."""
    from selectolax.lexbor import LexborHTMLParser

    for depth in (97, 98, 99, 100, 150, limits.MAX_NESTING):
        text = _page_of(nested("<div>", "</div>", depth))
        probed = LexborHTMLParser(text).css_first(limits._DEEP) is not None
        assert probed is (depth >= 99), depth  # (<body> is level 1, <html> 0)
        assert read_page(text, "small.html", BERLIN).refused is None, depth
    assert read_page(_page_of(nested("<div>", "</div>", limits.MAX_NESTING + 1)),
                     "small.html", BERLIN).refused is not None


def test_the_tree_decides_what_the_parser_does_not_nest() -> None:
    """``<a>`` in ``<a>`` is not nested by an HTML parser: 450 of them are 'deep' to the
    scan but flat on the tree, so a small page of them is read (a large one is still
    judged by the scan before any parser)."""
    text = _page_of("<a>" * 450 + "x")
    assert limits.tree_checkable(text)
    assert read_page(text, "anchors.html", BERLIN).refused is None
    with pytest.raises(limits.LimitExceeded):
        limits.check_markup("anchors.html", text)


@pytest.mark.parametrize("unit", ["<center>", "<dl><dt><div>", "<blockquote>", "<div>",
                                  "<ul><li>", "<b><div>", "<i><b><u><s><div>", "<a><div>"])
def test_the_costliest_small_pages_are_parsed_and_refused_quickly(unit: str) -> None:
    """The nestings Lexbor spends most on, as many tags as a page parsed before its
    check may have: bounded, and refused by the tree's depth."""
    text = "<html><body>" + unit * ((limits.TREE_CHECK_TAGS - 4) // unit.count("<"))
    assert limits.tree_checkable(text)
    page, seconds = cpu(lambda: read_page(text, "costly.html", BERLIN))
    assert seconds < BOUND / 3, f"{seconds:.2f} s"
    assert page.refused is not None  # type: ignore[attr-defined]
    more = text + "<b>x</b>" * 10
    assert not limits.tree_checkable(more)  # past the bound: the scan, before parsing
    page, seconds = cpu(lambda: read_page(more, "costly.html", BERLIN))
    assert seconds < BOUND and page.refused is not None  # type: ignore[attr-defined]


def test_a_small_page_is_charged_to_the_budget_as_the_scan_counts() -> None:
    text = PHPBB
    assert limits.tree_checkable(text)
    elements = limits._count_elements(text)
    budget = limits.Budget(elements)
    assert read_page(text, "one.html", BERLIN, budget).refused is None
    assert budget.elements == 0
    assert read_page(text, "two.html", BERLIN, budget).refused is not None
    budget = limits.Budget(elements - 1)
    refused = read_page(text, "three.html", BERLIN, budget)
    assert refused.refused is not None and "HTML elements" in str(refused.issues[0])
