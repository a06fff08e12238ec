"""The library: one data directory holding the imported papers and the user's state (tags, statuses,
stars, notes), with its lock, the undo journal, rolling backups of state.json, settings, and the
papers cache.

May import everything below it: `ingest`, `search`, `related`, `names`, `caches`, `text`, `files`,
`model`, `errors`.
"""
