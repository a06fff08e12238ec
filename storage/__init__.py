"""papershelf's data side: parsing, the library, search and export. Pure Python, no Textual.

Subpackages, lowest first; each may import those below it, never those above (the layers
contract in pyproject.toml, checked by `lint-imports`):

- `model`, `errors`: the records (Paper, Entry) and the errors that carry a user-facing line.
- `files`: reading a file only when it is regular, atomic replacement, the data directory's layout.
- `text`: LaTeX and Markdown to display text, titles, headings, URLs found in text, escaping.
- `caches`: the frame every cache file shares (header, key, checksum, atomic save, load-or-build).
- `names`: what a paper is called, from its abstract.
- `ingest`, `search`, `related`: bytes to Papers; the query language and engine; related papers.
- `library`: the data directory: papers, the user's state, undo, backups, settings, import.
- `export`: what leaves the library as a file and what comes back (Markdown lists, backups).
"""
