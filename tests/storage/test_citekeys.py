"""Citation keys: `vaswani2017attention` style, the paper's own key kept, unique and stable."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from papershelf.storage.export.citekeys import base_key, cite_keys, fold_ascii, usable_key
from papershelf.storage.model import Paper


def paper(pid: str, title: str | None = "Attention Is All You Need", **fields: object) -> Paper:
    return Paper(id=pid, name="Net", title=title, abstract="x", venue=None, sources=(), **fields)  # type: ignore[arg-type]


def test_family_year_and_first_significant_title_word() -> None:
    assert base_key(paper("a", authors=("Ashish Vaswani", "Noam Shazeer"), year=2017)) == (
        "vaswani2017attention"
    )
    assert base_key(paper("a", "The Ünïcode of $\\alpha$-Nets", authors=("Müller, Jörg",))) == (
        "mullerunicode"
    )
    assert base_key(paper("a", "On the {BERT}", authors=("Guido van Rossum",), year=2019)) == (
        "vanrossum2019bert"
    )
    assert base_key(paper("a", None, authors=("李 明",), year=2020)) == "net2020"
    assert base_key(paper("a", "の", year=None)) == "net"
    assert fold_ascii("Łukasz Øster-Straße") == "lukaszosterstrasse"


def test_the_papers_own_key_is_kept_when_unique() -> None:
    mine = paper("b", cite_key="DBLP:conf/nips/VaswaniSPUJGKP17", authors=("A Vaswani",), year=2017)
    other = paper("a", authors=("A Vaswani",), year=2017)
    assert cite_keys([mine, other]) == {
        "b": "DBLP:conf/nips/VaswaniSPUJGKP17",
        "a": "vaswani2017attention",
    }
    # Two papers with one key: the smaller id keeps it; a key BibTeX cannot hold is replaced.
    twin = paper("0", cite_key="dblp:CONF/nips/vaswanispujgkp17")
    bad = paper("c", cite_key="has space", authors=("A Vaswani",), year=2017)
    keys = cite_keys([mine, twin, bad])
    assert keys["0"] == "dblp:CONF/nips/vaswanispujgkp17"
    assert keys["b"] == "vaswani2017attention" and keys["c"] == "vaswani2017attentiona"


def test_equal_keys_get_letters_after_the_first() -> None:
    same = [paper(pid, authors=("Ann Lee",), year=2020) for pid in ("c", "a", "b")]
    assert cite_keys(same) == {
        "a": "lee2020attention",
        "b": "lee2020attentiona",
        "c": "lee2020attentionb",
    }
    # A made key never takes one a paper brought with it.
    own = paper("z", cite_key="lee2020attention")
    assert cite_keys([*same, own])["a"] == "lee2020attentiona"
    assert usable_key("lee2020attention") and not usable_key("a,b") and not usable_key("")


names = st.sampled_from(["Ann Lee", "Lee, Ann", "Bo Chen", "", "Zoë Ünal"])
some_papers = st.lists(
    st.builds(
        paper,
        st.text(alphabet="abcdef0123", min_size=1, max_size=3),
        st.sampled_from(["Attention", "Nets", None, "The", "Ünïcode"]),
        authors=st.lists(names, max_size=2).map(tuple),
        year=st.none() | st.sampled_from([2019, 2020]),
        cite_key=st.none() | st.sampled_from(["lee2020attention", "K1", "k1", "bad key"]),
    ),
    max_size=12,
)


@given(some_papers, st.randoms())
def test_keys_are_unique_usable_and_do_not_depend_on_order(
    chosen: list[Paper], rng: object
) -> None:
    keys = cite_keys(chosen)
    assert set(keys) == {p.id for p in chosen}
    assert len({key.casefold() for key in keys.values()}) == len(keys)
    assert all(usable_key(key) for key in keys.values())
    # Papers with one id: the first given counts, so shuffle the unique ones.
    unique = list({p.id: p for p in chosen}.values())
    shuffled = list(unique)
    rng.shuffle(shuffled)  # type: ignore[attr-defined]
    assert cite_keys(shuffled) == cite_keys(unique)
