"""What a paper is called: the method its abstract names, its repository, or a headline; and its
citation key (`citekey`, `vaswani2017attention`).

May import `text`, `model` and `errors`.
"""
