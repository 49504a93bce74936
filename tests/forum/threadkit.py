"""Multi-page threads in each forum's own markup, built in code for the fetch tests.

Each builder turns a list of :class:`TPost` into the pages a forum would serve (address →
bytes), with the forum's pagination (phpBB ``start=`` with ``sid`` on guests' links and a
print view; vBulletin 4 ``/pageN`` behind ``<base href>`` with ``rel="next"``; vBulletin
3 ``&page=N`` in ``div.pagenav``; XenForo 2 ``page-N`` with ``<link rel="next">`` and a
windowed ``pageNav``; Discourse's ``/t/<id>.json`` plus ``posts.json`` chunks), and the
noise real pages carry: navigation, signatures with red text, quotes of votes, links to
other topics, scripts. The markup is written after the forums' templates, by hand.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

BERLIN = ZoneInfo("Europe/Berlin")


@dataclass(frozen=True)
class TPost:
    """A post: ``body`` is the forum's rendered HTML of the post's text (``{red:Name}``
    becomes the forum's red, ``{quote:Author:text}`` a quote)."""

    number: int
    author: str
    when: datetime
    body: str
    edited: datetime | None = None
    signature: str = ""


def red(name: str) -> str:
    return f"{{red:{name}}}"


def bold(name: str) -> str:
    return f"{{bold:{name}}}"


def quote(author: str, text: str) -> str:
    return f"{{quote:{author}:{text}}}"


def _render(body: str, red_html: str, quote_html: str) -> str:
    out = []
    rest = body
    while "{" in rest:
        before, _, tail = rest.partition("{")
        token, _, rest = tail.partition("}")
        out.append(html.escape(before))
        kind, _, value = token.partition(":")
        if kind == "red":
            out.append(red_html.format(html.escape(value)))
        elif kind == "bold":
            out.append(f"<strong>{html.escape(value)}</strong>")
        elif kind == "quote":
            author, _, text = value.partition(":")
            out.append(quote_html.format(author=html.escape(author),
                                         text=_render(text, red_html, quote_html)))
    out.append(html.escape(rest))
    return "".join(out)


def day_thread(start: datetime, players: list[str], votes: list[tuple[str, str]],
               extra: int = 0) -> list[TPost]:
    """A day's thread from ``start``: a GM opening post, then for each (voter, target) a
    post with the red vote, every third one quoting the previous vote, and ``extra``
    chatter posts; a signature with a red name on some posts (never a vote)."""
    posts = [TPost(1, "Spielleiter", start + timedelta(minutes=1),
                   f"Tag beginnt. Abstimmung in Rot, z. B. {red(players[0])}.")]
    minute = 5
    for index, (voter, target) in enumerate(votes):
        body = f"Ich stimme für {red(target)}."
        if index % 3 == 2 and index:
            prev_voter, prev_target = votes[index - 1]
            body = quote(prev_voter, f"Ich stimme für {red(prev_target)}.") + " " + body
        posts.append(TPost(len(posts) + 1, voter, start + timedelta(minutes=minute), body,
                           signature=red(players[-1]) + " for president" if index % 4 == 1
                           else ""))
        minute += 7
    for n in range(extra):
        posts.append(TPost(len(posts) + 1, players[n % len(players)],
                           start + timedelta(minutes=minute), f"Nur Gerede, Nummer {n}."))
        minute += 3
    return sorted(posts, key=lambda p: p.when)


def pages_of(posts: list[TPost], per_page: int) -> list[list[TPost]]:
    return [posts[at:at + per_page] for at in range(0, len(posts), per_page)] or [[]]


def with_body(posts: list[TPost], number: int, body: str,
              edited: datetime | None = None) -> list[TPost]:
    """``posts`` with post ``number`` rewritten (and marked edited at ``edited``)."""
    return [replace(p, body=body, edited=edited) if p.number == number else p for p in posts]


# -- phpBB 3.2 prosilver ------------------------------------------------------------------
PHPBB_RED = '<span style="color:#FF0000">{}</span>'
PHPBB_QUOTE = '<blockquote><div><cite>{author} wrote:</cite>{text}</div></blockquote>'


def phpbb_pages(posts: list[TPost], topic: int = 77, forum: int = 3, per_page: int = 5,
                sid: str = "0123456789abcdef") -> dict[str, str]:
    """``/viewtopic.php?f=&t=[&start=]`` → page."""
    chunks = pages_of(posts, per_page)
    result = {}
    for index, chunk in enumerate(chunks):
        start = index * per_page
        link = f"./viewtopic.php?f={forum}&amp;t={topic}"
        items = []
        for other in range(len(chunks)):
            if other == index:
                items.append(f'<li class="active"><span>{other + 1}</span></li>')
            elif abs(other - index) <= 1 or other in (0, len(chunks) - 1):
                query = f"&amp;start={other * per_page}" if other else ""
                items.append(f'<li><a class="button" href="{link}{query}&amp;sid={sid}" '
                             f'role="button">{other + 1}</a></li>')
            elif abs(other - index) == 2:
                items.append('<li class="ellipsis" role="separator"><span>…</span></li>')
        if index + 1 < len(chunks):
            items.append(f'<li class="arrow next"><a class="button button-icon-only" '
                         f'href="{link}&amp;start={(index + 1) * per_page}&amp;sid={sid}" '
                         f'rel="next" role="button">Next</a></li>')
        pagination = (f'<div class="pagination">{len(posts)} posts <ul>{"".join(items)}</ul>'
                      '</div>')
        body = "".join(_phpbb_post(p, forum, topic) for p in chunk)
        page = f"""<!DOCTYPE html>
<html dir="ltr" lang="de">
<head><meta charset="utf-8" /><title>Changelings 9 – Tag 2 - Ponyville Forum</title>
<link rel="canonical" href="./viewtopic.php?t={topic}{f'&amp;start={start}' if start else ''}">
<script>var on_page = '{index + 1}';</script></head>
<body id="phpbb" class="nojs notouch section-viewtopic ltr">
<div id="wrap" class="wrap">
<div class="navbar"><ul class="nav-main linklist"><li><a href="./index.php?sid={sid}">Board index</a></li>
<li><a href="./ucp.php?mode=login&amp;sid={sid}">Login</a></li>
<li><a href="./viewforum.php?f={forum}&amp;sid={sid}">Werwolf &amp; Co.</a></li></ul></div>
<div id="page-body" class="page-body">
<h2 class="topic-title"><a href="./viewtopic.php?f={forum}&amp;t={topic}&amp;sid={sid}">Changelings 9 – Tag 2</a></h2>
<div class="action-bar bar-top">{pagination}
<a href="./viewtopic.php?f={forum}&amp;t={topic}&amp;start={start}&amp;view=print&amp;sid={sid}">Print view</a></div>
{body}
<div class="action-bar bar-bottom">{pagination}</div>
<p><a href="./viewtopic.php?f={forum}&amp;t={topic}&amp;view=next&amp;sid={sid}">Next topic</a></p>
</div>
<div class="copyright">Powered by phpBB &copy; phpBB Limited</div>
</div></body></html>
"""
        query = f"&start={start}" if start else ""
        result[f"/viewtopic.php?f={forum}&t={topic}{query}"] = page
        result[f"/viewtopic.php?t={topic}{query}"] = page  # the canonical spelling
    return result


def _phpbb_post(post: TPost, forum: int, topic: int) -> str:
    pid = 5000 + post.number
    notice = ""
    if post.edited is not None:
        notice = (f'<div class="notice">Last edited by {html.escape(post.author)} on '
                  f'{post.edited.astimezone(BERLIN):%a %b %d, %Y %I:%M %p}, '
                  'edited 1 time in total.</div>')
    signature = (f'<div id="sig{pid}" class="signature">'
                 f'{_render(post.signature, PHPBB_RED, PHPBB_QUOTE)}</div>'
                 if post.signature else "")
    return f"""<div id="p{pid}" class="post has-profile bg{post.number % 2 + 1}">
<div class="inner"><dl class="postprofile" id="profile{pid}"><dt><a href="./memberlist.php?mode=viewprofile&amp;u={post.number}" class="username">{html.escape(post.author)}</a></dt></dl>
<div class="postbody"><div id="post_content{pid}">
<h3><a href="#p{pid}">Re: Changelings 9 – Tag 2</a></h3>
<p class="author"><a class="unread" href="./viewtopic.php?p={pid}#p{pid}" title="Post"><i class="icon fa-file fa-fw"></i></a><span class="responsive-hide">by <strong><a href="./memberlist.php?mode=viewprofile&amp;u={post.number}" class="username">{html.escape(post.author)}</a></strong> &raquo; </span><time datetime="{post.when.astimezone(UTC).isoformat()}">{post.when:%a %b %d, %Y %I:%M %p}</time></p>
<div class="content">{_render(post.body, PHPBB_RED, PHPBB_QUOTE)}</div>
{notice}{signature}</div></div></div></div>
<hr class="divider" />
"""


# -- vBulletin 4 ------------------------------------------------------------------------------
VB4_RED = '<font color="Red">{}</font>'
VB4_QUOTE = ('<div class="bbcode_container"><div class="bbcode_quote"><div class="quote_container">'
             '<div class="bbcode_quote_container"></div><div class="bbcode_postedby">'
             'Originally Posted by <strong>{author}</strong></div>'
             '<div class="message">{text}</div></div></div></div>')


def vb4_pages(posts: list[TPost], thread: int = 5512, per_page: int = 4,
              slug: str = "Changeling-Game-7-Day-2") -> dict[str, str]:
    """``/showthread.php/<id>-<slug>[/pageN]`` → page (links relative to ``<base>``)."""
    chunks = pages_of(posts, per_page)
    result = {}
    for index, chunk in enumerate(chunks):
        number = index + 1
        path = f"showthread.php/{thread}-{slug}" + (f"/page{number}" if number > 1 else "")
        spans = "".join(
            f'<span class="selected"><a href="javascript://">{n}</a></span>' if n == number
            else f'<span><a href="showthread.php/{thread}-{slug}'
                 f'{f"/page{n}" if n > 1 else ""}">{n}</a></span>'
            for n in range(1, len(chunks) + 1))
        next_link = (f'<span class="prev_next"><a rel="next" href="showthread.php/{thread}-'
                     f'{slug}/page{number + 1}">Next</a></span>'
                     if number < len(chunks) else "")
        pagination = (f'<form action="{path}" method="get" class="pagination popupmenu">'
                      f'<span><a href="javascript://" class="popupctrl">Page {number} of '
                      f'{len(chunks)}</a></span>{spans}{next_link}</form>')
        items = "".join(_vb4_post(p, thread, slug) for p in chunk)
        result["/" + path] = f"""<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" dir="ltr" lang="en">
<head><base href="{{base}}/" /><meta http-equiv="Content-Type" content="text/html; charset=utf-8" />
<meta name="generator" content="vBulletin 4.2.5" />
<link rel="canonical" href="showthread.php/{thread}-{slug}" /><title>Changeling Game 7 - Day 2</title></head>
<body><div class="above_body"><a href="forum.php">Forum</a> <a href="login.php?do=login">Log in</a></div>
<div id="pagination_top" class="pagination_top">{pagination}</div>
<div id="postlist" class="postlist restrain"><ol id="posts" class="posts" start="1">{items}</ol></div>
<div id="pagination_bottom" class="pagination_bottom">{pagination}</div>
<div id="footer_time" class="shade footer_time">All times are GMT +1. The time now is <span class="time">08:00 PM</span>.</div>
</body></html>
"""
    return result


def _vb4_post(post: TPost, thread: int, slug: str) -> str:
    pid = 7000 + post.number
    local = post.when.astimezone(BERLIN)
    edited = ""
    if post.edited is not None:
        edited = (f'<blockquote class="postcontent lastedited">Last edited by '
                  f'{html.escape(post.author)}; {post.edited.astimezone(BERLIN):%m-%d-%Y} at '
                  f'<span class="time">{post.edited.astimezone(BERLIN):%I:%M %p}</span>.'
                  '</blockquote>')
    signature = (f'<div class="after_content"><blockquote class="signature restore">'
                 f'<div class="signaturecontainer">'
                 f'{_render(post.signature, VB4_RED, VB4_QUOTE)}</div></blockquote></div>'
                 if post.signature else "")
    return f"""<li class="postbitlegacy postbitim postcontainer old" id="post_{pid}">
<div class="posthead"><span class="postdate old"><span class="date">{local:%m-%d-%Y},&nbsp;<span class="time">{local:%I:%M %p}</span></span></span>
<span class="nodecontrols"><a name="post{pid}" href="showthread.php/{thread}-{slug}?p={pid}&amp;viewfull=1#post{pid}" class="postcounter">#{post.number}</a></span></div>
<div class="postdetails"><div class="userinfo"><div class="username_container"><div class="popupmenu memberaction">
<a class="username offline popupctrl" href="member.php/{post.number}-x" title="{html.escape(post.author)} is offline"><strong>{html.escape(post.author)}</strong></a></div></div></div>
<div class="postbody"><div class="postrow"><div class="content"><div id="post_message_{pid}">
<blockquote class="postcontent restore ">{_render(post.body, VB4_RED, VB4_QUOTE)}</blockquote></div></div>
{edited}</div>{signature}</div></div></li>
"""


# -- vBulletin 3 ------------------------------------------------------------------------------
VB3_RED = '<font color="red">{}</font>'
VB3_QUOTE = ('<div style="margin:20px; margin-top:5px; "><div class="smallfont" '
             'style="margin-bottom:2px">Quote:</div><table cellpadding="6" cellspacing="0" '
             'border="0" width="100%"><tr><td class="alt2" style="border:1px inset">'
             '<div>Originally Posted by <strong>{author}</strong></div>'
             '<div style="font-style:italic">{text}</div></td></tr></table></div>')


def vb3_pages(posts: list[TPost], thread: int = 88, per_page: int = 3) -> dict[str, str]:
    """``/showthread.php?t=<id>[&page=N]`` → page."""
    chunks = pages_of(posts, per_page)
    result = {}
    for index, chunk in enumerate(chunks):
        number = index + 1
        cells = "".join(
            f'<td class="alt2"><span class="smallfont"><strong>{n}</strong></span></td>'
            if n == number else
            f'<td class="alt1"><a class="smallfont" href="showthread.php?t={thread}'
            f'{f"&amp;page={n}" if n > 1 else ""}"'
            f'{" rel=next" if n == number + 1 else ""}>{n}</a></td>'
            for n in range(1, len(chunks) + 1))
        nav = (f'<div class="pagenav" align="right"><table class="tborder"><tr>'
               f'<td class="vbmenu_control">Page {number} of {len(chunks)}</td>{cells}'
               '</tr></table></div>')
        items = "".join(_vb3_post(p) for p in chunk)
        target = f"/showthread.php?t={thread}" + (f"&page={number}" if number > 1 else "")
        result[target] = f"""<html><head><meta name="generator" content="vBulletin 3.8.7" />
<meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-1" /><title>Day 1</title></head>
<body><table><tr><td><a href="forumdisplay.php?f=2">Games</a></td><td>{nav}</td></tr></table>
<div id="posts">{items}</div>{nav}
<div class="smallfont" align="center">All times are GMT +1. The time now is 08:00 PM.</div>
</body></html>
"""
    return result


def _vb3_post(post: TPost) -> str:
    pid = 100 + post.number
    local = post.when.astimezone(BERLIN)
    edit = ""
    if post.edited is not None:
        edit = (f'<!-- edit note --><div class="smallfont"><hr size="1" /><em>Last edited by '
                f'{html.escape(post.author)} : {post.edited.astimezone(BERLIN):%m-%d-%Y} at '
                f'<span class="time">{post.edited.astimezone(BERLIN):%I:%M %p}</span>.</em>'
                '</div><!-- / edit note -->')
    return f"""<div id="edit{pid}"><table id="post{pid}" class="tborder" width="100%"><tr>
<td class="thead"><a name="post{pid}"></a>{local:%m-%d-%Y, %I:%M %p}</td>
<td class="thead" align="right">#<a href="showpost.php?p={pid}&amp;postcount={post.number}" id="postcount{pid}" name="{post.number}"><strong>{post.number}</strong></a></td></tr>
<tr valign="top"><td class="alt2" width="175"><div id="postmenu_{pid}"><a class="bigusername" href="member.php?u={post.number}">{html.escape(post.author)}</a></div></td>
<td class="alt1" id="td_post_{pid}"><!-- message --><div id="post_message_{pid}">{_render(post.body, VB3_RED, VB3_QUOTE)}</div><!-- / message -->
{edit}</td></tr></table></div>
"""


# -- XenForo 2 --------------------------------------------------------------------------------
XF_RED = '<span style="color: rgb(184, 49, 47)">{}</span>'
XF_QUOTE = ('<blockquote class="bbCodeBlock bbCodeBlock--expandable bbCodeBlock--quote" '
            'data-quote="{author}"><div class="bbCodeBlock-title">{author} said:</div>'
            '<div class="bbCodeBlock-content"><div class="bbCodeBlock-expandContent">{text}'
            '</div><div class="bbCodeBlock-expandLink"><a>Click to expand...</a></div></div>'
            '</blockquote>')


def xf2_pages(posts: list[TPost], thread: int = 3301, per_page: int = 4,
              slug: str = "changelings-9-day-2") -> dict[str, str]:
    """``/threads/<slug>.<id>/[page-N]`` → page."""
    chunks = pages_of(posts, per_page)
    base = f"/threads/{slug}.{thread}/"
    result = {}
    for index, chunk in enumerate(chunks):
        number = index + 1
        items = []
        for n in range(1, len(chunks) + 1):  # a window: first, last, neighbours
            if n in (1, len(chunks)) or abs(n - number) <= 1:
                current = " pageNav-page--current" if n == number else ""
                href = base + (f"page-{n}" if n > 1 else "")
                items.append(f'<li class="pageNav-page{current}"><a href="{href}">{n}</a></li>')
            elif abs(n - number) == 2:
                items.append('<li class="pageNav-page pageNav-page--skip">…</li>')
        head = ""
        if number > 1:
            head += f'<link rel="prev" href="{base}{f"page-{number - 1}" if number > 2 else ""}" />'
        if number < len(chunks):
            head += f'<link rel="next" href="{base}page-{number + 1}" />'
        nav = (f'<nav class="pageNavWrapper pageNavWrapper--mixed"><div class="pageNav">'
               f'<ul class="pageNav-main">{"".join(items)}</ul></div></nav>')
        body = "".join(_xf2_post(p, base) for p in chunk)
        target = base + (f"page-{number}" if number > 1 else "")
        result[target] = f"""<!DOCTYPE html>
<html id="XF" lang="en-US" dir="LTR" data-app="public" data-template="thread_view">
<head><meta charset="utf-8" /><title>Changelings 9 - Day 2 | Forum</title>
<link rel="canonical" href="{{base}}{target}" />{head}</head>
<body data-template="thread_view"><div class="p-nav"><a href="/forums/games.7/">Games</a> <a href="/login/">Log in</a></div>
<div class="block-outer">{nav}</div>
<div class="block-body js-replyNewMessageContainer">{body}</div>
<div class="block-outer block-outer--after">{nav}</div>
<script>XF.ready(function(){{}});</script></body></html>
"""
    return result


def _xf2_post(post: TPost, base: str) -> str:
    pid = 9000 + post.number
    edit = ""
    if post.edited is not None:
        stamp = int(post.edited.timestamp())
        edit = (f'<div class="message-lastEdit">Last edited: <time class="u-dt" '
                f'datetime="{post.edited.isoformat()}" data-time="{stamp}">x</time></div>')
    signature = (f'<aside class="message-signature"><div class="bbWrapper">'
                 f'{_render(post.signature, XF_RED, XF_QUOTE)}</div></aside>'
                 if post.signature else "")
    return f"""<article class="message message--post js-post js-inlineModContainer" data-author="{html.escape(post.author)}" data-content="post-{pid}" id="js-post-{pid}">
<div class="message-inner"><div class="message-cell message-cell--user"><h4 class="message-name"><a href="/members/x.{post.number}/" class="username">{html.escape(post.author)}</a></h4></div>
<div class="message-cell message-cell--main"><div class="message-main js-quickEditTarget">
<header class="message-attribution message-attribution--split"><div class="message-attribution-main"><a href="{base}post-{pid}" class="u-concealed" rel="nofollow"><time class="u-dt" datetime="{post.when.isoformat()}" data-time="{int(post.when.timestamp())}">x</time></a></div>
<ul class="message-attribution-opposite message-attribution-opposite--list"><li><a href="{base}post-{pid}" rel="nofollow">#{post.number}</a></li></ul></header>
<div class="message-content js-messageContent"><div class="message-userContent lbContainer js-lbContainer"><article class="message-body js-selectToQuote"><div class="bbWrapper">{_render(post.body, XF_RED, XF_QUOTE)}</div><div class="js-selectToQuoteEnd">&nbsp;</div></article></div>
{edit}{signature}</div></div></div></div></article>
"""


# -- XenForo 1 --------------------------------------------------------------------------------
XF1_RED = '<span style="color: #ff0000">{}</span>'
XF1_QUOTE = ('<div class="bbCodeBlock bbCodeQuote" data-author="{author}"><aside>'
             '<div class="attribution type">{author} said: <a href="goto/post?id=1#post-1" '
             'class="AttributionLink">↑</a></div><blockquote class="quoteContainer">'
             '<div class="quote">{text}</div><div class="quoteExpand">Click to expand...</div>'
             '</blockquote></aside></div>')


def xf1_pages(posts: list[TPost], thread: int = 4402, per_page: int = 4,
              slug: str = "changelings-9-day-2") -> dict[str, str]:
    """``/threads/<slug>.<id>/[page-N]`` → page: XenForo 1's ``div.PageNav`` shows a
    window of pages and names the last in ``data-last`` (links relative to ``<base>``)."""
    chunks = pages_of(posts, per_page)
    base = f"threads/{slug}.{thread}/"
    result = {}
    for index, chunk in enumerate(chunks):
        number = index + 1
        window = "".join(
            f'<a href="{base}{f"page-{n}" if n > 1 else ""}" class="{"currentPage " if n == number else ""}">{n}</a>'
            for n in range(max(1, number - 1), min(len(chunks), number + 1) + 1))
        nav = (f'<div class="PageNav" data-page="{number}" data-range="2" data-start="2" '
               f'data-end="4" data-last="{len(chunks)}" data-sentinel="{{{{sentinel}}}}" '
               f'data-baseurl="{base}page-{{{{sentinel}}}}"><span class="pageNavHeader">Page '
               f'{number} of {len(chunks)}</span><nav>{window}</nav></div>')
        head = f'<link rel="next" href="{base}page-{number + 1}" />' if number < len(chunks) else ""
        body = "".join(_xf1_post(p, base) for p in chunk)
        target = "/" + base + (f"page-{number}" if number > 1 else "")
        result[target] = f"""<!DOCTYPE html>
<html id="XenForo" lang="en-US" dir="LTR" class="Public NoJs LoggedOut">
<head><meta charset="utf-8" /><base href="{{base}}/" /><title>Changelings 9 - Day 2 | Forum</title>
<link rel="canonical" href="{{base}}/{base}" />{head}</head>
<body><div id="navigation"><a href="forums/games.7/">Games</a> <a href="login/">Log in or Sign up</a></div>
<div class="pageNavLinkGroup">{nav}</div>
<form action="inline-mod/post/switch" method="post" class="InlineModForm section"><ol class="messageList" id="messageList">{body}</ol></form>
<div class="pageNavLinkGroup">{nav}</div>
<script>XenForo.ready();</script></body></html>
"""
    return result


def _xf1_post(post: TPost, base: str) -> str:
    pid = 12000 + post.number
    edit = ""
    if post.edited is not None:
        edit = (f'<div class="editDate">Last edited: <span class="DateTime" title="'
                f'{post.edited.astimezone(BERLIN):%b %d, %Y at %I:%M %p}">'
                f'{post.edited.astimezone(BERLIN):%b %d, %Y}</span></div>')
    signature = (f'<div class="baseHtml signature messageText ugc"><aside>'
                 f'{_render(post.signature, XF1_RED, XF1_QUOTE)}</aside></div>'
                 if post.signature else "")
    return f"""<li id="post-{pid}" class="message   " data-author="{html.escape(post.author)}">
<div class="messageUserInfo"><div class="messageUserBlock"><h3 class="userText"><a href="members/x.{post.number}/" class="username">{html.escape(post.author)}</a></h3></div></div>
<div class="messageInfo primaryContent"><div class="messageContent"><article>
<blockquote class="messageText SelectQuoteContainer ugc baseHtml">{_render(post.body, XF1_RED, XF1_QUOTE)}<div class="messageTextEndMarker">&nbsp;</div></blockquote>
</article></div>{edit}{signature}
<div class="messageMeta ToggleTriggerAnchor"><div class="privateControls"><span class="item muted"><span class="authorEnd"><a href="members/x.{post.number}/" class="username author">{html.escape(post.author)}</a>,</span>
<a href="{base}#post-{pid}" title="Permalink" class="datePermalink"><abbr class="DateTime" data-time="{int(post.when.timestamp())}" data-datestring="{post.when:%b %d, %Y}">{post.when:%b %d, %Y}</abbr></a></span></div>
<div class="publicControls"><a href="{base}#post-{pid}" title="Permalink" class="item muted postNumber hashPermalink">#{post.number}</a></div></div></div></li>
"""


# -- Discourse ---------------------------------------------------------------------------------
DISCOURSE_RED = '<font color="red">{}</font>'
DISCOURSE_QUOTE = ('<aside class="quote no-group" data-username="{author}" data-post="1" '
                   'data-topic="42"><div class="title"><div class="quote-controls"></div>'
                   '{author}:</div><blockquote><p>{text}</p></blockquote></aside>')


def discourse_pages(posts: list[TPost], topic: int = 42, first: int = 20
                    ) -> tuple[dict[str, str], Callable[[list[tuple[str, str]]], bytes]]:
    """``/t/<id>.json`` (the first ``first`` posts and the whole stream), and the answer
    of ``/t/<id>/posts.json?post_ids[]=…`` (the posts asked for, as Discourse gives)."""
    def item(post: TPost) -> dict[str, object]:
        return {
            "id": 1000 + post.number, "post_number": post.number,
            "username": post.author, "created_at": post.when.astimezone(UTC).isoformat(),
            "updated_at": (post.edited or post.when).astimezone(UTC).isoformat(),
            "version": 2 if post.edited is not None else 1, "post_type": 1,
            "cooked": f"<p>{_render(post.body, DISCOURSE_RED, DISCOURSE_QUOTE)}</p>",
        }

    stream = [1000 + p.number for p in posts]
    topic_json = {f"/t/{topic}.json": json.dumps({
        "id": topic, "title": "Changelings 9 – Day 2", "posts_count": len(posts),
        "post_stream": {"posts": [item(p) for p in posts[:first]], "stream": stream}})}
    by_id = {1000 + p.number: p for p in posts}

    def chunk(query: list[tuple[str, str]]) -> bytes:
        wanted = [int(v) for k, v in query if k == "post_ids[]" and v.isdigit()]
        return json.dumps({"post_stream": {"posts": [
            item(by_id[i]) for i in wanted if i in by_id]}}).encode()

    return topic_json, chunk
