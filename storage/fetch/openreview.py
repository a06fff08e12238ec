"""OpenReview's API: one note by id (`/notes?id=ID`), API v2 first, then API v1 for the venues
that never moved (before 2023), read with `ingest.openreview`."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlencode

from papershelf.storage.errors import IngestError
from papershelf.storage.fetch.client import Client, Malformed, Unknown, endpoint, host_of
from papershelf.storage.ingest.openreview import note_paper, notes_of
from papershelf.storage.model import Paper

__all__ = [
    "OPENREVIEW_API",
    "OPENREVIEW_V1_API",
    "OPENREVIEW_V1_VARIABLE",
    "OPENREVIEW_VARIABLE",
    "fetch_openreview",
]

OPENREVIEW_VARIABLE = "PAPERSHELF_OPENREVIEW_API"
OPENREVIEW_API = "https://api2.openreview.net"
OPENREVIEW_V1_VARIABLE = "PAPERSHELF_OPENREVIEW_V1_API"
OPENREVIEW_V1_API = "https://api.openreview.net"


def fetch_openreview(note_id: str, client: Client, source: str, now: str) -> Paper:
    """The paper of forum `note_id`: from API v2, else (only when v2 has no such note) v1."""
    try:
        return _fetch(endpoint(OPENREVIEW_VARIABLE, OPENREVIEW_API), note_id, client, source, now)
    except Unknown:
        # Not a retry: v1 holds the notes v2 never got. A network failure is not retried.
        base = endpoint(OPENREVIEW_V1_VARIABLE, OPENREVIEW_V1_API)
        return _fetch(base, note_id, client, source, now)


def _fetch(base: str, note_id: str, client: Client, source: str, now: str) -> Paper:
    url = f"{base}/notes?{urlencode({'id': note_id})}"
    host = host_of(url)
    body = client.get(url, "application/json", "JSON")
    try:
        data: Any = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise Malformed(f"{host} sent a malformed response: not JSON") from None
    notes = notes_of([(1, data)])
    if notes is None:
        raise Malformed(f"{host} sent a malformed response: no notes in it")
    for _, note in notes:
        if not isinstance(note, dict) or note_id not in (note.get("id"), note.get("forum")):
            continue
        if not isinstance(note.get("content"), dict):
            raise Malformed(f"{host} sent a malformed response: a note without content")
        try:
            paper = note_paper(note, source, None, now)
        except IngestError as error:
            raise Malformed(f"{host} sent a malformed response: {error.reason}") from None
        if paper is None:
            raise Unknown(f"{note_id} at {host} is not a paper (a reply or a review)")
        return paper
    raise Unknown(f"no such note at {host}")
