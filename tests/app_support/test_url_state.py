"""The typed URL state itself (app_support.url_state): every field type, the state's read / write, and
the URL states of the Compare and Determinacy pages (no Streamlit run)."""

from __future__ import annotations

import doctest

import pytest
from _page_state import page_state

from app_support import url_state
from app_support.url_state import Choice, Flag, Names, Number, Numbers, Row, Text, UrlState

NASTY = ["abc", "", "nan", "inf", "-inf", "1e400", "0x10", "1,2", " "]


def test_the_modules_examples_hold():
    result = doctest.testmod(url_state, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 3 and result.failed == 0


# ---------------------------------------------------------------- Number
def test_number_reads_snaps_and_writes_without_noise():
    field = Number("s", 2.0, 0.1, 10.0, step=0.1)
    assert field.parse("4.24") == 4.2 and field.parse("4.26") == 4.3 and field.parse("10") == 10.0
    assert field.parse(" 3 ") == 3.0
    assert field.format(0.30000000000000004) == "0.3" and field.format(10.0) == "10"
    for value in (0.1, 0.3, 2.0, 9.9, 10.0):
        assert field.parse(field.format(value)) == value


@pytest.mark.parametrize("raw", NASTY + ["-3", "0.05", "10.01", "99", None, "x" * 3_000])
def test_number_out_of_range_or_garbage_gives_the_default(raw):
    assert UrlState(Number("s", 2.0, 0.1, 10.0, step=0.1)).read({"s": raw}) == {"s": 2.0}


def test_integer_number():
    field = Number("k", 3, 1, 30, integer=True)
    assert field.parse("7") == 7 and isinstance(field.parse("7"), int)
    assert field.parse("7.4") == 7 and field.parse("0") == 3 and field.parse("31") == 3
    assert field.format(7.0) == "7" and field.parse(field.format(30)) == 30


def test_number_without_step_keeps_its_value():
    field = Number("x", 0.5, 0.0, 1.0)
    assert field.parse("0.123456") == 0.123456 and field.format(1 / 3) == "0.333333333333"


def test_number_snapped_to_its_step_stays_in_range():
    field = Number("runs", 100, 10, 100, step=10, integer=True)
    assert field.parse("15") == 20 and field.parse("99") == 100 and field.parse("5") == 100


# ---------------------------------------------------------------- Choice, Flag, Text
def test_choice():
    field = Choice("data", ("iris", "wine", 3), "iris")
    assert field.parse("wine") == "wine" and field.parse("3") == 3
    for raw in ("nope", "", "WINE", None):
        assert field.parse(raw) == "iris"
    assert all(field.parse(field.format(v)) == v for v in field.options)


@pytest.mark.parametrize("raw, expected", [("1", True), ("true", True), ("Yes", True), (" on ", True),
                                           ("0", False), ("false", False), ("no", False), ("OFF", False),
                                           ("maybe", True), ("", True), (None, True), ("2", True)])
def test_flag(raw, expected):
    assert Flag("inst", True).parse(raw) is expected


def test_flag_writes_one_and_zero():
    field = Flag("on")
    assert (field.format(True), field.format(False)) == ("1", "0")
    assert field.parse(field.format(True)) is True and field.parse(field.format(False)) is False


def test_text():
    field = Text("sizes", "25, 50", max_len=10)
    assert field.parse("10, 20") == "10, 20" and field.parse("") == ""
    assert field.parse("x" * 11) == "25, 50" and field.parse(None) == "25, 50"
    assert field.parse(field.format("a|b")) == "a|b"


# ---------------------------------------------------------------- Numbers
def test_numbers_are_sorted_and_unique():
    field = Numbers("eps", (0.05, 0.15), 0.0, 1.0)
    assert field.parse("0.5,0.1,0.5") == (0.1, 0.5)
    assert field.parse(" 0.2 , 0.3 ,") == (0.2, 0.3)
    assert field.format((0.1, 0.5)) == "0.1,0.5"
    for value in ((0.0,), (0.1, 0.25, 1.0)):
        assert field.parse(field.format(value)) == value


@pytest.mark.parametrize("raw", ["", " ", "abc", "0.1,abc", "0.1,,nan", "0.1,inf", "-0.1", "1.5",
                                 "0.1,2", ",", None, ",".join(["0.5"] * 51)])
def test_numbers_malformed_or_out_of_range_give_the_default(raw):
    assert Numbers("eps", (0.05, 0.15), 0.0, 1.0).parse(raw) == (0.05, 0.15)


def test_integer_numbers():
    field = Numbers("sizes", (25, 50), 1, 1_000, integer=True)
    assert field.parse("100,25") == (25, 100) and all(isinstance(v, int) for v in field.parse("100,25"))
    assert field.parse("2.5") == (25, 50) and field.parse("0") == (25, 50)
    assert field.format((25, 100)) == "25,100" and field.parse("25,100") == (25, 100)


def test_numbers_with_options_keep_only_the_options_in_their_order():
    field = Numbers("alpha", (0.35,), 0.0, 1.0, options=(0.05, 0.15, 0.25))
    assert field.parse("0.25,0.05") == (0.05, 0.25)
    assert field.parse("0.1500000000001") == (0.15,)         # matched to 1e-9
    assert field.parse("0.2") == ()                          # in range, but not an option
    assert field.parse(field.format((0.05, 0.15))) == (0.05, 0.15)


# ---------------------------------------------------------------- Names
def test_names():
    field = Names("samples", ("a",), options=("a", "b", "c"))
    assert field.parse("c,a,c") == ("c", "a")                # unique, in the link's order
    assert field.parse("c,zzz,,b") == ("c", "b")
    assert field.parse("zzz") == () and field.parse(None) == ("a",) and field.parse("") == ()
    assert field.parse(field.format(("b", "a"))) == ("b", "a")


def test_names_empty_is_default_and_too_many():
    field = Names("clf", ("x", "y"), options=("x", "y", "z"), empty_is_default=True, max_items=3)
    assert field.parse("zzz") == ("x", "y") and field.parse("") == ("x", "y")
    assert field.parse("x,y,z,x") == ("x", "y")              # four items: not one of our links
    assert field.parse("z") == ("z",)


def test_names_without_options_and_another_separator():
    field = Names("cols", (), sep="|")
    assert field.parse("a b|c,d||a b") == ("a b", "c,d")
    assert field.format(("a b", "c,d")) == "a b|c,d"


# ---------------------------------------------------------------- Row
def test_row_keeps_positions():
    field = Row("x", (("hi", "lo", "mid"), ("hi", "lo"), ("", "z")))
    assert field.default == ("hi", "hi", "")
    assert field.parse("mid|lo|z") == ("mid", "lo", "z")
    assert field.parse("mid|lo|") == ("mid", "lo", "")       # an empty value keeps its place
    assert field.parse("lo|lo") == ("lo", "lo", "")          # a short list: the first option
    assert field.parse("lo|lo|z|extra") == ("lo", "lo", "z")
    for value in (("lo", "hi", "z"), ("mid", "lo", "")):
        assert field.parse(field.format(value)) == value


@pytest.mark.parametrize("raw", ["", None, "nope", "nope|nope|nope", "LO|HI|Z", ",,", "x" * 3_000])
def test_row_values_not_in_the_column_give_its_first(raw):
    state = UrlState(Row("x", (("hi", "lo"), ("a", "b"))))
    assert state.read({"x": raw}) == {"x": ("hi", "a")}


# ---------------------------------------------------------------- UrlState
STATE = UrlState(Number("s", 2.0, 0.1, 10.0, step=0.1), Choice("data", ("iris", "wine"), "iris"),
                 Flag("on"), Numbers("eps", (0.1,), 0.0, 1.0), Names("cols", ("a",), options=("a", "b")),
                 Text("note"), Row("x", (("p", "q"),)))


def test_state_defaults_and_a_full_round_trip():
    assert STATE.read({}) == STATE.defaults() == {"s": 2.0, "data": "iris", "on": False, "eps": (0.1,),
                                                  "cols": ("a",), "note": "", "x": ("p",)}
    values = {"s": 7.5, "data": "wine", "on": True, "eps": (0.2, 0.4), "cols": ("b", "a"), "note": "hi there",
              "x": ("q",)}
    written = STATE.write(values)
    assert written == {"s": "7.5", "data": "wine", "on": "1", "eps": "0.2,0.4", "cols": "b,a",
                       "note": "hi there", "x": "q"}
    assert STATE.read(written) == values
    assert STATE.write(STATE.read(written)) == written


def test_state_ignores_unknown_parameters_and_reads_the_last_of_a_list():
    assert STATE.read({"zzz": "1", "s": ["3", "4"], "data": []}) == {**STATE.defaults(), "s": 4.0}


def test_state_write_leaves_out_missing_and_none_and_honours_only():
    assert STATE.write({"s": 3.0, "data": None}) == {"s": "3"}
    assert STATE.write({"s": 3.0, "data": "wine"}, only=["data"]) == {"data": "wine"}


def test_state_names_any_and_its_fields():
    assert STATE.names_any({"s": "1"}) and not STATE.names_any({}) and not STATE.names_any({"zzz": "1"})
    assert [f.name for f in STATE] == ["s", "data", "on", "eps", "cols", "note", "x"]
    assert STATE["data"].default == "iris"


def test_duplicate_names_are_refused():
    with pytest.raises(ValueError, match="duplicate"):
        UrlState(Number("s", 1, 0, 2), Flag("s"))


# ---------------------------------------------------------------- the Compare page's state
COMPARE, CMP = page_state("compare")
CMP_DEFAULTS = {"samples": ("balloons", "iris", "monks2"), "clf": CMP["DEFAULT_LABELS"], "disc": "mdl",
                "bins": 5, "missing": "impute", "folds": 5, "repeats": 2, "seed": 0, "s": 1.0,
                "eps": 0.05, "alpha": 0.75, "signif": 0.1, "match": "none", "bayes": False, "rope": 0.01,
                "sets": False, "fig001": False, "reject": False, "d": 0.2}


def test_compare_defaults():
    assert COMPARE.read({}) == CMP_DEFAULTS


def test_compare_shared_link_round_trip():
    clf = CMP["CLASSIFIERS"][:2]
    query = {"samples": "iris,weather", "clf": ",".join(clf), "disc": tuple(CMP["DISCRETISERS"])[-1],
             "bins": "7", "missing": tuple(CMP["MISSING_CHOICES"])[-1], "folds": "3", "repeats": "4",
             "seed": "42", "s": "2.5", "eps": "0.1", "alpha": "0.9", "signif": "0.2",
             "match": tuple(CMP["MATCH_CHOICES"])[-1], "bayes": "1", "rope": "0.02", "sets": "1",
             "fig001": "1", "reject": "1", "d": "0.3"}
    values = COMPARE.read(query)
    assert values["samples"] == ("iris", "weather") and values["clf"] == clf
    assert (values["bins"], values["folds"], values["repeats"], values["seed"]) == (7, 3, 4, 42)
    assert (values["s"], values["eps"], values["alpha"]) == (2.5, 0.1, 0.9)
    assert COMPARE.write(values) == query


@pytest.mark.parametrize("name, raw", [
    ("samples", None), ("clf", "zzz"), ("clf", ""), ("disc", "nope"), ("bins", "1"), ("bins", "11"),
    ("missing", "drop_all"), ("folds", "1"), ("folds", "abc"), ("repeats", "0"), ("seed", "-1"),
    ("seed", "1000001"), ("s", "0"), ("s", "nan"), ("eps", "1.5"), ("alpha", "0"), ("alpha", "abc"),
    ("match", "zzz"), ("d", "0.7"), ("d", "abc"), ("rope", "-1"), ("signif", "2"), ("bayes", "maybe"),
])
def test_compare_bad_values_fall_back(name, raw):
    assert COMPARE.read({name: raw}) == CMP_DEFAULTS


def test_compare_unknown_samples_are_dropped():
    assert COMPARE.read({"samples": "iris,nope,iris"})["samples"] == ("iris",)
    assert COMPARE.read({"samples": "nope"})["samples"] == ()


# ---------------------------------------------------------------- the Determinacy page's state
DETERMINACY, DC = page_state("determinacy_curves")
DC_DEFAULTS = {"source": "artificial", "m": 10, "classes": 2, "theta": 4, "train": 5, "test": 2000,
               "sizes": "25, 50, 100", "eps": (0.05, 0.15, 0.25, 0.35), "alpha": (0.35, 0.55, 0.75, 0.95),
               "s": 1.0, "inst": True, "seed": 0, "data": "weather", "protocol": "cv", "folds": 5,
               "repeats": 4, "dsizes": ""}


def test_determinacy_defaults():
    assert DETERMINACY.read({}) == DC_DEFAULTS


def test_determinacy_shared_link_round_trip():
    query = {"source": "sample", "m": "5", "classes": "3", "theta": "2", "train": "1", "test": "0",
             "sizes": "10, 20", "eps": "0,0.5,1", "alpha": "0.05,0.99", "s": "0.1", "inst": "0",
             "seed": "9", "data": "balloons", "protocol": "holdout", "folds": "10", "repeats": "20",
             "dsizes": "30"}
    values = DETERMINACY.read(query)
    assert values["eps"] == (0.0, 0.5, 1.0) and values["alpha"] == (0.05, 0.99)
    assert values["inst"] is False and values["source"] == "sample" and values["protocol"] == "holdout"
    assert DETERMINACY.write(values) == query


@pytest.mark.parametrize("name, raw", [
    ("source", "file"), ("m", "0"), ("m", "31"), ("classes", "5"), ("theta", "abc"), ("train", "0"),
    ("test", "10001"), ("sizes", "x" * 61), ("eps", "abc"), ("eps", "2"), ("alpha", "-0.1"), ("s", "11"),
    ("inst", "maybe"), ("seed", "-1"), ("data", "iris"), ("protocol", "loo"), ("folds", "1"),
    ("repeats", "21"), ("dsizes", "x" * 61),
])
def test_determinacy_bad_values_fall_back(name, raw):
    assert DETERMINACY.read({name: raw}) == DC_DEFAULTS


def test_determinacy_only_offered_epsilons_and_alphas_are_kept():
    assert DETERMINACY.read({"eps": "0.05,0.3"})["eps"] == (0.05,)
    assert set(DETERMINACY["eps"].options) == set(DC["EPSILON_CHOICES"])
    assert set(DETERMINACY["alpha"].options) == set(DC["ALPHA_CHOICES"])
