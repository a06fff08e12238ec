"""The name ranker's and gate's weights (`names.rank.FEATURES`, `GATE_FEATURES`).

Written by `python bench/fit_names.py` (do not edit by hand); fitted on
the 733 of 2882 bench_names cases and the 1270 --precision papers that are
in the development half under seeds (11, 7).
"""

WEIGHTS: tuple[float, ...] = (
    0.722,  # chosen
    0.548,  # cue6
    0.318,  # cue5
    -0.021,  # cue4
    -0.299,  # cue3
    0.226,  # cue_weak
    -0.773,  # no_cue
    0.703,  # cue_hits
    0.06,  # guess_made
    0.135,  # guess_defined
    -0.178,  # kind_after
    0.26,  # after_lead
    0.349,  # passive
    0.235,  # modifies
    1.006,  # guess_project
    -1.254,  # word_only
    0.56,  # log_count
    -0.808,  # said_once
    0.214,  # first_at
    0.004,  # first_in_pool
    -0.024,  # last_cue
    0.502,  # starts_sentence
    0.742,  # described
    -0.195,  # ours
    -0.84,  # after_preposition
    0.574,  # acts
    -0.073,  # in_parens
    -0.792,  # expands
    -0.136,  # has_short_form
    -0.138,  # short_of_other
    -0.406,  # words_2
    -0.824,  # words_3
    -0.177,  # all_upper
    -0.61,  # has_digit
    -0.174,  # has_hyphen
    -1.255,  # short
    0.155,  # coined
    -0.111,  # lower
    0.613,  # repo_same
    -0.171,  # repo_part
    0.524,  # url_same
    -0.367,  # inside_other
    -0.12,  # holds_other
)
GATE: tuple[float, ...] = (
    -0.465,  # bias
    0.337,  # stated
    0.053,  # fallback
    0.143,  # top_chosen
    0.248,  # margin
    0.706,  # top_score
    0.143,  # chosen
    0.392,  # cue6
    0.048,  # cue5
    -0.453,  # cue4
    -0.054,  # cue3
    -0.133,  # cue_weak
    -0.264,  # no_cue
    -0.061,  # cue_hits
    0.47,  # guess_made
    -0.028,  # guess_defined
    0.114,  # kind_after
    0.493,  # after_lead
    -0.078,  # passive
    -0.275,  # modifies
    0.465,  # guess_project
    -0.531,  # word_only
    -0.242,  # log_count
    -0.382,  # said_once
    -0.851,  # first_at
    -0.421,  # first_in_pool
    -0.074,  # last_cue
    0.198,  # starts_sentence
    0.119,  # described
    0.113,  # ours
    -0.083,  # after_preposition
    0.351,  # acts
    -0.023,  # in_parens
    -0.687,  # expands
    0.449,  # has_short_form
    -0.153,  # short_of_other
    -0.335,  # words_2
    -0.293,  # words_3
    -0.356,  # all_upper
    0.074,  # has_digit
    -0.213,  # has_hyphen
    -0.313,  # short
    -0.193,  # coined
    -0.01,  # lower
    -0.113,  # repo_same
    -0.165,  # repo_part
    0.259,  # url_same
    -0.104,  # inside_other
    0.0,  # holds_other
)
# The gate's least score to show a name the hand-written rules give, and one they do not.
KEEP = -2.109
ADD = -2.308
