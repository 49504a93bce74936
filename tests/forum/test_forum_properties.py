"""Property tests (hypothesis): whatever the input — random bytes, shuffled and cut pieces
of real forum markup, broken JSON, random BBCode — reading and counting never raise; a
file that yields nothing comes back with a reported issue naming it."""

from __future__ import annotations

import json
import re
from typing import Any

from forumkit import BERLIN, FIXTURES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from changelingskit import CHANGELINGS_VOTES
from nightfall.forum import ISLAND, Page, count_votes, read_page
from nightfall.forum.bbcode import parse_bbcode
from nightfall.forum.content import scan

#: the prefixes of the issues made by the last-resort nets in read_page and read_posts
_SAFETY_NET = ("unreadable (", "unreadable post (")
SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
PLAYERS = ["Anna Bell", "Bob", "Dan_the_Man", "Dana", "Jörg"]

_PIECES = [
    '<html><body>', '</body></html>', '<div id="p1" class="post bg2">',
    '<div id="p2" class="post">', '<div class="postbody">', '<p class="author">',
    'by <strong><a class="username">Bob</a></strong> &raquo; Mon Dec 24, 2012 5:00 pm',
    '<time datetime="2012-12-24T16:00:00+00:00">x</time>', '<time datetime="garbage">',
    '<div class="content">', '</div>', '</p>', '<blockquote><div><cite>Ann wrote:</cite>',
    '</blockquote>', '<span style="color: #FF0000">', '<span style="color:">', '</span>',
    '<font color="Red">', '</font>', '<div class="notice">Last edited by x on ??</div>',
    '<li class="postbitlegacy postcontainer" id="post_7">', '<span class="date">',
    '12-24-2012,&nbsp;<span class="time">06:10 PM</span>', '<div id="post_message_7">',
    '<blockquote class="postcontent restore">', '<div class="bbcode_quote">',
    '<div class="bbcode_postedby">Originally Posted by <strong>Ann</strong></div>',
    '<blockquote class="postcontent lastedited">Last edited',
    '<a class="postcounter">#1</a>', '<div class="username_container"><a class="username">',
    '<article class="message message--post" data-author="Zed" data-content="post-1">',
    '<time class="u-dt" data-time="1356368400" datetime="2012-12-24T18:00:00+0100">',
    '<time class="u-dt" data-time="-99999999999999999999">', '<article class="message-body">',
    '<div class="bbWrapper">', '<blockquote class="bbCodeBlock bbCodeBlock--quote" '
    'data-quote="Ann" data-source="post: 9">', '<div class="message-lastEdit">',
    '<table id="post5"><tr><td class="thead">12-24-2012, 09:12 AM</td></tr>',
    '<div id="post_message_5">', '<td class="alt2" style="border:1px inset">',
    '<!-- edit note -->', '<!-- / edit note -->', '<a class="bigusername">Cy</a>',
    'Bob', 'Dan', 'Da', 'Jörg', 'Anna Bell', '\x00', '\ufffd', '<', '>', '"', '&amp;',
    '&#xD800;', '<br />', '<b>', '</b>', '<s>', '<pre>', '<script>', 'All times are UTC + 99',
    '<li class="rightside">All times are UTC + 1 hour <abbr>DST</abbr></li>',
    '--- post p1 | author: Bob | time: 2012-12-24 18:00\n', '--- post | time: x\n',
    '[color=red]', '[/color]', '[quote="Ann, post: 1"]', '[/quote]', '[code]', '[b]',
    '\n', ' ', 'Today, 10:00 AM', '31.02.2012 10:00', '{"author": "Bob", ', '"time": 5, ',
    '"content": "[color=red]Dan[/color]"}', '{"post_stream": {"posts": [', ']}}',
    '{"username": "bob", "created_at": "2012-12-24T18:00:00Z", "cooked": "<p>x</p>", '
    '"post_number": 1}', 'null', '[', ']', '{', '}', ',',
]


def _check(page: Page) -> None:
    assert isinstance(page, Page)
    assert page.file == "garbage"
    if not page.usable:
        assert page.issues, "an unusable file must come with a reported issue"
    for issue in page.issues:
        assert issue.file == "garbage" and issue.message
        # every issue is one the parsers meant: none comes from the last-resort net that
        # turns an exception nobody foresaw into an issue
        assert not issue.message.startswith(_SAFETY_NET), issue.message
    for rules in (CHANGELINGS_VOTES, ISLAND):
        count = count_votes(page.posts, PLAYERS, rules)
        json.dumps(count.to_json())


@SETTINGS
@given(st.binary(max_size=2000))
def test_random_bytes(data: bytes) -> None:
    _check(read_page(data, "garbage", BERLIN))


@SETTINGS
@given(st.lists(st.sampled_from(_PIECES), max_size=60), st.text(max_size=30))
def test_shuffled_forum_markup(pieces: list[str], noise: str) -> None:
    _check(read_page("".join(pieces) + noise, "garbage", BERLIN))


_FIXTURE_TEXTS = [
    path.read_text(encoding="utf-8") for path in sorted(FIXTURES.iterdir())
    if not path.name.endswith(".expected.json")
]


@SETTINGS
@given(st.sampled_from(_FIXTURE_TEXTS), st.integers(min_value=0), st.integers(min_value=0),
       st.text(max_size=20))
def test_cut_and_spliced_fixtures(text: str, start: int, length: int, insert: str) -> None:
    start %= len(text) + 1
    cut = text[:start] + insert + text[start + length % 400:]
    _check(read_page(cut, "garbage", BERLIN))
    _check(read_page(text[: start], "garbage", BERLIN))


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner,
                                                                 max_size=4),
    max_leaves=12,
)
_post_keys = st.sampled_from(["username", "created_at", "cooked", "post_number", "version",
                              "updated_at", "post_type", "deleted_at", "author", "time",
                              "content", "edited", "id", "number"])


@SETTINGS
@given(st.lists(st.dictionaries(_post_keys, _json_values | st.sampled_from(
    ["2012-12-24T18:00:00Z", "2012-12-24 18:00", "<p><font color=red>Bob</font></p>",
     "[color=red]Bob[/color]", "Bob", 2, True])), max_size=5), st.booleans())
def test_random_json_posts(posts: list[dict[str, Any]], discourse: bool) -> None:
    if discourse:
        text = json.dumps({"post_stream": {"posts": posts}})
    else:
        text = "\n".join(json.dumps(p) for p in posts) or "{}"
    _check(read_page(text, "garbage", BERLIN))


_BBCODE = st.lists(st.sampled_from([
    "[b]", "[/b]", "[color=red]", "[color=rgb(184, 49, 47)]", "[color=]", "[/color]",
    "[quote]", '[quote="Ann" post_id=3]', "[/quote]", "[code]", "[/code]", "[s]", "[/s]",
    "[*]", "[list]", "[/list]", "[url=x]", "[/url]", "[", "]", "=", "Bob", "Da", " ", "\n",
    "голос: ", "[img]", "[/img]", "[noparse]", "[foo=bar]",
]), max_size=80)


@SETTINGS
@given(_BBCODE)
def test_random_bbcode(tokens: list[str]) -> None:
    tree = parse_bbcode("".join(tokens))
    result = scan(tree)
    assert isinstance(result.own_bbcode, str)


def test_deep_nesting_is_flattened_not_fatal() -> None:
    html = ('<html><body><div id="p1" class="post"><div class="postbody"><p class="author">'
            '<strong>Bob</strong> » Mon Dec 24, 2012 5:00 pm</p><div class="content">'
            + "<blockquote><div>" * 3000 + '<span style="color:red">Dan</span>'
            + "</div></blockquote>" * 3000 + "</div></div></div></body></html>")
    page = read_page(html, "garbage", BERLIN)
    _check(page)
    bbcode = "[quote]" * 5000 + "[color=red]Dan[/color]"
    scan(parse_bbcode(bbcode))


def test_non_ascii_digits_in_ids_and_numbers() -> None:
    text = ('{"id": "²p1", "author": "Bob", "time": "2012-12-24 18:00", '
            '"content": "[color=red]Dan[/color]", "number": "²"}\n'
            '{"id": "²p2", "author": "Bob", "time": "2012-12-24 18:00", '
            '"content": "[color=red]Dan[/color]"}\n')
    page = read_page(text, "garbage", BERLIN)
    _check(page)
    assert [p.id for p in page.posts] == ["²p2"]


# -- mutations of the real fixtures (issue 8): bytes, HTML tags, BBCode tags --------------------
_FIXTURE_BYTES = [path.read_bytes() for path in sorted(FIXTURES.iterdir())
                  if not path.name.endswith(".expected.json") and path.name != "notes.txt"]
_TAG = re.compile(r"<[^<>]{1,200}>|\[/?[a-z*]+(?:=[^\]]{0,40})?\]", re.I)


@SETTINGS
@given(st.sampled_from(_FIXTURE_BYTES), st.lists(st.tuples(
    st.integers(min_value=0), st.sampled_from(["flip", "drop", "insert", "cut"]),
    st.binary(min_size=1, max_size=8)), min_size=1, max_size=6))
def test_byte_mutations_of_fixtures(data: bytes, edits: list[tuple[int, str, bytes]]) -> None:
    mutated = bytearray(data)
    for position, kind, noise in edits:
        at = position % (len(mutated) + 1)
        if kind == "flip" and at < len(mutated):
            mutated[at] ^= noise[0] or 0x80
        elif kind == "drop":
            del mutated[at:at + len(noise) * 16]
        elif kind == "insert":
            mutated[at:at] = noise
        else:
            del mutated[at:]
    _check(read_page(bytes(mutated), "garbage", BERLIN))


@SETTINGS
@given(st.sampled_from(_FIXTURE_TEXTS), st.lists(st.tuples(
    st.integers(min_value=0), st.sampled_from(["drop", "double", "swap", "strip"])),
    min_size=1, max_size=12))
def test_tag_mutations_of_fixtures(text: str, edits: list[tuple[int, str]]) -> None:
    """Whole HTML and BBCode tags dropped, doubled, swapped with another tag of the page, or
    stripped of their attributes: the structure the parsers look for breaks here and there."""
    for position, kind in edits:
        tags = list(_TAG.finditer(text))
        if not tags:
            break
        tag = tags[position % len(tags)]
        other = tags[(position * 7 + 3) % len(tags)].group(0)
        replacement = {"drop": "", "double": tag.group(0) * 2, "swap": other,
                       "strip": re.sub(r"[\s=].*(?=[>\]])", "", tag.group(0), flags=re.S)}[kind]
        text = text[:tag.start()] + replacement + text[tag.end():]
    _check(read_page(text, "garbage", BERLIN))
