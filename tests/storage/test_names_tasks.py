"""A task or a problem a paper poses is not its method's name (derive._data), in abstracts
written for these tests: "we introduce the X (ACR) task and ... we propose NAME, a ..."."""

from __future__ import annotations

import pytest

from papershelf.storage.names.derive import method_name


@pytest.mark.parametrize(
    ("abstract", "name"),
    [
        (
            "Sensor data matter. To address this, we introduce the Spectral Signal Question "
            "Answering (Spectral QA) task and release SpecBank-QA, the first large-scale QA "
            "dataset for spectra. Building on this resource, we propose the Harmonic Reader "
            "Model (HaRM), a novel framework that bridges spectra and text. HaRM improves "
            "accuracy.",
            "HaRM",
        ),
        (
            "Fleets are hard to plan. To address this, we introduce the Fleet Route Relabeling "
            "(Fleet RR) problem and release FleetBank, the first benchmark for fleets. Building "
            "on this resource, we propose the Route Mending Transformer (RoMeT), a novel "
            "framework that relabels routes. RoMeT is fast.",
            "RoMeT",
        ),
    ],
)
def test_the_method_wins_over_the_task_the_paper_poses(abstract: str, name: str) -> None:
    assert method_name(abstract) == name


def test_a_method_for_a_task_keeps_its_name() -> None:
    # The task named further on ("for ... tasks") says nothing against the name.
    abstract = "We propose LinkWeaver, a framework for link prediction tasks. LinkWeaver wins."
    assert method_name(abstract) == "LinkWeaver"
