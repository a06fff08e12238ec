"""Authors for the benchmark corpus, which has none: 2-8 names per paper, the same every run.

Real libraries hold tens of thousands of distinct names; a small list would index a few hundred
tokens and make `author:` look cheaper than it is. So most family names are made of syllables
(seeded), with a few real ones (accents included) for the queries in `queries_fields.txt`.
"""

from __future__ import annotations

import random
from dataclasses import replace

from papershelf.storage.model import Paper

GIVEN = [
    "Ashish",
    "Noam",
    "Niki",
    "Jakob",
    "Llion",
    "Aidan",
    "Łukasz",
    "Illia",
    "Yann",
    "Yoshua",
    "Geoffrey",
    "Fei-Fei",
    "Andrew",
    "Jürgen",
    "Sepp",
    "Kaiming",
    "Ross",
    "Piotr",
    "Jian",
    "Xiangyu",
    "Shaoqing",
    "Diederik",
    "Max",
    "Durk",
    "Ian",
    "Ilya",
    "Oriol",
    "Quoc",
    "Alex",
    "Tomás",
    "Zoé",
    "Chloé",
    "José",
    "María",
    "Søren",
    "Björn",
    "Émilie",
    "Wei",
    "Li",
    "Jun",
    "Hao",
    "Yu",
    "Min",
    "Ji-woo",
    "Priya",
    "Arjun",
]
FAMILY = [
    "Vaswani",
    "Shazeer",
    "Parmar",
    "Uszkoreit",
    "Jones",
    "Gomez",
    "Kaiser",
    "Polosukhin",
    "LeCun",
    "Bengio",
    "Hinton",
    "Li",
    "Ng",
    "Schmidhuber",
    "Hochreiter",
    "He",
    "Girshick",
    "Dollár",
    "Sun",
    "Zhang",
    "Ren",
    "Kingma",
    "Welling",
    "Goodfellow",
    "Sutskever",
    "Vinyals",
    "Le",
    "Krizhevsky",
    "Müller",
    "García",
    "Nguyễn",
    "Wang",
    "Chen",
    "Liu",
    "Yang",
    "Huang",
    "Zhao",
    "Wu",
    "Zhou",
    "Xu",
    "Smith",
    "Johnson",
    "Brown",
    "Kim",
    "Park",
    "Lee",
    "Singh",
    "Kumar",
    "Sharma",
    "Øksendal",
    "Šimánek",
    "Dvořák",
    "Kowalski",
]
_SYLLABLES = [
    "ka",
    "ri",
    "to",
    "na",
    "me",
    "lo",
    "su",
    "vi",
    "de",
    "ha",
    "ne",
    "mo",
    "ra",
    "zi",
    "pe",
    "lu",
    "ta",
    "sho",
    "gan",
    "bel",
    "mar",
    "tin",
    "ova",
    "ski",
]


def with_authors(papers: list[Paper], seed: int = 13) -> list[Paper]:
    """The papers with synthetic authors (and nothing else changed)."""
    rng = random.Random(seed)
    invented = [
        "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 4))).capitalize()
        for _ in range(20000)
    ]
    out = []
    for paper in papers:
        names = []
        for _ in range(rng.randint(2, 8)):
            family = rng.choice(FAMILY) if rng.random() < 0.3 else rng.choice(invented)
            names.append(f"{rng.choice(GIVEN)} {family}")
        out.append(replace(paper, authors=tuple(names)))
    return out
