"""Per-format parsing: authors, ids, numbers, times and zones, edits, quotes (nested, with
their authors), signatures and code left out, each engine's quirks."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest
from forumkit import BERLIN, FIXTURES

from nightfall.forum import Element, NodeKind, Page, Post, read_file, read_page
from nightfall.forum.bbcode import parse_bbcode
from nightfall.forum.content import scan
from nightfall.forum.detect import decode

MOSCOW = ZoneInfo("Europe/Moscow")


def _read(name: str, tz: ZoneInfo = BERLIN) -> Page:
    return read_file(FIXTURES / name, tz)


def _by_id(page: Page) -> dict[str, Post]:
    return {post.id: post for post in page.posts}


def _quote_authors(node: Element) -> list[object]:
    """Quote authors, nested ones as nested lists."""
    result: list[object] = []
    for child in node.children:
        if isinstance(child, Element):
            if child.kind is NodeKind.QUOTE:
                result.append(child.author)
                inner = _quote_authors(child)
                if inner:
                    result.append(inner)
            else:
                result.extend(_quote_authors(child))
    return result


def _red(post: Post) -> tuple[list[str], list[str]]:
    found = scan(post.content).red
    return ([f.text for f in found if not f.quoted], [f.text for f in found if f.quoted])


class TestPhpbb30:
    page = _read("phpbb3_day2.html")
    posts = _by_id(page)

    def test_format_and_posts(self) -> None:
        assert self.page.format == "phpbb"
        assert self.page.issues == ()
        assert list(self.posts) == ["p4999", "p5001", "p5002", "p5003", "p5004", "p5005",
                                    "p5006", "p5007", "p5008", "p5009", "p5011", "p5010"]

    def test_author_with_space_and_coloured_name(self) -> None:
        assert self.posts["p5002"].author == "Anna Bell"
        assert self.posts["p5006"].author == "Zoë K"
        assert self.posts["p5001"].author == "Spielleiter"

    def test_time_in_the_board_zone_of_the_footer(self) -> None:
        moment = self.posts["p5002"].time
        assert moment.utcoffset() == timedelta(hours=1)
        assert moment.astimezone(UTC) == datetime(2012, 12, 23, 20, 15, tzinfo=UTC)

    def test_edit_notice(self) -> None:
        edited = self.posts["p5005"]
        assert edited.edited and edited.edited_at is not None
        assert edited.edited_at.replace(tzinfo=None) == datetime(2012, 12, 24, 11, 5)
        assert not self.posts["p5006"].edited

    def test_signature_is_not_content(self) -> None:
        own, quoted = _red(self.posts["p5002"])
        assert own == ["Bob"] and quoted == []
        assert "Ponys für immer" not in self.posts["p5002"].text

    def test_nested_quotes_keep_their_authors(self) -> None:
        post = self.posts["p5004"]
        assert _quote_authors(post.content) == ["Bob", ["Anna Bell"], None]
        own, quoted = _red(post)
        assert own == ["Zoë"]
        assert sorted(quoted) == ["Bob", "dan the man"]
        assert "wrote:" not in post.text and "Ihr zwei schon wieder." in post.text

    def test_code_box_is_not_text(self) -> None:
        post = self.posts["p5006"]
        assert _red(post) == (["Bob"], [])
        assert "Dana" not in post.text

    def test_nested_styles(self) -> None:
        assert _red(self.posts["p5009"]) == (["Bob"], [])


class TestPhpbb32:
    page = _read("phpbb32_day3.html")
    posts = _by_id(page)

    def test_time_element_and_zone_name(self) -> None:
        moment = self.posts["p201"].time
        assert moment == datetime(2012, 12, 24, 17, 0, tzinfo=BERLIN)
        assert str(moment.tzinfo) == "Europe/Berlin"

    def test_cite_with_link_names_the_author_and_source(self) -> None:
        (quote,) = self.posts["p202"].quotes
        assert quote.author == "Ann" and quote.source == "p201"
        assert "wrote" not in self.posts["p202"].text

    def test_truncated_page_drops_its_last_post(self) -> None:
        page = _read("phpbb32_truncated.html")
        assert [p.id for p in page.posts] == ["p201", "p202", "p203"]
        (issue,) = page.issues
        assert issue.post == "p204" and "truncated" in issue.message
        assert issue.file.endswith("phpbb32_truncated.html")


class TestVbulletin4:
    page = _read("vbulletin4_day2.html")
    posts = _by_id(page)

    def test_posts_numbers_and_non_ascii_authors(self) -> None:
        assert self.page.format == "vbulletin4"
        assert self.posts["post7003"].author == "Mjölnir"
        assert self.posts["post7005"].author == "Ærwen"
        assert [p.number for p in self.page.posts] == [1, 2, 3, 4, 5, 6, 7]

    def test_deleted_post_is_left_out_and_authorless_post_reported(self) -> None:
        assert "post7008" not in self.posts
        (issue,) = self.page.issues
        assert issue.post == "post7009" and issue.message == "post without author"

    def test_the_body_blockquote_is_not_a_quote(self) -> None:
        assert self.posts["post7001"].quotes == ()
        assert _red(self.posts["post7001"]) == (["Bob"], [])

    def test_bbcode_quotes_nested(self) -> None:
        post = self.posts["post7004"]
        assert _quote_authors(post.content) == ["Bob", ["Ines"]]
        assert "Originally Posted by" not in post.text
        assert _red(post)[0] == ["Mjolnir"]

    def test_font_colour_any_case_and_signature(self) -> None:
        assert _red(self.posts["post7003"]) == (["Hakon"], [])

    def test_lastedited_and_footer_zone(self) -> None:
        post = self.posts["post7005"]
        assert post.edited
        assert post.edited_at == datetime(2012, 12, 24, 17, 12,
                                          tzinfo=timezone(timedelta(hours=1)))
        assert post.time.utcoffset() == timedelta(hours=1)

    def test_code_block(self) -> None:
        assert _red(self.posts["post7007"]) == (["ærwen"], [])


class TestVbulletin3:
    page = _read("vbulletin3_day1.html")
    posts = _by_id(page)

    def test_posts(self) -> None:
        assert self.page.format == "vbulletin3"
        assert [(p.id, p.number, p.author) for p in self.page.posts] == [
            ("post101", 1, "Ann"), ("post102", 2, "Bob"), ("post103", 3, "Cy")]

    def test_quote_box_and_edit_note(self) -> None:
        (quote,) = self.posts["post102"].quotes
        assert quote.author == "Ann"
        assert _red(self.posts["post102"]) == (["Cy"], ["Bob"])
        assert "Quote:" not in self.posts["post102"].text
        assert self.posts["post103"].edited and not self.posts["post101"].edited

    def test_signature_outside_the_message(self) -> None:
        assert _red(self.posts["post101"]) == (["Bob"], [])


class TestXenforo2:
    page = _read("xenforo2_day1.html")
    posts = _by_id(page)

    def test_posts(self) -> None:
        assert self.page.format == "xenforo2"
        assert self.posts["post-9003"].author == "T3G Silas"
        assert self.posts["post-9003"].number == 3
        assert self.posts["post-9001"].time == datetime(2012, 12, 24, 9, 0, tzinfo=BERLIN)

    def test_quotes_nested_with_source_and_no_title(self) -> None:
        post = self.posts["post-9003"]
        assert _quote_authors(post.content) == ["Zed", ["dieketzer"]]
        assert post.quotes[0].source == "post-9002"
        assert "said:" not in post.text and "Click to expand" not in post.text
        assert _red(post) == (["Anna"], ["Zed", "t3g_silas"])

    def test_editor_red_and_last_edit(self) -> None:
        post = self.posts["post-9005"]
        assert post.edited and post.edited_at == datetime(2012, 12, 24, 15, 3, tzinfo=BERLIN)

    def test_signature_and_code_and_blue(self) -> None:
        assert _red(self.posts["post-9004"]) == (["Ann"], [])
        assert _red(self.posts["post-9006"]) == (["Dieketzer"], [])


class TestDiscourse:
    page = _read("discourse_topic.json")
    posts = _by_id(page)

    def test_posts(self) -> None:
        assert self.page.format == "discourse"
        assert list(self.posts) == ["#1", "#2", "#3", "#4", "#6"]  # #5 is a small action
        assert self.posts["#2"].author == "bob_b" and self.posts["#2"].number == 2
        assert self.posts["#1"].time == datetime(2012, 12, 24, 9, 0, tzinfo=BERLIN)

    def test_version_marks_edits(self) -> None:
        assert self.posts["#3"].edited and not self.posts["#1"].edited
        assert self.posts["#3"].edited_at == datetime(2012, 12, 24, 11, 6, 41, tzinfo=BERLIN)

    def test_aside_quote(self) -> None:
        (quote,) = self.posts["#2"].quotes
        assert quote.author == "alice" and quote.source == "#1"
        assert "alice:" not in self.posts["#2"].text
        assert _red(self.posts["#2"]) == (["Carol"], ["bob b"])

    def test_mention_and_inline_code(self) -> None:
        assert _red(self.posts["#4"]) == (["@alice"], [])

    def test_updated_at_without_version(self) -> None:
        data = (FIXTURES / "discourse_topic.json").read_text(encoding="utf-8")
        data = data.replace('"version": 2,', "")
        page = read_page(data, "topic.json", BERLIN)
        assert _by_id(page)["#3"].edited


class TestExports:
    def test_bbcode_file(self) -> None:
        page = _read("day4.bbcode")
        assert page.format == "bbcode" and page.issues == ()
        posts = _by_id(page)
        assert posts["p7"].edited
        assert posts["p7"].edited_at == datetime(2012, 12, 24, 18, 33, tzinfo=BERLIN)
        (quote,) = posts["p6"].quotes
        assert quote.author == "Bob" and quote.source == "p2"
        assert "Gesendet von meinem Smartphone" in posts["p2"].text

    def test_bbcode_file_zone_comment(self) -> None:
        page = _read("island_day3.bbcode", BERLIN)
        assert page.posts[0].time == datetime(2012, 12, 24, 10, 0, tzinfo=MOSCOW)

    def test_bbcode_header_errors_are_reported(self) -> None:
        text = (
            "--- post a1 | author: Ann | time: 2012-12-24 18:00\nok\n"
            "--- post a2 | time: 2012-12-24 18:00\nno author\n"
            "--- post a3 | author: Bob | time: tomorrow\nbad time\n"
            "--- post a4 | author: Bob | time: 2012-12-24 18:00 | mood: happy\nx\n"
            "--- post a5 | author Bob\nx\n"
        )
        page = read_page(text, "t.bbcode", BERLIN)
        assert [p.id for p in page.posts] == ["a1"]
        assert [(i.post, i.message.split(" ")[0]) for i in page.issues] == [
            ("a2", "post"), ("a3", "no"), ("a4", "unknown"), ("line 9", "header")]

    def test_jsonl_lines_and_array(self) -> None:
        page = _read("day1.jsonl")
        assert page.format == "jsonl"
        assert [p.id for p in page.posts] == ["p1040", "p1041", "p1043", "p1044", "p1045",
                                              "p1048"]
        assert _by_id(page)["p1043"].edited
        array = '[{"author": "Ann", "time": "2012-12-24 18:00", "content": "[b]hi[/b]"}]'
        page = read_page(array, "a.json", BERLIN)
        assert page.format == "jsonl" and page.posts[0].id == "[0]"


class TestDetection:
    @pytest.mark.parametrize(
        ("data", "message"),
        [
            ("", "empty file"),
            ("just some notes\n", "unknown format"),
            ("<html><body><p>Hello</p></body></html>", "unknown format (HTML"),
            ('{"title": "x"}', "unknown format (JSON"),
            ("{broken", "unknown format (invalid JSON"),
        ],
    )
    def test_unknown_formats(self, data: str, message: str) -> None:
        page = read_page(data, "x", BERLIN)
        assert not page.usable and page.format is None
        assert page.issues[0].message.startswith(message)

    def test_overlapping_copy_of_a_post_counts_once(self) -> None:
        text = (FIXTURES / "phpbb3_day2.html").read_text(encoding="utf-8")
        doubled = text.replace('<hr class="divider" />', text.split('<hr class="divider" />')[0]
                               [text.index('<div id="p4999"'):] + '<hr class="divider" />', 1)
        page = read_page(doubled, "x.html", BERLIN)
        assert [p.id for p in page.posts].count("p4999") == 1

    def test_decoding_legacy_charsets(self) -> None:
        html = ('<html><head><meta charset="windows-1252"></head><body>'
                '<div id="p1" class="post"><div class="postbody"><p class="author">by '
                '<strong>Zoë</strong> » Mon Dec 24, 2012 5:00 pm</p>'
                '<div class="content"><span style="color: red">Björn</span></div></div></div>'
                '</body></html>')
        page = read_page(html.encode("cp1252"), "old.html", BERLIN)
        assert page.posts[0].author == "Zoë"
        assert _red(page.posts[0]) == (["Björn"], [])
        assert decode(b"\xef\xbb\xbfabc") == "abc"


class TestBBCode:
    def test_unknown_and_unmatched_tags_stay_text(self) -> None:
        tree = parse_bbcode("[foo]x[/foo] [b]y[/i] z[/b] [/quote]")
        assert "[foo]x[/foo]" in _plain(tree) and "[/i]" in _plain(tree)
        assert "[/quote]" in _plain(tree)

    def test_quote_options(self) -> None:
        tree = parse_bbcode('[QUOTE="T3G Silas, post: 114210, member: 496"]a[/QUOTE]'
                            "[quote=Ann]b[/quote][quote]c[/quote]")
        quotes = [c for c in tree.children if isinstance(c, Element)]
        assert [(q.author, q.source) for q in quotes] == [
            ("T3G Silas", "post-114210"), ("Ann", None), (None, None)]

    def test_unclosed_tags_close_at_the_end_and_code_is_raw(self) -> None:
        tree = parse_bbcode("[color=red]Bob [code][color=red]X[/color][/code]")
        assert [f.text for f in scan(tree).red] == ["Bob"]

    def test_red_runs(self) -> None:
        tree = parse_bbcode("[color=red]Bo[/color][color=#f00]b[/color] x [color=red]A[/color]\n"
                            "[color=red]Dan[/color] [color=red]Smith[/color]")
        assert [f.text for f in scan(tree).red] == ["Bob", "A", "Dan Smith"]

    def test_struck_votes_do_not_count(self) -> None:
        tree = parse_bbcode("[s][color=red]Bob[/color][/s] [color=red]Dan[/color]")
        assert [f.text for f in scan(tree).red] == ["Dan"]


def _plain(tree: Element) -> str:
    from nightfall.forum.content import plain_text

    return plain_text(tree)
