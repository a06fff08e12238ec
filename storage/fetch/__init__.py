"""Papers fetched by identifier from public APIs: arXiv's API (Atom), Crossref (DOIs, JSON) and
OpenReview (notes, API v2 then v1), for `papershelf add` and the app's `a`.

`client` is the one HTTP GET (timeouts, a size cap, a User-Agent, one-line errors, endpoints
overridable by environment variables); `arxiv`, `crossref` and `openreview` turn one answer into
a Paper through `ingest`'s readers; `lookup.fetch_paper` picks the source for an identifier.
Nothing here writes: the caller hands the Paper to `Library.import_papers`.

May import `ingest`, `names`, `text`, `model` and `errors`; `library` does not import this.
"""
