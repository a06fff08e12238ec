"""What a paper is called: the method its abstract names, its repository, or a headline.

May import `text`, `model` and `errors`.
"""
