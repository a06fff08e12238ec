"""Two libraries, one reading list: `papershelf sync OTHER` and `restore --merge FILE`.

Owns reading the other library or backup file (read only: nothing is ever written into it),
the record of what the two last agreed on (`<root>/sync.json`, one base per peer), the
three-way merge of each paper's entry, and the report. The library applies the result as one
undo step (`Library.merge_state`).

The top layer of `papershelf.storage`, beside `export`, whose backup reader it uses: may import
any of its subpackages.
"""
