"""The name ranker's and gate's weights (`names.rank.FEATURES`, `GATE_FEATURES`).

Written by `python bench/fit_names.py` (do not edit by hand); fitted on
the 733 of 2882 bench_names cases and the 1270 --precision papers that are
in the development half under seeds (11, 7).
"""

WEIGHTS: tuple[float, ...] = (
    0.727,  # chosen
    0.549,  # cue6
    0.316,  # cue5
    -0.02,  # cue4
    -0.298,  # cue3
    0.221,  # cue_weak
    -0.77,  # no_cue
    0.699,  # cue_hits
    0.062,  # guess_made
    0.134,  # guess_defined
    -0.185,  # kind_after
    0.264,  # after_lead
    0.035,  # passive
    0.233,  # modifies
    1.015,  # guess_project
    -1.252,  # word_only
    0.556,  # log_count
    -0.812,  # said_once
    0.202,  # first_at
    0.003,  # first_in_pool
    -0.023,  # last_cue
    0.5,  # starts_sentence
    0.736,  # described
    -0.196,  # ours
    -0.852,  # after_preposition
    0.57,  # acts
    -0.067,  # in_parens
    -0.79,  # expands
    -0.135,  # has_short_form
    -0.138,  # short_of_other
    -0.405,  # words_2
    -0.824,  # words_3
    -0.177,  # all_upper
    -0.625,  # has_digit
    -0.17,  # has_hyphen
    -1.25,  # short
    0.147,  # coined
    -0.114,  # lower
    0.624,  # repo_same
    -0.172,  # repo_part
    0.53,  # url_same
    -0.363,  # inside_other
    -0.112,  # holds_other
)
GATE: tuple[float, ...] = (
    -0.466,  # bias
    0.334,  # stated
    0.053,  # fallback
    0.143,  # top_chosen
    0.239,  # margin
    0.716,  # top_score
    0.143,  # chosen
    0.39,  # cue6
    0.047,  # cue5
    -0.45,  # cue4
    -0.054,  # cue3
    -0.134,  # cue_weak
    -0.265,  # no_cue
    -0.063,  # cue_hits
    0.467,  # guess_made
    -0.027,  # guess_defined
    0.111,  # kind_after
    0.489,  # after_lead
    -0.07,  # passive
    -0.29,  # modifies
    0.46,  # guess_project
    -0.532,  # word_only
    -0.208,  # log_count
    -0.381,  # said_once
    -0.844,  # first_at
    -0.43,  # first_in_pool
    -0.072,  # last_cue
    0.188,  # starts_sentence
    0.117,  # described
    0.109,  # ours
    -0.114,  # after_preposition
    0.326,  # acts
    -0.028,  # in_parens
    -0.688,  # expands
    0.452,  # has_short_form
    -0.156,  # short_of_other
    -0.33,  # words_2
    -0.287,  # words_3
    -0.354,  # all_upper
    0.067,  # has_digit
    -0.213,  # has_hyphen
    -0.313,  # short
    -0.191,  # coined
    -0.011,  # lower
    -0.116,  # repo_same
    -0.167,  # repo_part
    0.258,  # url_same
    -0.106,  # inside_other
    -0.006,  # holds_other
)
# The gate's least score to show a name the hand-written rules give, and one they do not.
KEEP = -2.129
ADD = -2.225
