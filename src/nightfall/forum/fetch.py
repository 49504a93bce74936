"""Reading a thread by its address: every page, politely, within limits.

The one HTTP client of the vote counter (``httpx``). Its manners and limits live here,
not in the parsers (which only ever see bytes):

- a User-Agent naming Nightfall and its version; timeouts per request
  (:attr:`Limits.timeout`) and per page (:attr:`Limits.page_seconds`, so a page that
  trickles in slowly still ends);
- one request at a time per forum host in this process and a polite pause between two
  (:attr:`Limits.delay`, 1 s by default);
- conditional requests: a page in the :class:`PageCache` is asked for with its
  ``ETag`` / ``Last-Modified``; a ``304 Not Modified`` answer reuses the cached bytes, so
  a re-read fetches only what changed;
- limits on the pages of a thread and on the bytes of a page and of a whole read
  (:class:`Limits`): a thread past them is refused (:data:`TOO_BIG`), never half-counted;
- redirects are followed by hand and only on the thread's own host (an ``http`` →
  ``https`` move of the same host included); one to a login page is :data:`LOGIN`;
- the GM's cookies and headers (a closed forum) go only to that host.

:func:`read_thread` never counts and never touches the database: the service runs it
outside any transaction. Every problem that stops a read is a :class:`FetchError` whose
:meth:`~FetchError.text` is a message for the GM in his language.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, tzinfo
from typing import Any, Protocol
from urllib.parse import urljoin, urlsplit

import httpx
from selectolax.lexbor import LexborHTMLParser

from nightfall import __version__
from nightfall.engine.text import N_, Text
from nightfall.forum import pagination as pg
from nightfall.forum.detect import decode, read_page
from nightfall.forum.model import Page
from nightfall.forum.reading import PageRead, ThreadRead

USER_AGENT = f"Nightfall/{__version__} (play-by-post game master; forum vote counter)"

# the kinds of FetchError (stable ids: stored with a failed automatic count)
NOT_A_THREAD, LOGIN, NOT_FOUND, FORBIDDEN, TIMEOUT = (
    "not_a_thread", "login", "not_found", "forbidden", "timeout")
UNKNOWN_MARKUP, TOO_BIG, OFF_HOST, NETWORK, HTTP, BAD_ADDRESS = (
    "unknown_markup", "too_big", "off_host", "network", "http", "bad_address")

#: Discourse hands out at most this many posts per ``posts.json`` request
DISCOURSE_CHUNK = 20


@dataclass(frozen=True, slots=True)
class Limits:
    """How much one read may fetch, and how fast."""

    max_pages: int = 200
    """Pages of one thread (a Changelings day of 1,000 posts is 40 phpBB pages)."""
    max_page_bytes: int = 5 * 1024 * 1024
    max_total_bytes: int = 100 * 1024 * 1024
    timeout: float = 20.0
    """Seconds to connect, and between two pieces of an answer."""
    page_seconds: float = 60.0
    """Seconds for one whole answer."""
    delay: float = 1.0
    """Seconds between two requests to the same forum."""
    max_redirects: int = 5

    @classmethod
    def from_env(cls) -> Limits:
        """The defaults, with ``NIGHTFALL_FORUM_DELAY`` (seconds between two requests),
        ``NIGHTFALL_FORUM_TIMEOUT`` (seconds) and ``NIGHTFALL_FORUM_MAX_PAGES`` if set."""
        default = cls()
        return cls(max_pages=int(_env("NIGHTFALL_FORUM_MAX_PAGES", default.max_pages)),
                   timeout=_env("NIGHTFALL_FORUM_TIMEOUT", default.timeout),
                   delay=_env("NIGHTFALL_FORUM_DELAY", default.delay))


def _env(variable: str, default: float) -> float:
    raw = os.environ.get(variable, "").strip()
    try:
        value = float(raw) if raw else default
    except ValueError:
        raise ValueError(f"{variable}={raw!r} is not a number") from None
    if not value >= 0:
        raise ValueError(f"{variable}={raw!r} must not be negative")
    return value


@dataclass(frozen=True, slots=True)
class Credentials:
    """What a closed forum needs to show the thread: the GM's cookies and headers."""

    cookies: tuple[tuple[str, str], ...] = ()
    headers: tuple[tuple[str, str], ...] = ()

    @classmethod
    def parse(cls, cookies: Sequence[str] = (), headers: Sequence[str] = ()) -> Credentials:
        """From ``NAME=VALUE`` cookies and ``Name: value`` headers; ``ValueError`` names
        the first entry that is neither."""
        jar: list[tuple[str, str]] = []
        for entry in cookies:
            name, equals, value = entry.partition("=")
            if not equals or not name.strip() or any(c in name for c in " ;,\t\r\n"):
                raise ValueError(entry)
            jar.append((name.strip(), value.strip()))
        lines: list[tuple[str, str]] = []
        for entry in headers:
            name, colon, value = entry.partition(":")
            if not colon or not name.strip() or any(c in name for c in " \t\r\n") \
                    or any(c in value for c in "\r\n"):
                raise ValueError(entry)
            lines.append((name.strip(), value.strip()))
        return cls(tuple(jar), tuple(lines))

    def to_json(self) -> dict[str, list[list[str]]]:
        return {"cookies": [list(c) for c in self.cookies],
                "headers": [list(h) for h in self.headers]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> Credentials:
        data = data or {}
        return cls(tuple((str(n), str(v)) for n, v in data.get("cookies", ())),
                   tuple((str(n), str(v)) for n, v in data.get("headers", ())))


class FetchError(Exception):
    """The thread could not be read; nothing was counted. ``kind`` is one of the module's
    kinds (``login``, ``timeout`` …), :meth:`text` the message for the GM."""

    def __init__(self, kind: str, msgid: str, **params: Any) -> None:
        super().__init__(msgid.format(**params))
        self.kind = kind
        self.msgid = msgid
        self.params = params

    def text(self) -> Text:
        return Text(self.msgid, self.params)


# -- the page cache ------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class CachedPage:
    """A page as last read, with what the forum said to recognise it by."""

    url: str
    body: bytes
    etag: str | None
    last_modified: str | None
    fetched_at: datetime


class PageCache(Protocol):
    """Where read pages are kept between reads (the service keeps them in its database,
    shared by its processes; the command line in memory)."""

    def get(self, url: str) -> CachedPage | None: ...

    def put(self, page: CachedPage) -> None: ...


class MemoryCache:
    """A page cache in this process, of at most ``size`` pages (the oldest go first)."""

    def __init__(self, size: int = 500) -> None:
        self.size = size
        self._pages: OrderedDict[str, CachedPage] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, url: str) -> CachedPage | None:
        with self._lock:
            return self._pages.get(url)

    def put(self, page: CachedPage) -> None:
        with self._lock:
            self._pages[page.url] = page
            self._pages.move_to_end(page.url)
            while len(self._pages) > self.size:
                self._pages.popitem(last=False)


# -- one request at a time per host -------------------------------------------------------
class _Gate:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.last = float("-inf")


_GATES: dict[str, _Gate] = {}
_GATES_LOCK = threading.Lock()


def _gate(host: str) -> _Gate:
    with _GATES_LOCK:
        return _GATES.setdefault(host, _Gate())


# -- reading --------------------------------------------------------------------------------
@dataclass(slots=True)
class _Answer:
    url: str
    status: int
    body: bytes
    etag: str | None = None
    last_modified: str | None = None
    location: str = ""


@dataclass(slots=True)
class _Reader:
    client: httpx.Client
    host: str
    limits: Limits
    cache: PageCache
    now: Callable[[], datetime]
    has_cookies: bool
    total: int = 0
    reads: list[PageRead] = field(default_factory=list)

    def get(self, url: str, *, fatal_404: bool = True, accept: str = "text/html") -> _Answer:
        """One page, following same-host redirects, conditionally if cached."""
        current = url
        for _hop in range(self.limits.max_redirects + 1):
            cached = self.cache.get(current)
            headers = {"Accept": accept}
            if cached is not None and cached.etag:
                headers["If-None-Match"] = cached.etag
            if cached is not None and cached.last_modified:
                headers["If-Modified-Since"] = cached.last_modified
            answer = self._request(current, headers)
            if answer.status in (301, 302, 303, 307, 308):
                target = urljoin(current, answer.location)
                self._check_redirect(url, target)
                current = pg.clean(target)
                continue
            if answer.status == 304 and cached is not None:
                self._count(len(cached.body))
                return _Answer(current, 304, cached.body, cached.etag, cached.last_modified)
            if answer.status == 200:
                self.cache.put(CachedPage(current, answer.body, answer.etag,
                                          answer.last_modified, self.now()))
                return answer
            if answer.status in (404, 410) and not fatal_404:
                return answer
            raise self._status_error(url, answer.status)
        raise FetchError(HTTP, N_("{url}: too many redirects."), url=url)

    def _check_redirect(self, url: str, target: str) -> None:
        parts = urlsplit(target)
        if parts.scheme not in ("http", "https") or parts.hostname != self.host:
            raise FetchError(OFF_HOST, N_("{url} redirects to another site ({target}); only "
                                          "the thread's own forum is read."),
                             url=url, target=target)
        if pg.looks_like_login(target):
            raise _login(url)

    def _status_error(self, url: str, status: int) -> FetchError:
        if status in (404, 410):
            return FetchError(NOT_FOUND, N_("{url}: the forum has no such page (HTTP "
                                            "{status})."), url=url, status=status)
        if status in (401, 403):
            if self.has_cookies:
                return FetchError(FORBIDDEN, N_(
                    "{url}: the forum refuses access with the cookies given (HTTP {status}); "
                    "they may have expired: log in again and give the new ones."),
                    url=url, status=status)
            return FetchError(FORBIDDEN, N_(
                "{url}: the forum refuses access (HTTP {status}). A closed forum needs your "
                "login cookie: --cookie NAME=VALUE."), url=url, status=status)
        return FetchError(HTTP, N_("{url}: the forum answered HTTP {status}."), url=url,
                          status=status)

    def _request(self, url: str, headers: dict[str, str]) -> _Answer:
        gate = _gate(self.host)
        with gate.lock:  # one request at a time to this forum
            pause = gate.last + self.limits.delay - time.monotonic()
            if pause > 0:
                time.sleep(pause)
            try:
                return self._stream(url, headers)
            finally:
                gate.last = time.monotonic()

    def _stream(self, url: str, headers: dict[str, str]) -> _Answer:
        begun = time.monotonic()
        try:
            with self.client.stream("GET", url, headers=headers) as response:
                status = response.status_code
                if 300 <= status < 400:
                    return _Answer(url, status, b"", location=response.headers.get("location", ""))
                chunks: list[bytes] = []
                size = 0
                for chunk in response.iter_bytes():
                    size += len(chunk)
                    if size > self.limits.max_page_bytes:
                        raise FetchError(TOO_BIG, N_(
                            "{url} is larger than {limit} MB, more than a thread page may "
                            "have."), url=url, limit=self.limits.max_page_bytes // 2**20)
                    if time.monotonic() - begun > self.limits.page_seconds:
                        raise _timeout(url, self.limits.page_seconds)
                    chunks.append(chunk)
                body = b"".join(chunks)
                if status == 200:
                    self._count(size)
                return _Answer(url, status, body, response.headers.get("etag"),
                               response.headers.get("last-modified"))
        except httpx.TimeoutException:
            raise _timeout(url, self.limits.timeout) from None
        except httpx.HTTPError as error:
            raise FetchError(NETWORK, N_("{url}: cannot reach the forum ({reason})."),
                             url=url, reason=type(error).__name__) from None

    def _count(self, size: int) -> None:
        self.total += size
        if self.total > self.limits.max_total_bytes:
            raise FetchError(TOO_BIG, N_(
                "The thread is larger than {limit} MB, the most read at once. Nothing was "
                "counted: count it from saved pages."),
                limit=self.limits.max_total_bytes // 2**20)

    def record(self, answer: _Answer, page: Page | None) -> None:
        self.reads.append(PageRead(
            answer.url, answer.status, self.now(),
            hashlib.sha256(answer.body).hexdigest() if page is not None else None,
            len(answer.body), page.format if page is not None else None,
            tuple(post.id for post in page.posts) if page is not None else ()))


def _login(url: str) -> FetchError:
    return FetchError(LOGIN, N_(
        "{url} leads to a login page: the forum does not show this thread to guests. Give "
        "your login cookie: --cookie NAME=VALUE."), url=url)


def _timeout(url: str, seconds: float) -> FetchError:
    return FetchError(TIMEOUT, N_("{url}: the forum did not answer within {seconds} s."),
                      url=url, seconds=f"{seconds:g}")


def _too_many_pages(limits: Limits, found: int) -> FetchError:
    return FetchError(TOO_BIG, N_(
        "The thread has {found} pages or more, over the limit of {limit} pages read at "
        "once. Nothing was counted: count it from saved pages."),
        found=found, limit=limits.max_pages)


def _client(credentials: Credentials, limits: Limits) -> httpx.Client:
    headers = {"User-Agent": USER_AGENT}
    headers.update(dict(credentials.headers))
    return httpx.Client(headers=headers, cookies=dict(credentials.cookies),
                        timeout=httpx.Timeout(limits.timeout), follow_redirects=False,
                        trust_env=False)


def read_thread(url: str, tz: tzinfo, *, credentials: Credentials | None = None,
                limits: Limits | None = None, cache: PageCache | None = None,
                now: Callable[[], datetime] | None = None) -> ThreadRead:
    """Read every page of the thread at ``url`` (any of its pages); ``tz`` is the forum's
    zone for times a page shows without one. Raises :class:`FetchError`."""
    credentials = credentials or Credentials()
    limits = limits or Limits()
    clock = now or (lambda: datetime.now(UTC))
    address = url.strip()
    parts = urlsplit(address)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise FetchError(BAD_ADDRESS, N_("{url} is not a web address (http:// or https://)."),
                         url=address)
    started = clock()
    with _client(credentials, limits) as client:
        reader = _Reader(client, parts.hostname, limits, cache or MemoryCache(), clock,
                         bool(credentials.cookies))
        thread = ThreadRead(address, "", started, started)
        topic = pg.discourse_topic(address) \
            if pg.software_of_url(address) == pg.DISCOURSE else None
        if topic is not None:
            _read_discourse(reader, topic, tz, thread)
        else:
            _read_html(reader, pg.clean(address), tz, thread)
    thread.reads = reader.reads
    thread.finished_at = clock()
    return thread


def _read_html(reader: _Reader, first: str, tz: tzinfo, thread: ThreadRead) -> None:
    answer = reader.get(first)
    page = read_page(answer.body, answer.url, tz)
    if page.format is None:
        tree = LexborHTMLParser(decode(answer.body))
        marker = pg.forum_page_marker(tree)
        topic = pg.discourse_topic(answer.url)
        if marker == pg.DISCOURSE and topic is not None:  # a Discourse page: its JSON
            _read_discourse(reader, topic, tz, thread)
            return
        if pg.has_login_form(tree):
            raise _login(first)
        if marker is not None:
            raise FetchError(NOT_A_THREAD, N_(
                "{url} is not a thread: the page shows no posts (a forum index or a list of "
                "topics?). Give the address of a page of the thread."), url=first)
        raise FetchError(UNKNOWN_MARKUP, N_(
            "{url}: the counter does not recognise this page's markup (it reads phpBB 3, "
            "vBulletin 3/4, XenForo 1/2 and Discourse)."), url=first)
    software = pg.SOFTWARE_OF_FORMAT.get(page.format, "")
    thread.software = software
    reader.record(answer, page)
    thread.pages.append(page)
    tree = LexborHTMLParser(decode(answer.body))
    key = pg.thread_key(software, answer.url) or _key_from_links(software, tree, answer.url)
    if key is None:
        return  # a single page without pagination
    done = {pg.page_index(software, answer.url)} \
        if pg.thread_key(software, answer.url) == key else set()
    queue: dict[int, str] = {}

    def enqueue(found_tree: LexborHTMLParser, page_url: str) -> None:
        for ref in pg.page_links(software, found_tree, page_url, key):
            if ref.index not in done:
                queue.setdefault(ref.index, ref.url)
        if len(done | set(queue)) > reader.limits.max_pages:
            raise _too_many_pages(reader.limits, len(done | set(queue)))

    enqueue(tree, answer.url)
    while queue:
        index = min(queue)
        page_url = queue.pop(index)
        done.add(index)
        answer = reader.get(page_url, fatal_404=False)
        if answer.status in (404, 410):
            reader.record(answer, None)
            thread.notes.append(Text(N_("{url} was linked from the thread but is gone (HTTP "
                                        "{status}) at {when}."),
                                     {"url": page_url, "status": answer.status,
                                      "when": reader.now()}))
            continue
        page = read_page(answer.body, answer.url, tz)
        if page.format is None:
            found = LexborHTMLParser(decode(answer.body))
            if pg.has_login_form(found):
                raise _login(page_url)
            raise FetchError(UNKNOWN_MARKUP, N_(
                "{url} is a page of the thread but shows no posts the counter can read."),
                url=page_url)
        reader.record(answer, page)
        thread.pages.append(page)
        enqueue(LexborHTMLParser(decode(answer.body)), answer.url)


def _key_from_links(software: str, tree: LexborHTMLParser, url: str) -> str | None:
    """The thread of a page reached by a post's address (phpBB ``viewtopic.php?p=…``):
    the one its canonical and pagination links name."""
    selector = "link[rel=canonical], div.pagination a, a[rel=next], a[rel=prev], " \
               "div.pagenav a, ul.pageNav-main a"
    keys = [pg.thread_key(software, urljoin(url, n.attributes.get("href") or ""))
            for n in tree.css(selector)]
    named = [k for k in keys if k]
    return max(set(named), key=named.count) if named else None


def _read_discourse(reader: _Reader, topic: pg.DiscourseTopic, tz: tzinfo,
                    thread: ThreadRead) -> None:
    thread.software = pg.DISCOURSE
    answer = reader.get(topic.topic_url, accept="application/json")
    page = read_page(answer.body, answer.url, tz)
    if page.format != "discourse":
        raise FetchError(UNKNOWN_MARKUP, N_(
            "{url}: the forum's answer is not a Discourse topic."), url=topic.topic_url)
    reader.record(answer, page)
    thread.pages.append(page)
    stream = json.loads(decode(answer.body)).get("post_stream", {})
    ids = [i for i in stream.get("stream", []) if isinstance(i, int)]
    first = {post.get("id") for post in stream.get("posts", []) if isinstance(post, dict)}
    rest = [i for i in ids if i not in first]
    chunks = [rest[at:at + DISCOURSE_CHUNK] for at in range(0, len(rest), DISCOURSE_CHUNK)]
    if 1 + len(chunks) > reader.limits.max_pages:
        raise _too_many_pages(reader.limits, 1 + len(chunks))
    for chunk in chunks:
        answer = reader.get(topic.posts_url(chunk), accept="application/json")
        page = read_page(answer.body, answer.url, tz)
        if page.format != "discourse":
            raise FetchError(UNKNOWN_MARKUP, N_(
                "{url}: the forum's answer is not a Discourse topic."), url=answer.url)
        reader.record(answer, page)
        thread.pages.append(page)
