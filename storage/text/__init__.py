"""Text as papershelf shows it: LaTeX math and Markdown emphasis to Unicode and style spans, a
paper's title and heading, short author lists, URLs found in prose, Markdown escaping, and the fast
scans these share.

May import `papershelf.storage.model` and `errors` only.
"""
