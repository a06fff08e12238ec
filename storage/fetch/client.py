"""One HTTP GET with the limits every fetch keeps, and its failures as one-line errors.

Standard library `urllib.request` only: one GET per source (two for OpenReview), no sessions,
no retries (a second try of an API that timed out doubles the wait and the load), redirects
followed (arXiv answers http with a redirect to https). Limits: a socket timeout and a deadline
for the whole body (`PAPERSHELF_FETCH_TIMEOUT`, seconds, default 15), a size cap (2 MB; one
record is a few kB), only http(s) URLs. Every failure is a `FetchError` whose text is the line
shown to the user: `cannot reach export.arxiv.org: Connection refused`.
"""

from __future__ import annotations

import http.client
import os
import urllib.error
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass
from time import monotonic
from urllib.parse import urlsplit

from papershelf.storage.errors import PapershelfError

__all__ = [
    "DEFAULT_TIMEOUT",
    "MAX_RESPONSE_BYTES",
    "TIMEOUT_VARIABLE",
    "USER_AGENT",
    "Client",
    "FetchError",
    "Malformed",
    "TimedOut",
    "Unknown",
    "Unreachable",
    "endpoint",
]

DEFAULT_TIMEOUT = 15.0
TIMEOUT_VARIABLE = "PAPERSHELF_FETCH_TIMEOUT"
MAX_RESPONSE_BYTES = 2_000_000
USER_AGENT = "papershelf/0.1 (reading-list manager; fetches one record per identifier)"
_CHUNK = 65_536
_WEB_PAGE = (b"<!doctype html", b"<html")


class FetchError(PapershelfError):
    """A record could not be fetched; `str()` is the one-line reason."""


class Unreachable(FetchError):
    """No connection (offline, refused, no such host)."""


class TimedOut(FetchError):
    """The server did not answer in time."""


class Unknown(FetchError):
    """The server has no such record (404, or an empty answer)."""


class Malformed(FetchError):
    """The server answered something that is not the record (garbage, a web page, too big)."""


def endpoint(variable: str, default: str, environ: Mapping[str, str] | None = None) -> str:
    """An API's base URL: the environment variable's value when set (a mirror, a test server),
    else `default`; without a trailing slash."""
    value = (os.environ if environ is None else environ).get(variable, "").strip()
    return (value or default).rstrip("/")


def host_of(url: str) -> str:
    """`export.arxiv.org` (with its port when it has one): how errors name a server."""
    return urlsplit(url).netloc or url


@dataclass(frozen=True, slots=True)
class Client:
    """How a fetch talks to the network: one GET at a time, bounded in time and size."""

    timeout: float = DEFAULT_TIMEOUT
    limit: int = MAX_RESPONSE_BYTES
    user_agent: str = USER_AGENT

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> Client:
        """A client with the timeout `PAPERSHELF_FETCH_TIMEOUT` sets (when it is a positive
        number of seconds)."""
        raw = (os.environ if environ is None else environ).get(TIMEOUT_VARIABLE, "")
        try:
            timeout = float(raw)
        except ValueError:
            timeout = DEFAULT_TIMEOUT
        if not 0 < timeout < 3600:
            timeout = DEFAULT_TIMEOUT
        return cls(timeout=timeout)

    def get(self, url: str, accept: str, what: str) -> bytes:
        """The body of a 200 answer to GET `url`; a FetchError for anything else.

        `what` names the expected content in errors ("an Atom feed"); an HTML page (a portal,
        a captive login, an error page) is refused as "a web page instead of" it.
        """
        host = host_of(url)
        if urlsplit(url).scheme not in ("http", "https"):
            raise Unreachable(f"cannot reach {host}: only http and https addresses are fetched")
        request = urllib.request.Request(
            url, headers={"User-Agent": self.user_agent, "Accept": accept}
        )
        deadline = monotonic() + self.timeout
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                kind = response.headers.get_content_type()
                body = self._read(response, host, deadline)
        except urllib.error.HTTPError as error:
            error.close()
            if error.code in (404, 410):
                raise Unknown(f"not found at {host} (HTTP {error.code})") from None
            raise FetchError(f"{host} answered HTTP {error.code} {error.reason}") from None
        except urllib.error.URLError as error:
            raise _connection_error(host, error.reason, self.timeout) from None
        except TimeoutError:
            raise TimedOut(_late(host, self.timeout)) from None
        except (OSError, http.client.HTTPException) as error:
            raise _connection_error(host, error, self.timeout) from None
        if kind == "text/html" or body.lstrip()[:15].lower().startswith(_WEB_PAGE):
            raise Malformed(f"{host} sent a web page instead of {what}")
        return body

    def _read(self, response: http.client.HTTPResponse, host: str, deadline: float) -> bytes:
        declared = response.headers.get("Content-Length", "")
        if declared.isdigit() and int(declared) > self.limit:
            raise Malformed(f"{host} sent more than {self.limit // 1_000_000} MB")
        chunks: list[bytes] = []
        size = 0
        while chunk := response.read(_CHUNK):
            size += len(chunk)
            if size > self.limit:
                raise Malformed(f"{host} sent more than {self.limit // 1_000_000} MB")
            if monotonic() > deadline:
                # A server that trickles bytes keeps every read under the socket timeout.
                raise TimedOut(_late(host, self.timeout))
            chunks.append(chunk)
        return b"".join(chunks)


def _late(host: str, timeout: float) -> str:
    return f"{host} did not answer within {timeout:g} s"


def _connection_error(host: str, reason: object, timeout: float) -> FetchError:
    if isinstance(reason, TimeoutError):
        return TimedOut(_late(host, timeout))
    if isinstance(reason, OSError) and reason.strerror:
        detail = reason.strerror
    else:
        detail = str(reason) or type(reason).__name__
    return Unreachable(f"cannot reach {host}: {detail}")
