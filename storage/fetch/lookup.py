"""`fetch_paper`: the record an identifier names, from the API that keeps it."""

from __future__ import annotations

from papershelf.storage.fetch.arxiv import fetch_arxiv
from papershelf.storage.fetch.client import Client
from papershelf.storage.fetch.crossref import fetch_crossref
from papershelf.storage.fetch.openreview import fetch_openreview
from papershelf.storage.model import Paper, utc_now
from papershelf.storage.text.identifiers import Identifier

__all__ = ["fetch_paper", "label"]


def label(identifier: Identifier) -> str:
    """The identifier as people write it: `arXiv:2501.01234`, `doi:10.1145/...`,
    `openreview:ID`; also the fetched paper's source."""
    return f"arXiv:{identifier.value}" if identifier.scheme == "arxiv" else str(identifier)


def fetch_paper(identifier: Identifier, client: Client | None = None, now: str = "") -> Paper:
    """The whole record of `identifier`, or a `client.FetchError` (nothing partial).

    The paper's source is `label(identifier)`.
    """
    client = client or Client.from_environment()
    fetch = {"arxiv": fetch_arxiv, "doi": fetch_crossref, "openreview": fetch_openreview}
    return fetch[identifier.scheme](identifier.value, client, label(identifier), now or utc_now())
