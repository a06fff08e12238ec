"""Related papers ("more like this"): the TF-IDF index and its cache file.

May import `caches`, `text`, `files`, `model` and `errors`.
"""
