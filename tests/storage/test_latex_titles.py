"""Titles shown as Unicode: font switches, commands whose braces were lost, text accents."""

# The expected values are Unicode letters and dashes on purpose.
# ruff: noqa: RUF001

from __future__ import annotations

import pytest

from papershelf.storage.names.derive import derive_name
from papershelf.storage.text.latex import display_text
from papershelf.storage.text.titles import display_title

TITLES = {
    # Hand-written, in the shapes the real corpus has.
    "K$^2$IE: Kernel Intensity Estimators": "K²IE: Kernel Intensity Estimators",
    r"$\rm E(3)$-Equivariant Critics": "E(3)-Equivariant Critics",
    r"$\bf\Phi_\textrm{Flow}$: Simulations": "Φ_(Flow): Simulations",
    r"$\bfΦ_\textrmFlow$: Simulations": "Φ_(Flow): Simulations",
    r"α-NeuS$\textemdash$an Extension": "α-NeuS—an Extension",
    r"Pages 3\textendash{}5": "Pages 3–5",
    r"Dense Instances of $\mathcalNP$-hard Problems": "Dense Instances of 𝒩𝒫-hard Problems",
    r"Breaking the $\mathcalO(\sqrtT)$ Barrier": "Breaking the 𝒪(√T) Barrier",
    r"$\textttMoE-RBench$: Reliable Experts": "MoE-RBench: Reliable Experts",
    r"Weights $\textitIrreversibly$ Impair": "Weights Irreversibly Impair",
    r"A $\mathcal{O}(\sqrt{T})$ Bound with {\cal A}": r"A 𝒪(√T) Bound with {\cal A}",
    r"A ${\cal A}_k$-norm": "A 𝒜ₖ-norm",
    r"Diffusion Schr\"{o}dinger Bridge": "Diffusion Schrödinger Bridge",
    r"Nystr{\"o}m Features": "Nyström Features",
    r"Mat\'ern and R\'{e}nyi": "Matérn and Rényi",
    r"ReNovo: \emph{De Novo} Sequencing": "ReNovo: De Novo Sequencing",
    "A _lifting_ **Bold** Title": "A lifting Bold Title",
}


@pytest.mark.parametrize(("title", "shown"), TITLES.items())
def test_display_title(title: str, shown: str) -> None:
    assert display_title(title) == shown


def test_a_grave_needs_braces_an_escaped_quote_is_kept() -> None:
    assert display_text(r"have \`maximal' or \`{e}").text == r"have \`maximal' or è"


def test_display_title_changes_nothing_else() -> None:
    # Control characters stay, for the screen to show as stand-ins (never stripped unseen).
    assert display_title("A \x1b[2J $x^2$\ttitle") == "A \x1b[2J x²\ttitle"
    assert display_title("Plain  [b]title[/b]\n") == "Plain  [b]title[/b]\n"
    assert display_title(None) == ""
    assert display_title("") == ""


def test_names_from_titles_are_converted_and_keep_their_parentheses() -> None:
    abstract = "We study equivariant critics for cooperative agents."
    assert derive_name(abstract, r"$\rm E(3)$-Equivariant Actor-Critic Methods") == (
        "E(3)-Equivariant Actor-Critic Methods"
    )
    assert derive_name("We propose a kernel.", "K$^2$IE: Kernel Intensity Estimators") == "K²IE"
    assert derive_name("We propose a thing.", r"$\mathttVITS$: Thompson Sampling") == "VITS"


def test_a_name_from_a_title_has_no_emphasis_markers() -> None:
    assert derive_name("Wombats dig holes.", "_Lifting_ Wombats: A Study of Holes") == (
        "Lifting Wombats"
    )
