"""Bytes to Papers: decoding import files safely, splitting abstract lists into paragraphs, JSON /
JSON Lines records, BibTeX (`bibtex`, through bibtexparser), RIS (`ris`, through rispy), CSL JSON
(`csl`), duplicate keys and merging, and the caps every record gets (`limits`).

May import `names`, `caches`, `text`, `files`, `model` and `errors`.
"""
