"""A local stand-in for arXiv's, Crossref's and OpenReview's APIs: an `http.server` in a thread
on 127.0.0.1, port 0, answering from the fixtures in tests/fixtures/fetch (and /openreview).

`serve_apis(monkeypatch)` starts it and points `PAPERSHELF_*_API` at it, with a short fetch
timeout. Besides the records it serves the ways an API fails: 404, an empty feed, a reply that
never comes (the handler waits on an Event the test never sets; the timeout ends the wait),
garbage, an oversize body, an HTML page, and, with `offline(monkeypatch)`, a port where nothing
listens (connection refused).
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parent / "fixtures"
FETCH = FIXTURES / "fetch"
ATOM_TYPE = "application/atom+xml; charset=utf-8"
JSON_TYPE = "application/json; charset=utf-8"
TIMEOUT = "0.4"
"""The fetch timeout the tests run with (seconds): the slow reply fails after this long."""

SLOW = "slow"
OVERSIZE = "oversize"


@dataclass(frozen=True)
class Reply:
    status: int = 200
    content_type: str = JSON_TYPE
    body: bytes = b""


def _file(name: str, content_type: str) -> Reply:
    return Reply(200, content_type, (FETCH / name).read_bytes())


def default_routes() -> dict[str, Reply | str]:
    """Each request path (with its query) and what the server answers."""
    return {
        "/arxiv/api/query?id_list=2501.01234": _file("arxiv-2501.01234.xml", ATOM_TYPE),
        "/arxiv/api/query?id_list=2501.99999": _file("arxiv-empty.xml", ATOM_TYPE),
        "/arxiv/api/query?id_list=9912.12345": _file("arxiv-bad-id.xml", ATOM_TYPE),
        "/arxiv/api/query?id_list=2501.00001": SLOW,
        "/arxiv/api/query?id_list=2501.00002": Reply(200, ATOM_TYPE, b"\x00\xff<feed garbage"),
        "/arxiv/api/query?id_list=2501.00003": Reply(
            200, "text/html", b"<!DOCTYPE html><html><body>Rate limited</body></html>"
        ),
        "/arxiv/api/query?id_list=2501.00004": OVERSIZE,
        "/crossref/works/10.1145/3292500.3330701": _file("crossref-work.json", JSON_TYPE),
        "/crossref/works/10.9999/garbage": Reply(200, JSON_TYPE, b'{"status":"ok","message":['),
        "/or2/notes?id=Xq7pB3kFzL": _file("openreview-v2-note.json", JSON_TYPE),
        "/or2/notes?id=HkgB2TNYPS": _file("openreview-v2-empty.json", JSON_TYPE),
        "/or1/notes?id=HkgB2TNYPS": Reply(
            200, JSON_TYPE, (FIXTURES / "openreview" / "iclr2020-v1.json").read_bytes()
        ),
    }


@dataclass
class FakeApis:
    """The running server: its base URL, its routes (a test may add some) and what was asked."""

    base: str
    routes: dict[str, Reply | str]
    requests: list[tuple[str, str]] = field(default_factory=list)
    """(path, User-Agent) of every request, in order."""
    never: threading.Event = field(default_factory=threading.Event)
    """What a slow reply waits for: set only when the server stops."""


def _handler(apis: FakeApis) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            apis.requests.append((self.path, self.headers.get("User-Agent", "")))
            reply = apis.routes.get(self.path, Reply(404, "text/plain", b"Resource not found."))
            if reply == SLOW:
                apis.never.wait(30)  # the client gives up long before
                return
            if reply == OVERSIZE:
                self.send_response(200)
                self.send_header("Content-Type", ATOM_TYPE)
                self.end_headers()  # no Content-Length: the client must count
                for _ in range(40):
                    self.wfile.write(b"<!-- padding -->" * 4096)
                return
            assert isinstance(reply, Reply)
            self.send_response(reply.status)
            self.send_header("Content-Type", reply.content_type)
            self.send_header("Content-Length", str(len(reply.body)))
            self.end_headers()
            self.wfile.write(reply.body)

        def log_message(self, format: str, *args: object) -> None:
            pass  # quiet tests

    return Handler


def _point_at(monkeypatch: pytest.MonkeyPatch, base: str) -> None:
    monkeypatch.setenv("PAPERSHELF_ARXIV_API", f"{base}/arxiv/api/query")
    monkeypatch.setenv("PAPERSHELF_CROSSREF_API", f"{base}/crossref")
    monkeypatch.setenv("PAPERSHELF_OPENREVIEW_API", f"{base}/or2")
    monkeypatch.setenv("PAPERSHELF_OPENREVIEW_V1_API", f"{base}/or1")
    monkeypatch.setenv("PAPERSHELF_FETCH_TIMEOUT", TIMEOUT)


def serve_apis(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeApis]:
    """Run the server for one test (a generator fixture's body)."""
    apis = FakeApis(base="", routes=default_routes())
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(apis))
    server.daemon_threads = True
    apis.base = f"http://127.0.0.1:{server.server_address[1]}"
    # A short poll: shutdown() waits for the loop's next look, 0.5 s by default.
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    _point_at(monkeypatch, apis.base)
    try:
        yield apis
    finally:
        apis.never.set()
        server.shutdown()
        server.server_close()
        thread.join()


def offline(monkeypatch: pytest.MonkeyPatch) -> str:
    """Point every API at a local port where nothing listens; returns that host:port."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    # The port is free again: a connection to it is refused.
    _point_at(monkeypatch, f"http://127.0.0.1:{port}")
    return f"127.0.0.1:{port}"
