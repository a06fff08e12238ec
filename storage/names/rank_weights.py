"""The name ranker's weights, one per feature of `names.rank.FEATURES`.

Written by `python bench/fit_names.py` (do not edit by hand): fitted on 522 corpus
abstracts out of the 733 development cases shared by bench_names' seeds 11 and 7.
"""

WEIGHTS: tuple[float, ...] = (
    0.87,  # chosen
    0.532,  # cue6
    0.361,  # cue5
    0.161,  # cue4
    -0.274,  # cue3
    0.167,  # cue_weak
    -0.938,  # no_cue
    0.791,  # cue_hits
    0.342,  # guess_made
    0.157,  # guess_defined
    -0.206,  # guess_repeated
    0.81,  # guess_project
    -1.167,  # word_only
    0.435,  # log_count
    -0.821,  # said_once
    0.091,  # first_at
    0.074,  # first_in_pool
    0.004,  # last_cue
    0.49,  # starts_sentence
    0.813,  # described
    -0.143,  # ours
    -0.606,  # after_preposition
    0.548,  # acts
    -0.257,  # in_parens
    -0.835,  # expands
    -0.202,  # has_short_form
    0.016,  # short_of_other
    -0.47,  # words_2
    -0.925,  # words_3
    -0.401,  # all_upper
    -0.615,  # has_digit
    -0.084,  # has_hyphen
    -1.048,  # short
    0.221,  # coined
    0.0,  # lower
    1.082,  # repo_same
    -0.432,  # repo_part
    0.824,  # url_same
    -0.423,  # inside_other
    -0.194,  # holds_other
)
