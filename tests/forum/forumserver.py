"""A real HTTP server on loopback that the forum tests start: it serves thread pages from
a table the test fills (and may change between reads), answers conditional requests with
``304``, redirects, refuses without a cookie, or answers slowly; it logs every request.

It is a plain :class:`http.server.ThreadingHTTPServer` in a daemon thread, bound to
``127.0.0.1`` on a free port; :func:`forum_server` stops it when the test ends.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, urlencode, urlsplit


@dataclass
class Route:
    """What one address answers."""

    body: bytes = b""
    status: int = 200
    content_type: str = "text/html; charset=utf-8"
    conditional: bool = True
    """Send an ETag and Last-Modified, and answer 304 when the client has this version."""
    delay: float = 0.0
    """Seconds to wait before answering (a slow forum)."""
    location: str | None = None
    """A redirect target (with status 302 unless another 3xx is set)."""
    cookie: str | None = None
    """``NAME=VALUE`` the request must carry, else 403."""
    answer: Callable[[list[tuple[str, str]]], bytes] | None = None
    """Build the body from the request's query (served for the path with any query)."""


@dataclass
class Request:
    path: str
    headers: dict[str, str]
    started: float
    ended: float = 0.0
    status: int = 0


def route_key(target: str) -> str:
    """The table key of a request target: its path and its query in sorted order, without
    phpBB's session id."""
    parts = urlsplit(target)
    query = sorted((k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True)
                   if k != "sid")
    return parts.path + ("?" + urlencode(query) if query else "")


@dataclass
class ForumServer:
    host: str = "127.0.0.1"
    port: int = 0
    routes: dict[str, Route] = field(default_factory=dict)
    log: list[Request] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def url(self, path: str) -> str:
        return f"http://{self.host}:{self.port}{path}"

    def serve(self, target: str, body: bytes | str, **options: object) -> None:
        """Serve ``body`` at ``target`` (a path with its query)."""
        data = body.encode() if isinstance(body, str) else body
        self.routes[route_key(target)] = Route(data, **options)  # type: ignore[arg-type]

    def serve_query(self, path: str, answer: Callable[[list[tuple[str, str]]], bytes],
                    **options: object) -> None:
        """Serve ``path`` with any query, the body built from the query."""
        self.routes[path + "?*"] = Route(answer=answer, **options)  # type: ignore[arg-type]

    def requests(self, path_part: str = "") -> list[Request]:
        with self.lock:
            return [r for r in self.log if path_part in r.path]

    def handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: object) -> None:  # quiet
                return

            def do_GET(self) -> None:  # the standard library's name
                entry = Request(self.path, {k.lower(): v for k, v in self.headers.items()},
                                time.monotonic())
                with server.lock:
                    server.log.append(entry)
                route = server.routes.get(route_key(self.path))
                if route is None:
                    route = server.routes.get(urlsplit(self.path).path + "?*")
                if route is not None and route.answer is not None:
                    query = parse_qsl(urlsplit(self.path).query)
                    route = replace(route, body=route.answer(query), answer=None)
                status, headers, body = self._answer(route)
                if route is not None and route.delay:
                    time.sleep(route.delay)
                try:
                    self.send_response(status)
                    for name, value in headers.items():
                        self.send_header(name, value)
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass
                entry.ended, entry.status = time.monotonic(), status

            def _answer(self, route: Route | None) -> tuple[int, dict[str, str], bytes]:
                if route is None:
                    return 404, {"Content-Type": "text/html"}, b"<html><body>Not found" \
                                                               b"</body></html>"
                if route.cookie is not None and route.cookie not in (
                        self.headers.get("Cookie") or "").replace(" ", "").split(";"):
                    return 403, {"Content-Type": "text/html"}, \
                        b"<html><body>Forbidden</body></html>"
                if route.location is not None:
                    return (route.status if 300 <= route.status < 400 else 302,
                            {"Location": route.location}, b"")
                headers = {"Content-Type": route.content_type}
                if route.conditional and route.status == 200:
                    tag = '"' + hashlib.sha1(route.body).hexdigest()[:16] + '"'
                    headers["ETag"] = tag
                    headers["Last-Modified"] = "Mon, 24 Dec 2012 18:00:00 GMT"
                    if self.headers.get("If-None-Match") == tag:
                        return 304, {"ETag": tag}, b""
                return route.status, headers, route.body

        return Handler


@contextmanager
def forum_server(setup: Callable[[ForumServer], None] | None = None
                 ) -> Iterator[ForumServer]:
    """A running :class:`ForumServer` on a free loopback port (stopped afterwards)."""
    state = ForumServer()
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), state.handler())
    httpd.daemon_threads = True
    state.port = httpd.server_address[1]
    if setup is not None:
        setup(state)
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05},
                              daemon=True)
    thread.start()
    try:
        yield state
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)
