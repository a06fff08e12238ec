"""A field acronym with a version is a name ("we introduce SAM 2, a ..."); alone it is none.

Abstracts written for these tests (storage/names/words.py `name_at`).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from papershelf.storage.names.derive import method_name
from papershelf.storage.names.words import GENERIC

_VERSIONS = st.sampled_from(["2", "3", "2.0", "v2", "4.5", "7B", "XL"])
_ACRONYMS = st.sampled_from(sorted(word for word in GENERIC if word.isupper() and len(word) > 2))


def test_a_generic_acronym_with_a_version_is_a_name() -> None:
    assert method_name("We introduce SAM 2, a model for video segmentation.") == "SAM 2"
    assert method_name("we present GPT 4.5, a larger chat model.") == "GPT 4.5"


@settings(max_examples=100, deadline=None)
@given(acronym=_ACRONYMS, version=_VERSIONS)
def test_any_field_acronym_and_version_set_off_is_named(acronym: str, version: str) -> None:
    """Property: "we introduce ACR VERSION, a ..." names "ACR VERSION"; "ACR, a ..." nothing."""
    named = f"We introduce {acronym} {version}, a system for planning tasks."
    assert method_name(named) == f"{acronym} {version}"
    alone = f"We introduce {acronym}, a system for planning tasks."
    assert method_name(alone) is None
