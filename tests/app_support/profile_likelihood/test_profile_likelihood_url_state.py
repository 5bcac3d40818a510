"""The URL state of the page "Profile likelihood", tested without Streamlit: the typed parameters and the
compact text form of a custom two-class problem (``counts=5-1,0-2&n=6-2``, read by ``PairInput``)."""

from __future__ import annotations

import pytest

from credal_core.likelihood.pair_input import PairInput, lncc_answer, paper_pairs
from tests.app_support._page_state import page_state

STATE, PAGE = page_state("profile_likelihood")
DEFAULTS = {"preset": "000-ex2", "alpha": 0.5, "beta": 0.15, "samples": 3000, "include_instance": True,
            "counts": "", "n": ""}


def test_defaults_and_a_shared_custom_link():
    assert STATE.read({}) == DEFAULTS
    query = {"preset": "custom", "counts": "3-1,2-2,4-0", "n": "4-3", "alpha": "0.35",
             "include_instance": "0", "samples": "1500"}
    values = STATE.read(query)
    assert values == {**DEFAULTS, "preset": "custom", "counts": "3-1,2-2,4-0", "n": "4-3", "alpha": 0.35,
                      "include_instance": False, "samples": 1500}
    assert STATE.write({k: values[k] for k in query}) == query


def test_links_written_before_the_page_skeleton_still_read():
    old = {"preset": "003-ex1", "beta": "0.50", "samples": "3000", "alpha": "0.80", "include_instance": "1"}
    assert STATE.read(old) == {**DEFAULTS, "preset": "003-ex1", "beta": 0.5, "alpha": 0.8}
    assert STATE.write({"alpha": 0.8, "beta": 0.5}) == {"alpha": "0.8", "beta": "0.5"}


@pytest.mark.parametrize("bad", [
    {"preset": "nope"},
    {"alpha": "abc"}, {"alpha": "nan"}, {"alpha": "-0.3"}, {"alpha": "1.5"}, {"alpha": "1e400"},
    {"samples": "ten"}, {"samples": "0"}, {"samples": "10000000"},
    {"include_instance": "maybe"},
    {"beta": "0"}, {"beta": "x"},
])
def test_bad_values_fall_back_silently(bad):
    assert STATE.read(bad) == DEFAULTS


def test_samples_and_alpha_snap_to_the_sliders():
    assert STATE.read({"samples": "3210", "alpha": "0.234"}) == {**DEFAULTS, "samples": 3000, "alpha": 0.23}


@pytest.mark.parametrize("counts, n", [
    ("", "6-2"), ("5-x", "6-2"), ("5-1", "6"), ("-5-1", "6-2"), ("5-1-2", "6-2"), ("5-1,", "6-2"),
    ("9-1", "6-2"),                      # refused by PairProfile: a feature count above n(c)
    ("12345678-1", "12345678-2"),        # more than 7 digits: not from one of our links
])
def test_unusable_counts_are_refused(counts, n):
    assert PairInput.from_text(counts, n) is None


def test_counts_round_trip_and_the_paper_examples():
    pair = PairInput.from_text("3-1,2-2,4-0", "4-3")
    assert pair == PairInput(4, 3, (3, 2, 4), (1, 2, 0))
    assert pair.to_text() == ("3-1,2-2,4-0", "4-3")
    assert paper_pairs()["000 Example 2"] == PairInput.from_text("5-1", "6-2")
    assert paper_pairs()["000 Example 3"] == PairInput.from_text("50-1,0-1", "50-50")
    assert PAGE["PAIRS"] == {"000-ex2": paper_pairs()["000 Example 2"],
                             "000-ex3": paper_pairs()["000 Example 3"]}


def test_from_counts_passes_pair_profiles_messages():
    with pytest.raises(ValueError, match="exceeds n\\(c\\) = 6"):
        PairInput.from_counts(6, 2, [7], [1])
    with pytest.raises(ValueError, match="finite"):
        PairInput.from_counts(6, 2, [float("nan")], [1])
    with pytest.raises(ValueError, match="whole numbers"):
        PairInput.from_counts(6, 2, [2.5], [1])


def test_the_verdict_in_words():
    profile = paper_pairs()["000 Example 2"].profile()
    below, above = lncc_answer(profile, 0.23), lncc_answer(profile, 0.24)
    assert below.headline == above.headline == "c dominates ¬c for α > 0.233"
    assert (below.returned, below.classes, below.determinate) == ("both", "{c, ¬c}", False)
    assert (above.returned, above.classes, above.determinate) == ("c", "{c}", True)
    assert "entirely right of 1/2" in above.reason and "not strictly on one side" in below.reason
    without = paper_pairs()["000 Example 3"].profile(include_instance=False)
    assert lncc_answer(without, 0.99).returned == "not c"
    assert lncc_answer(without, 0.5).headline == "¬c dominates c for α > 0.981"
