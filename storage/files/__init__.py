"""Files as the library keeps them: read only when regular, replaced atomically, set aside when
damaged, and where each one lives in the data directory.

May import `papershelf.storage.model` and `errors` only.
"""
