"""The name ranker's and gate's weights (`names.rank.FEATURES`, `GATE_FEATURES`).

Written by `python bench/fit_names.py` (do not edit by hand); fitted on
the 733 of 2882 bench_names cases and the 1270 --precision papers that are
in the development half under seeds (11, 7).
"""

WEIGHTS: tuple[float, ...] = (
    0.724,  # chosen
    0.548,  # cue6
    0.319,  # cue5
    -0.02,  # cue4
    -0.297,  # cue3
    0.223,  # cue_weak
    -0.775,  # no_cue
    0.699,  # cue_hits
    0.06,  # guess_made
    0.134,  # guess_defined
    -0.186,  # kind_after
    0.264,  # after_lead
    0.349,  # passive
    0.235,  # modifies
    1.006,  # guess_project
    -1.253,  # word_only
    0.555,  # log_count
    -0.816,  # said_once
    0.204,  # first_at
    0.002,  # first_in_pool
    -0.022,  # last_cue
    0.502,  # starts_sentence
    0.743,  # described
    -0.192,  # ours
    -0.85,  # after_preposition
    0.572,  # acts
    -0.073,  # in_parens
    -0.79,  # expands
    -0.133,  # has_short_form
    -0.139,  # short_of_other
    -0.405,  # words_2
    -0.822,  # words_3
    -0.173,  # all_upper
    -0.627,  # has_digit
    -0.175,  # has_hyphen
    -1.25,  # short
    0.148,  # coined
    -0.112,  # lower
    0.616,  # repo_same
    -0.173,  # repo_part
    0.524,  # url_same
    -0.365,  # inside_other
    -0.115,  # holds_other
)
GATE: tuple[float, ...] = (
    -0.466,  # bias
    0.334,  # stated
    0.053,  # fallback
    0.143,  # top_chosen
    0.242,  # margin
    0.711,  # top_score
    0.143,  # chosen
    0.39,  # cue6
    0.047,  # cue5
    -0.45,  # cue4
    -0.054,  # cue3
    -0.134,  # cue_weak
    -0.265,  # no_cue
    -0.063,  # cue_hits
    0.468,  # guess_made
    -0.027,  # guess_defined
    0.111,  # kind_after
    0.489,  # after_lead
    -0.08,  # passive
    -0.292,  # modifies
    0.462,  # guess_project
    -0.532,  # word_only
    -0.209,  # log_count
    -0.381,  # said_once
    -0.845,  # first_at
    -0.43,  # first_in_pool
    -0.073,  # last_cue
    0.188,  # starts_sentence
    0.117,  # described
    0.108,  # ours
    -0.113,  # after_preposition
    0.328,  # acts
    -0.027,  # in_parens
    -0.688,  # expands
    0.452,  # has_short_form
    -0.156,  # short_of_other
    -0.33,  # words_2
    -0.287,  # words_3
    -0.355,  # all_upper
    0.067,  # has_digit
    -0.213,  # has_hyphen
    -0.314,  # short
    -0.191,  # coined
    -0.011,  # lower
    -0.115,  # repo_same
    -0.167,  # repo_part
    0.26,  # url_same
    -0.106,  # inside_other
    -0.006,  # holds_other
)
# The gate's least score to show a name the hand-written rules give, and one they do not.
KEEP = -2.095
ADD = -2.203
