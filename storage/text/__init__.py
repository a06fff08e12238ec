"""Text as papershelf shows it: LaTeX math and Markdown emphasis to Unicode and style spans, a
paper's title and heading, short author lists, URLs found in prose, Markdown escaping, HTML in feeds
to plain text (`html_text`), the folding searches and name lookups share (`fold`), and the fast
scans these share.

May import `papershelf.storage.model` and `errors` only.
"""
