"""The name ranker's and gate's weights (`names.rank.FEATURES`, `GATE_FEATURES`).

Written by `python bench/fit_names.py` (do not edit by hand); fitted on
the 733 of 2882 bench_names cases and the 1270 --precision papers that are
in the development half under both seeds 11 and 7.
"""

WEIGHTS: tuple[float, ...] = (
    0.807,  # chosen
    0.597,  # cue6
    0.335,  # cue5
    0.065,  # cue4
    -0.278,  # cue3
    0.204,  # cue_weak
    -0.917,  # no_cue
    0.743,  # cue_hits
    0.198,  # guess_made
    0.254,  # guess_defined
    -0.26,  # guess_repeated
    1.072,  # guess_project
    -1.272,  # word_only
    0.445,  # log_count
    -0.78,  # said_once
    0.22,  # first_at
    0.039,  # first_in_pool
    -0.053,  # last_cue
    0.591,  # starts_sentence
    0.768,  # described
    -0.137,  # ours
    -0.839,  # after_preposition
    0.533,  # acts
    -0.038,  # in_parens
    -0.813,  # expands
    -0.258,  # has_short_form
    -0.112,  # short_of_other
    -0.422,  # words_2
    -0.818,  # words_3
    -0.192,  # all_upper
    -0.699,  # has_digit
    -0.126,  # has_hyphen
    -1.238,  # short
    0.187,  # coined
    -0.08,  # lower
    0.636,  # repo_same
    -0.122,  # repo_part
    0.613,  # url_same
    -0.418,  # inside_other
    -0.153,  # holds_other
)
GATE: tuple[float, ...] = (
    -0.427,  # bias
    0.423,  # stated
    0.093,  # fallback
    0.207,  # top_chosen
    0.255,  # margin
    0.784,  # top_score
    0.207,  # chosen
    0.524,  # cue6
    -0.015,  # cue5
    -0.436,  # cue4
    -0.08,  # cue3
    -0.082,  # cue_weak
    -0.338,  # no_cue
    -0.041,  # cue_hits
    0.647,  # guess_made
    0.044,  # guess_defined
    -0.081,  # guess_repeated
    0.454,  # guess_project
    -0.566,  # word_only
    -0.177,  # log_count
    -0.387,  # said_once
    -0.929,  # first_at
    -0.442,  # first_in_pool
    -0.058,  # last_cue
    0.172,  # starts_sentence
    0.113,  # described
    0.046,  # ours
    -0.138,  # after_preposition
    0.382,  # acts
    -0.117,  # in_parens
    -0.669,  # expands
    0.453,  # has_short_form
    -0.135,  # short_of_other
    -0.376,  # words_2
    -0.305,  # words_3
    -0.345,  # all_upper
    0.106,  # has_digit
    -0.204,  # has_hyphen
    -0.259,  # short
    -0.134,  # coined
    0.012,  # lower
    -0.134,  # repo_same
    -0.176,  # repo_part
    0.229,  # url_same
    -0.173,  # inside_other
    -0.007,  # holds_other
)
# The gate's least score to show a name the hand-written rules give, and one they do not.
KEEP = -1.933
ADD = -2.393
