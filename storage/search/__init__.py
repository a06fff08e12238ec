"""Search: the query language, the inverted index, the engine that ranks hits, highlighting, and
`listing.cache`, which lets `papershelf list` search without opening the library.

May import `caches`, `text`, `files`, `model` and `errors`.
"""
