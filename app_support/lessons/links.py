"""Links from a lesson step into the full page at the same parameters (``app_support.url_state``).

The pages whose URL state lives in ``app_support`` (Missing values, Classifier selection) are written with
that one declaration; the others' fields that a lesson sets are declared here as the page declares them.
Each link is written in its canonical form (``UrlState.write``); a test opens each page with these links
and checks that its widgets show the lesson's values.
"""

from __future__ import annotations

from app_support.classifier_selection.counts import COUNTS, format_table, instance_values
from app_support.classifier_selection.state import PAPER_SUBSETS
from app_support.classifier_selection.state import url_state as _selection_state
from app_support.missing_values.state import STATE as _MISSING
from app_support.url_state import Choice, Flag, Number, Text, UrlState

from .problems import VALUES

__all__ = ["home", "profile", "intervals", "missing", "aode", "network", "selection", "selection_table",
           "glossary"]

_HOME = UrlState(Number("s", 2.0, 0.1, 10.0, step=0.1))
_PROFILE = UrlState(
    Choice("preset", ("000-ex2", "000-ex3", "003-ex1", "custom"), "000-ex2"),
    Text("counts", max_len=1_000),
    Text("n", max_len=20),
    Number("alpha", 0.5, 0.0, 1.0, step=0.01),
    Flag("include_instance", True),
)
_INTERVALS = UrlState(
    Number("ratio", 0.5, 0.0, 1.0, step=0.01),
    Number("alpha", 0.85, 0.01, 0.99, step=0.01),
    Number("s", 2.0, 0.1, 10.0, step=0.1),
    Number("beta", 0.15, 0.01, 0.99, step=0.01),
    Number("p", 0.5, 0.0, 1.0, step=0.01),
)
_AODE = UrlState(
    Choice("data", ("synthetic_nb", "weather"), "synthetic_nb"),
    Number("eps", 0.01, 0.001, 0.1, step=0.001),
    Number("n", 300, 4, 100_000, integer=True),
)

_NETWORK = UrlState(
    Choice("data", ("weather",), "weather"),
    Choice("graph", ("naive", "tan", "edges"), "tan"),
    Number("row", 0, 0, 1_000_000, step=1, integer=True),
    Text("a", max_len=200),
    Text("b", max_len=200),
    Number("beta", 0.15, 0.01, 0.99, step=0.01),
)


def _clip(field, value):
    return field.parse(field.format(value))


def _write(state: UrlState, values: dict) -> dict:
    return state.write({name: _clip(state[name], value) for name, value in values.items()})


def home(s: float) -> dict:
    return _write(_HOME, {"s": s})


def profile(pair, alpha: float, include_instance: bool = True) -> dict:
    counts, totals = pair.to_text()
    return _write(
        _PROFILE,
        {
            "preset": "custom",
            "counts": counts,
            "n": totals,
            "alpha": alpha,
            "include_instance": include_instance,
        },
    )


def intervals(**values) -> dict:
    return _write(_INTERVALS, values)


def missing(**values) -> dict:
    values = {"data": "weather", **values}
    if "missing" in values:
        values["missing"] = tuple(values["missing"])
    return _write(_MISSING, values)


def aode(**values) -> dict:
    return _write(_AODE, values)


def network(**values) -> dict:
    return _write(_NETWORK, values)


def selection(**values) -> dict:
    """Classifier selection on Balloons with 004's feature subsets (its defaults) at these values."""
    columns = tuple(dict.fromkeys(PAPER_SUBSETS["balloons"][0] + PAPER_SUBSETS["balloons"][1]))
    return _write(_selection_state(columns, PAPER_SUBSETS["balloons"]), values) if values else {}


def selection_table(pair) -> dict:
    """Classifier selection on a two-class count table (``PairInput``): C1 on f1, C2 on f1 and f2, the
    instance x|x… typed in; the page shows both NBCs' thresholds of that instance on all rows."""
    columns = tuple(f"f{j + 1}" for j in range(len(pair.counts_c)))
    state = _selection_state(columns, (columns[:1], columns), (VALUES,) * len(columns))
    return _write(state, {"data": COUNTS, "counts": format_table(pair), "f1": columns[:1], "f2": columns[:2],
                          "source": "typed", "x": instance_values(pair)})


def glossary() -> dict:
    return {}
