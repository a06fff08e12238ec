"""What leaves the library as a file and what comes back: Markdown reading lists and which papers
they hold, applying an edited list (round trip), BibTeX (with its citation keys), CSV and JSON of
the same selections, the atomic writing every export shares, and backups of the whole user state.

The top layer of `papershelf.storage`: may import any of its subpackages.
"""
