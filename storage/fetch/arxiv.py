"""arXiv's API: one paper by id (`/api/query?id_list=ID`), read with `ingest.atom`."""

from __future__ import annotations

from urllib.parse import urlencode

from papershelf.storage.errors import IngestError
from papershelf.storage.fetch.client import Client, Malformed, Unknown, endpoint, host_of
from papershelf.storage.ingest.atom import parse_feed
from papershelf.storage.model import Paper

__all__ = ["ARXIV_API", "ARXIV_VARIABLE", "fetch_arxiv"]

ARXIV_VARIABLE = "PAPERSHELF_ARXIV_API"
ARXIV_API = "https://export.arxiv.org/api/query"


def fetch_arxiv(arxiv_id: str, client: Client, source: str, now: str) -> Paper:
    """The paper `arxiv_id` (no version) names; a FetchError when there is none or no answer."""
    url = f"{endpoint(ARXIV_VARIABLE, ARXIV_API)}?{urlencode({'id_list': arxiv_id})}"
    host = host_of(url)
    body = client.get(url, "application/atom+xml", "an Atom feed")
    try:
        result = parse_feed(body.decode("utf-8"), source, None, now)
    except UnicodeDecodeError:
        raise Malformed(f"{host} sent a malformed response: not UTF-8 text") from None
    except IngestError as error:
        if error.reason.startswith("the arXiv API answered"):
            raise Unknown(error.reason) from None
        raise Malformed(f"{host} sent a malformed response: {error.reason}") from None
    for paper in result.papers:
        if paper.arxiv_id == arxiv_id:
            return paper
    raise Unknown(f"no such paper at {host}")
