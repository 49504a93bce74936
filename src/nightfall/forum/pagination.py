"""Which pages make up a thread: each forum's own addresses and pagination links.

Pure functions over URLs and parsed pages (no network): :mod:`nightfall.forum.fetch`
asks them where the thread's pages are. Every forum numbers a thread's pages its own way:

- **phpBB 3** — ``viewtopic.php?t=<topic>&start=<offset>`` (offset in posts; page 1 has
  no ``start``); the pagination box ``div.pagination`` (3.0: links between ``, ``;
  3.1+: ``<ul>`` of ``<li>``, the next page also ``a[rel=next]``). A guest's links carry
  a ``sid`` session parameter, dropped here; ``view=print`` / ``view=next`` are other
  pages (the print view, the next topic), never pages of the thread.
- **vBulletin 3/4** — ``showthread.php?t=<thread>&page=<n>`` or, with friendly URLs,
  ``showthread.php/<thread>-<title>/page<n>`` (also ``showthread.php?<thread>-<title>/
  page<n>``); vB 4 has ``div.pagination`` and ``a[rel=next]``, vB 3 ``div.pagenav``.
  Relative links are resolved against ``<base href>`` (vB 4 sets one).
- **XenForo 1/2** — ``threads/<title>.<thread>/page-<n>`` (or ``threads/<thread>/``);
  XenForo 2 has ``ul.pageNav-main`` and ``<link rel="next">``, XenForo 1 ``div.PageNav``
  (whose ``data-last`` is the page count).
- **Discourse** — ``/t/<slug>/<topic>`` (any post number after it) is read through the
  JSON API: ``/t/<topic>.json`` gives the first posts and, in ``post_stream.stream``, the
  ids of all of them; the rest come in chunks from ``/t/<topic>/posts.json?post_ids[]=…``.

A page is known by its *index* in its forum's own numbering (phpBB's offset, the others'
page number), so the same page reached by two spellings of its address is read once.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit, urlunsplit

from selectolax.lexbor import LexborHTMLParser

PHPBB, VBULLETIN, XENFORO, DISCOURSE = "phpbb", "vbulletin", "xenforo", "discourse"

#: the forum software of each parsed page format (:mod:`nightfall.forum.detect`)
SOFTWARE_OF_FORMAT = {"phpbb": PHPBB, "vbulletin4": VBULLETIN, "vbulletin3": VBULLETIN,
                      "xenforo2": XENFORO, "xenforo1": XENFORO, "discourse": DISCOURSE}

#: where each forum puts its page links (read in addition to ``rel=next/prev`` and the
#: canonical link; links inside posts are not pagination)
_PAGINATION = {
    PHPBB: "div.pagination a, ul.pagination a, a[rel=next], a[rel=prev]",
    VBULLETIN: "div.pagination a, form.pagination a, div.pagenav a, a[rel=next], "
               "a[rel=prev]",
    XENFORO: "ul.pageNav-main a, nav.pageNavWrapper a, div.pageNav a, div.PageNav a, "
             "a.pageNav-jump, a[rel=next], a[rel=prev]",
}
_HEAD_LINKS = "link[rel=next], link[rel=prev], link[rel=canonical]"
_DROP_PARAMS = frozenset({"sid", "s", "hilit", "highlight", "utm_source", "utm_medium",
                          "utm_campaign"})
_VB_PATH = re.compile(r"/showthread\.php/(\d+)(?:-[^/]*)?(?:/page(\d+))?/?$")
_VB_QUERY = re.compile(r"^(\d+)(?:-[^/&]*)?(?:/page(\d+))?")
_XF_PATH = re.compile(r"/threads/(?:[^/]*\.)?(\d+)/?(?:page-(\d+))?/?$")
_DISCOURSE_PATH = re.compile(r"^(?P<base>.*?)/t/(?:[^/]+/)?(?P<topic>\d+)(?:\.json)?"
                             r"(?:/\d+)?/?$")
_LOGIN_PATH = re.compile(r"(?:^|/)(?:login|log-in|signin|sign-in|register)(?:[./?]|$)|"
                         r"ucp\.php|member\.php\?[^#]*action=login|/session/", re.I)
_LOGIN_QUERY = re.compile(r"(?:^|&)(?:mode|do|action)=(?:login|register|signin)\b", re.I)


@dataclass(frozen=True, slots=True)
class PageRef:
    """One page of a thread: its address and its index in the forum's own numbering."""

    url: str
    index: int


def clean(url: str) -> str:
    """``url`` without its fragment and session or tracking parameters."""
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True)
             if k.lower() not in _DROP_PARAMS]
    return urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode(query, safe="[]"),
                       ""))


def software_of_url(url: str) -> str | None:
    """The forum software a thread address belongs to, if its shape tells."""
    parts = urlsplit(url)
    if parts.path.endswith("viewtopic.php"):
        return PHPBB
    if "showthread.php" in parts.path:
        return VBULLETIN
    if _XF_PATH.search(parts.path):
        return XENFORO
    if _DISCOURSE_PATH.match(parts.path):
        return DISCOURSE
    return None


def looks_like_login(url: str) -> bool:
    """Whether an address is a login or registration page (a forum that redirects a
    guest away from a closed thread sends him there)."""
    parts = urlsplit(url)
    return bool(_LOGIN_PATH.search(parts.path) or _LOGIN_QUERY.search(parts.query))


def thread_key(software: str, url: str) -> str | None:
    """The thread an address shows (``None``: not a page of a thread of ``software``)."""
    parts = urlsplit(url)
    query = dict(parse_qsl(parts.query))
    if software == PHPBB:
        if not parts.path.endswith("viewtopic.php") or "view" in query or "mode" in query:
            return None
        topic = query.get("t", "")
        return f"t{topic}" if topic.isdigit() else None
    if software == VBULLETIN:
        if "showthread.php" not in parts.path:
            return None
        found = _VB_PATH.search(parts.path)
        if found:
            return found.group(1)
        if query.get("t", "").isdigit():
            return query["t"]
        first = parts.query.split("&", 1)[0]
        matched = _VB_QUERY.match(first)
        return matched.group(1) if matched and "=" not in first else None
    if software == XENFORO:
        found = _XF_PATH.search(parts.path)
        return found.group(1) if found else None
    if software == DISCOURSE:
        matched = _DISCOURSE_PATH.match(parts.path)
        return matched.group("topic") if matched else None
    return None


def page_index(software: str, url: str) -> int:
    """The page's index in its forum's numbering (phpBB: the post offset; else the page
    number, 1 for the first)."""
    parts = urlsplit(url)
    query = dict(parse_qsl(parts.query))
    if software == PHPBB:
        start = query.get("start", "0")
        return int(start) if start.isdigit() else 0
    if software == VBULLETIN:
        found = _VB_PATH.search(parts.path) or _VB_QUERY.match(parts.query.split("&", 1)[0])
        if found and found.group(2):
            return int(found.group(2))
        page = query.get("page", "1")
        return int(page) if page.isdigit() and int(page) > 0 else 1
    if software == XENFORO:
        found = _XF_PATH.search(parts.path)
        return int(found.group(2)) if found and found.group(2) else 1
    return 1


def page_links(software: str, tree: LexborHTMLParser, page_url: str, key: str
               ) -> list[PageRef]:
    """The pages of the thread ``key`` that a page links to (its pagination box,
    ``rel=next/prev``, its canonical address), on the page's own host."""
    base = page_url
    base_tag = tree.css_first("base[href]")
    if base_tag is not None and base_tag.attributes.get("href"):
        base = urljoin(page_url, base_tag.attributes.get("href") or "")
    hrefs: list[str] = []
    for selector in (_HEAD_LINKS, _PAGINATION.get(software, "")):
        if selector:
            hrefs += [n.attributes.get("href") or "" for n in tree.css(selector)]
    xf1 = tree.css_first("div.PageNav[data-last][data-baseurl]")
    if xf1 is not None:  # XenForo 1 shows a window of pages but names the last one
        last = xf1.attributes.get("data-last") or ""
        pattern = xf1.attributes.get("data-baseurl") or ""
        sentinel = xf1.attributes.get("data-sentinel") or "{{sentinel}}"
        if last.isdigit() and sentinel in pattern:
            hrefs += [pattern.replace(sentinel, str(n)) for n in range(2, int(last) + 1)]
    return refs(software, (urljoin(base, href) for href in hrefs
                           if href and not href.lower().startswith(("javascript:", "#"))),
                page_url, key)


def refs(software: str, urls: Iterable[str], page_url: str, key: str) -> list[PageRef]:
    """Each of ``urls`` that is a page of thread ``key`` on ``page_url``'s host, cleaned,
    once per index."""
    host = urlsplit(page_url).hostname
    found: dict[int, PageRef] = {}
    for raw in urls:
        url = clean(raw)
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or parts.hostname != host:
            continue
        if thread_key(software, url) != key:
            continue
        index = page_index(software, url)
        found.setdefault(index, PageRef(url, index))
    return sorted(found.values(), key=lambda ref: ref.index)


@dataclass(frozen=True, slots=True)
class DiscourseTopic:
    """A Discourse topic's JSON addresses."""

    base: str
    """The forum's root (scheme, host and any sub-folder), without a trailing ``/``."""
    topic: str

    @property
    def topic_url(self) -> str:
        return f"{self.base}/t/{self.topic}.json"

    def posts_url(self, ids: Iterable[int]) -> str:
        query = "&".join(f"post_ids[]={int(i)}" for i in ids)
        return f"{self.base}/t/{self.topic}/posts.json?{query}"


def discourse_topic(url: str) -> DiscourseTopic | None:
    """The Discourse topic an address (``/t/slug/123``, ``/t/123/45``, ``.json``) shows."""
    parts = urlsplit(url)
    matched = _DISCOURSE_PATH.match(parts.path)
    if matched is None:
        return None
    base = urlunsplit((parts.scheme, parts.netloc, matched.group("base"), "", ""))
    return DiscourseTopic(base.rstrip("/"), matched.group("topic"))


def forum_page_marker(tree: LexborHTMLParser) -> str | None:
    """The forum software a page without posts comes from (an index, a forum's topic
    list, a search page), from its generator tag or its markup; ``None``: unknown."""
    generator = tree.css_first("meta[name=generator]")
    content = (generator.attributes.get("content") or "").lower() if generator else ""
    for name in (DISCOURSE, VBULLETIN, XENFORO, PHPBB):
        if name in content:
            return name
    if tree.css_first("body#phpbb, ul.topiclist, a[href*='viewforum.php']") is not None:
        return PHPBB
    if tree.css_first("html[data-app], html#XenForo, div.structItemContainer") is not None:
        return XENFORO
    if tree.css_first("a[href*='forumdisplay.php'], a[href*='showthread.php']") is not None:
        return VBULLETIN
    return None


def has_login_form(tree: LexborHTMLParser) -> bool:
    """Whether a page asks for a password (a forum's login page)."""
    return tree.css_first("input[type=password]") is not None
