"""The vote scan read from Lexbor's DOM (``forum/dom_scan.py``) and the lazy content tree
(``forum/lazy.py``) against the reading they stand for: ``content.scan`` of the content
tree ``html_tree.convert`` builds, and that tree itself.

Differential, over every fixture, the threads of ``threadkit`` in each markup, the
benchmark's thread, and post markup made by hypothesis (nested quotes, colours in every
notation the colour module reads, strikes, spoilers, code, breaks, blocks, styles,
signatures and edit notices around the body): the same own BBCode, quotes' BBCode and red
runs, the same vote marks under both rule sets' patterns, the same ``Post.content`` (and
a post that equals, hashes, prints and pickles as the eager one)."""

from __future__ import annotations

import pickle
import sys
from pathlib import Path

from forumkit import BERLIN, FIXTURES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from selectolax.lexbor import LexborHTMLParser, LexborNode

from changelingskit import CHANGELINGS_VOTES
from nightfall.forum import ISLAND, Post, read_file, read_page
from nightfall.forum import detect as detect_module
from nightfall.forum import phpbb as phpbb_reader
from nightfall.forum.content import scan
from nightfall.forum.dom_scan import scan_dom
from nightfall.forum.html_tree import convert
from nightfall.forum.lazy import LazyPost, round_trips
from nightfall.forum.phpbb import Survey
from nightfall.forum.votes import vote_marks

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import votecount_bench

SETTINGS = settings(max_examples=300, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def _same_scan(body_html: str) -> None:
    """``scan_dom`` of the post body equals ``scan(convert(...))`` of it, with phpBB's
    dialect and with none, its answers asked of each element or kept by class."""
    tree = LexborHTMLParser(f"<html><body>{body_html}</body></html>")
    body = tree.css_first("div.content")
    assert body is not None
    for dialect in (phpbb_reader.dialect, None):
        eager = scan(convert(body, dialect) if dialect else convert(body))
        direct = scan_dom(body, dialect or (lambda node, classes: None))
        assert direct == eager, body_html
        # (phpBB's dialect reads classes only: its answers are kept by class attribute)
        assert scan_dom(body, dialect or (lambda node, classes: None), by_class=True) == eager
        # (a body of text alone is read in one call)
        assert scan_dom(body, dialect or (lambda node, classes: None), html=body.html) == eager


def _same_post(post: Post, eager_content: object | None = None) -> None:
    """A lazy post against the eager reading of the same body."""
    assert isinstance(post, LazyPost)
    scanned = post.vote_scan
    assert scanned is not None
    assert scanned == scan(post.content)
    if eager_content is not None:
        assert post.content == eager_content
    plain = Post(post.id, post.author, post.time, post.content, post.number, post.edited,
                 post.edited_at, post.file, post.position)
    assert post == plain and plain == post and hash(post) == hash(plain)
    assert repr(post) == repr(plain)
    assert pickle.loads(pickle.dumps(post)) == plain


def _eager_contents(text: str) -> list[object]:
    """Every phpBB post body of ``text`` converted at once, as before lazy posts."""
    tree = LexborHTMLParser(text)
    return [convert(body, phpbb_reader.dialect) for post in tree.css("div.post")
            if (body := phpbb_reader._parts(post).get("content")) is not None
            and "postbody" in phpbb_reader._parts(post)]


def _same_header_parts(text: str) -> None:
    """One query per post finds what ``header.css(...)`` of its author line found."""
    for post in LexborHTMLParser(text).css("div.post"):
        parts, in_header = phpbb_reader._post_parts(post)
        header = parts.get("author")
        expected = header.css(phpbb_reader._HEADER_PARTS) if header is not None else []
        assert [n.mem_id for n in in_header] == [n.mem_id for n in expected]


def _survey_of(text: str) -> Survey | None:
    return phpbb_reader.survey(LexborHTMLParser(text).css(detect_module._SURVEY))


def _same_survey(text: str) -> bool:
    """The page's one query (``phpbb.survey``) finds each post's parts and author line's
    candidates as one query per post does (``_post_parts``), the footer items as
    ``css(FOOTER)`` and the page as ``phpbb.detect`` does; whether it surveyed."""
    tree = LexborHTMLParser(text)
    surveyed = phpbb_reader.survey(tree.css(detect_module._SURVEY))
    if surveyed is None:
        return False

    def ids(items: list[tuple[LexborNode, dict[str, LexborNode], list[LexborNode]]]
            ) -> list[tuple[int, dict[str, int], list[int]]]:
        return [(node.mem_id, {k: v.mem_id for k, v in parts.items()},
                 [c.mem_id for c in candidates]) for node, parts, candidates in items]

    assert ids(surveyed.posts) == ids([(n, *phpbb_reader._post_parts(n))
                                       for n in tree.css("div.post")])
    assert [n.mem_id for n in surveyed.footer] == [n.mem_id for n in
                                                   tree.css(phpbb_reader.FOOTER)]
    assert surveyed.detected == phpbb_reader.detect(tree)
    return True


def _check_page(text: str, name: str) -> int:
    page = read_page(text, name, BERLIN)
    _same_header_parts(text)
    _same_survey(text)
    lazy = 0
    eager = _eager_contents(text) if page.format == "phpbb" else []
    for index, post in enumerate(page.posts):
        if isinstance(post, LazyPost):
            lazy += 1
            _same_post(post, eager[index] if len(eager) == len(page.posts) else None)
        for rules in (CHANGELINGS_VOTES, ISLAND):
            assert vote_marks(post, rules) == _marks_of_tree(post, rules)
    return lazy


def _marks_of_tree(post: Post, rules: object) -> object:
    """The vote marks read from the post's content tree (the reading before dom_scan)."""
    plain = Post(post.id, post.author, post.time, post.content, post.number, post.edited,
                 post.edited_at, post.file, post.position)
    return vote_marks(plain, rules)  # type: ignore[arg-type]


def test_every_fixture_and_the_benchmark_thread_read_the_same() -> None:
    lazy = 0
    for path in sorted(FIXTURES.glob("*.html")):
        lazy += _check_page(path.read_text(encoding="utf-8"), path.name)
        read_file(path, BERLIN)
    for number, text in enumerate(votecount_bench.generate(300)):
        lazy += _check_page(text, f"page{number}.html")
        assert _same_survey(text)  # the survey path was taken
    assert lazy > 300  # the lazy path was taken


_TWO_POSTS = votecount_bench.generate(2)[0]


def _edited(replace: str, by: str, count: int = 1) -> str:
    assert replace in _TWO_POSTS
    return _TWO_POSTS.replace(replace, by, count)


def test_the_survey_reads_what_each_post_query_reads_or_gives_up() -> None:
    """Markup the page's one query cannot tell apart is read post by post (``None``):
    a post inside a post, a second author line, a node of two roles, a class that
    differs in case from one (a quirks-mode page matches it); any other it reads as the
    post-by-post queries do."""
    quirks = _TWO_POSTS.split("\n", 1)[1]  # (no doctype: quirks)
    assert _same_survey(quirks)
    gives_up = [
        _edited('<div class="inner">', '<div class="inner"><div class="post">x</div>'),
        _edited('<div class="inner">', '<div class="inner"><p class="author">x</p>'),
        _edited('<div class="postbody">', '<div class="postbody post">'),
        _edited('<div class="content">', '<div class="content copyright">'),
        _edited('<p class="author">', '<p class="author right">'),
        _edited('<div class="content">', '<div class="content Notice">'),
        quirks.replace('<div class="content">', '<div class="Content">', 1),
        quirks.replace('class="post bg', 'class="Post bg', 1),
        _edited('<div class="inner">', '<div class="inner"><article class="message--post">'
                                       "x</article>"),
        _edited('<div class="inner">', '<div class="inner"><table id="post1"><tr><td>'
                                       '<div id="post_message_1">x</div></td></tr></table>'),
    ]
    for text in gives_up:
        assert _survey_of(text) is None, gives_up.index(text)
        _check_page(text, "p.html")
    reads = [
        _edited('<div class="content">', '<div class="content notice">'),
        _edited('<div class="content">', '<div class="notice content">'),
        _edited("<strong><a ", '<strong><a class="username username-coloured" '),
        _edited("<strong><a ", '<strong><a class="username Username" '),
        _edited('<div class="inner">', '<div class="inner"><p class="right">UTC</p>'),
        _edited('<div class="inner">', '<div class="inner"><div class="copyright">x</div>'),
        _edited('<div class="postbody">', '<div class="postbody content">'),
        _edited('<div class="postbody">', '<div class="postbody">'
                                          '<time datetime="2012-12-01T20:00:00Z">x</time>'),
        _edited('<p class="author">', '<p class="author"><time datetime="2012-12-01T20:00">'
                                      "</time>"),
        _edited('<div class="content">', '<div class="content Content">'),
        _edited('<div class="inner">', '<div class="inner"><div id="post_message_1">x</div>'),
        _edited('<div class="postbody">', '<div class="x">', 25),  # no post: not detected
    ]
    for text in reads:
        assert _same_survey(text), reads.index(text)
        _check_page(text, "p.html")


def test_threadkit_threads_read_the_same() -> None:
    from datetime import datetime

    import threadkit

    players = ["Ann", "Bob", "Dan", "Zoë"]
    votes = [(players[i % 4], players[(i + 1) % 4]) for i in range(9)]
    posts = threadkit.day_thread(datetime(2012, 12, 23, 20, 0, tzinfo=BERLIN), players,
                                 votes, extra=3)
    for address, text in threadkit.phpbb_pages(posts).items():
        assert _check_page(text, address) > 0


# -- generated post markup ----------------------------------------------------------------
_COLOURS = ["red", "Red", "#FF0000", "#f00", "#ff000080", "#f008", "rgb(255, 0, 0)",
            "rgb(100%, 0%, 0%)", "rgba(255,0,0,0.9)", "rgba(255,0,0,0.1)",
            "hsl(0, 100%, 50%)", "hsl(360deg 100% 40%)", "#AA0000", "#FF4000", "darkred",
            "crimson", "blue", "#00FF00", "inherit", "", "garbage", "ff0000", "#FF0000 ",
            "transparent", "#cc0000", "rgb(255 0 0 / 50%)"]
_NAMES = ["Ann", "Bob", "Dan the Man", "Jörg", "Zoë", " ", "  Bob  ", "Bo", "b",
          "unvote", "vote: Bob", "голос: Дан", "Ann, Bob", "x\ny"]


def _markup() -> st.SearchStrategy[str]:
    leaf = st.one_of(
        st.sampled_from(_NAMES).map(lambda name: name.replace("<", "&lt;")),
        st.sampled_from(["<br />", "<br>", "<hr>", " ", "&nbsp;", "&amp;", "\n", "",
                         "<img src='x.gif' alt='Bob'>", "<!-- Bob -->", "&#13;Bob",
                         "<script>Bob</script>", "<input value=Bob>", "vote:",
                         "<span style='color: red'></span>"]),
    )

    def wrap(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        inner = st.lists(children, max_size=4).map("".join)
        return st.one_of(
            st.tuples(st.sampled_from(_COLOURS), inner).map(
                lambda t: f'<span style="color: {t[0]}">{t[1]}</span>'),
            st.tuples(st.sampled_from(_COLOURS), inner).map(
                lambda t: f'<font color="{t[0]}">{t[1]}</font>'),
            st.tuples(st.sampled_from(_COLOURS), inner).map(
                lambda t: f"<span style='COLOR:{t[0]}; font-weight: bold'>{t[1]}</span>"),
            st.tuples(st.sampled_from(["font-weight: 700", "font-weight:bold",
                                       "font-weight: 400", "text-decoration: line-through",
                                       "color: red; text-decoration: LINE-THROUGH",
                                       "font-weight: 600; color: #f00", "color:", ";;",
                                       "color: blue; color: red"]), inner).map(
                lambda t: f'<span style="{t[0]}">{t[1]}</span>'),
            st.tuples(st.sampled_from(["b", "strong", "i", "em", "u", "ins", "s", "strike",
                                       "del", "code", "pre", "kbd", "span", "a", "div",
                                       "p", "li", "ul", "h3", "table", "td", "small",
                                       "sub", "center", "q", "cite", "dd", "xmp"]),
                      inner).map(lambda t: f"<{t[0]}>{t[1]}</{t[0]}>"),
            st.tuples(st.sampled_from(["", "Ann wrote:", "<a href='#'>Bob</a> wrote:",
                                       "Dan: ", "<a data-post-id='7'>Zoë</a> wrote:"]),
                      inner).map(lambda t: f"<blockquote><div><cite>{t[0]}</cite>{t[1]}"
                                           "</div></blockquote>"),
            st.tuples(st.sampled_from(["", "Ann wrote:"]), inner).map(
                lambda t: f"<blockquote><cite>{t[0]}</cite>{t[1]}</blockquote>"),
            inner.map(lambda t: f"<blockquote>{t}</blockquote>"),
            inner.map(lambda t: f'<div class="codebox"><p>Code:</p><code>{t}</code></div>'),
            inner.map(lambda t: f'<dl class="codebox"><dt>Code:</dt><dd>{t}</dd></dl>'),
            inner.map(lambda t: f'<div class="inline-attachment">{t}</div>'),
            inner.map(lambda t: f'<div style="display:none" class="spoiler">{t}</div>'),
            inner.map(lambda t: f"<b><i>{t}</b></i>"),  # misnested
            inner.map(lambda t: f"<a href='#'>{t}<a href='#'>x</a></a>"),  # a link in a link
        )

    return st.recursive(leaf, wrap, max_leaves=25)


@SETTINGS
@given(st.lists(_markup(), min_size=1, max_size=4).map("".join))
def test_generated_post_bodies_scan_the_same(body: str) -> None:
    _same_scan(f'<div class="content">{body}</div>')


_PAGE = votecount_bench.generate(1)[0]
_MARK = _PAGE[_PAGE.index('<div class="content">'):]
_MARK = _MARK[:_MARK.index("</div>\n") + len("</div>")]


@SETTINGS
@given(st.lists(_markup(), min_size=1, max_size=4).map("".join),
       st.sampled_from(["", '<div class="notice">Last edited by Ann on Mon Dec 24, 2012 '
                            '5:35 pm, edited 1 time in total.</div>',
                        '<div class="notice">edited ??</div>']),
       st.sampled_from(["", '<div class="signature"><span style="color: red">Bob</span>'
                            "</div>"]))
def test_generated_posts_read_the_same_lazily(body: str, notice: str, signature: str) -> None:
    text = _PAGE.replace(_MARK, f'<div class="content">{body}</div>{notice}{signature}')
    # the author line holds what a body may: a name in <strong> (or not), links, times
    text = text.replace("&raquo; ", f"<span class='username'>{body[:60]}</span> &raquo; ", 1)
    page = read_page(text, "generated.html", BERLIN)
    _same_header_parts(text)
    eager = _eager_contents(text)
    if not page.posts:  # (markup in the author line can break its date: an issue)
        assert page.issues
        return
    assert len(page.posts) == 1 and len(eager) == 1, page.issues
    post = page.posts[0]
    if isinstance(post, LazyPost):
        _same_post(post, eager[0])
    else:
        assert post.content == eager[0]
        assert not round_trips(LexborHTMLParser(text).css_first("div.content").html or "")
    for rules in (CHANGELINGS_VOTES, ISLAND):
        assert vote_marks(post, rules) == _marks_of_tree(post, rules)


def _detect_bbcode_by_lines(text: str) -> bool:
    """``exports.detect_bbcode`` as it was written: every line split first."""
    from nightfall.forum.exports import HEADER

    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        return HEADER.match(stripped) is not None
    return False


@SETTINGS
@given(st.lists(st.sampled_from(["\n", "\r\n", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e",
                                 "\x1f", "\x85", "\u2028", "\u2029", "\xa0", " ", "\t", "#",
                                 "---", "post", " post", "x", "<html>", "-- post"]),
                max_size=12).map("".join))
def test_the_bbcode_detection_reads_the_first_line_as_splitting_did(text: str) -> None:
    from nightfall.forum.exports import detect_bbcode

    assert detect_bbcode(text) == _detect_bbcode_by_lines(text)


def test_markup_deeper_than_the_tree_reads_scans_the_same() -> None:
    """Below ``html_tree.MAX_DEPTH`` an element is read as its text (an empty one too):
    red runs that start, go on or end there, around markup that ends no run."""
    red = '<span style="color: red">'
    for inner in ("", "Bob", " ", "<i></i>", "Bo<b>b</b>"):
        for after in ("", "<b>Bob</b>", f"{red}Dan</span>", " x", "<br>Bob"):
            for depth in (62, 63, 64, 65, 70):
                _same_scan(f'<div class="content">{red * depth}{inner}{"</span>" * depth}'
                           f"{after}</div>")
                _same_scan(f'<div class="content">{red}Ann</span>{"<b>" * depth}{inner}'
                           f'{"</b>" * depth}{after}</div>')


def test_a_body_of_text_alone_scans_the_same() -> None:
    """Read in one call when nothing but text is inside the body's tags; an attribute
    with ``<`` or ``>`` in it neither hides markup nor makes text markup."""
    for body in ('<div class="content">Bob &lt;3 &amp; vote: Ann</div>',
                 '<div class="content">  \n </div>', '<div class="content"></div>',
                 '<div class="content" title="a>b">vote: Bob</div>',
                 '<div class="content" title="a<b">vote: Bob</div>',
                 '<div class="content" title="x>y<z">vote: <b>Bob</b></div>',
                 '<div class="content" title="x>y"><span style="color:red">Bob</span></div>',
                 '<div class="content">Bob<!-- Ann --></div>',
                 '<div class="content">&nbsp;Bob&#13;</div>'):
        _same_scan(body)
