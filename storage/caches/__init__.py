"""The one frame every cache file shares: what it is a copy of (a key of its source files), a
checksum, atomic save, and load-or-build. A cache is never trusted without its checksum and never
the source of a write.

May import `files`, `model` and `errors`.
"""
