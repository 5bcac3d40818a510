"""Headless tests of the page "Intervals vs N" with streamlit.testing.v1.AppTest (no browser)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from _apptest import chart_traces, open_page, unlinked
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "pages" / "intervals_vs_n.py")
APP = str(ROOT / "app.py")
TIMEOUT = 60
DEFAULTS = {"ratio": 0.5, "alpha": 0.85, "s": 2.0, "beta": 0.15, "p": 0.5}
PAPER_NUMBERS = ("94.3%", "94.6%", "23.6%", "7.6%")  # 003 Example 2


def run_page(query: dict[str, str] | None = None) -> AppTest:
    return open_page(PAGE, query, TIMEOUT)


def slider(at: AppTest, name: str):
    return at.slider(key=f"iv_{name}")


def values(at: AppTest) -> dict[str, float]:
    return {name: slider(at, name).value for name in DEFAULTS}


def traces(at: AppTest, key: str) -> list[dict]:
    return chart_traces(at, key)


def band(at: AppTest, prefix: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(N, lower, upper) of the interval whose trace name starts with ``prefix`` in the top chart."""
    found = {t["meta"]: t for t in traces(at, "intervals_chart") if t["name"].startswith(prefix)}
    assert set(found) == {"lower", "upper", "width"}, found.keys()
    np.testing.assert_allclose(found["width"]["y"], found["upper"]["y"] - found["lower"]["y"])
    return found["lower"]["x"], found["lower"]["y"], found["upper"]["y"]


def curve(at: AppTest, prefix: str) -> np.ndarray:
    lines = [t for t in traces(at, "vacuous_chart") if t["name"].startswith(prefix) and t["mode"] == "lines"]
    assert len(lines) == 1
    return lines[0]["y"]


def page_text(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [m.value for m in at.success] + [m.value for m in at.caption]
    parts += [t.value.to_string() for t in at.table]
    return unlinked("\n".join(parts))


def first_row(at: AppTest, table: int = 0) -> list[str]:
    return at.table[table].value.reset_index().iloc[0].tolist()


# ------------------------------------------------------------------------------------------------ tests
def test_default_view_has_formulas_wired_curves_tables_and_reproduces_003_example_2():
    """One run of the default view serves every check of it: nothing below moves a widget."""
    at = run_page()
    assert at.title[0].value == "Intervals vs N"
    latex = " ".join(x.value for x in at.latex)
    assert r"\tfrac{n}{N+s}" in latex and r"\alpha\,\hat\theta" in latex  # both interval formulas
    assert r"|n_a-n_b| \le s" in latex
    assert any("Try this" in x.value for x in at.info)
    assert values(at) == pytest.approx(DEFAULTS)
    assert len(at.get("plotly_chart")) == 2
    assert len(at.table) == 2
    assert not re.search(r"\b(nan|inf)\b", page_text(at).lower())
    assert not at.error and not at.warning
    # the curves are wired to the right formulas
    N, lo, hi = band(at, "IDM interval")
    assert N[0] == 1 and N[-1] == 10_000 and np.all(np.diff(N) > 0)
    np.testing.assert_allclose(hi - lo, 2.0 / (N + 2.0))  # IDM width s/(N+s), s = 2
    N, lo, hi = band(at, "likelihood interval")
    assert np.all(lo < 0.5) and np.all(hi > 0.5)  # the MLE n/N = 1/2 is inside
    width = hi - lo
    assert np.all(np.diff(width) < 0)
    # 1/sqrt(N) shrinking: width * sqrt(N) settles at 2 sqrt(2 ln(1/alpha) / 4)
    assert width[-1] * np.sqrt(N[-1]) == pytest.approx(np.sqrt(2 * np.log(1 / 0.85)), rel=1e-3)
    text = page_text(at)
    assert "shrinks **3.2×** and the IDM width **10.0×**" in text
    # the defaults reproduce 003 Example 2 and say so
    table = at.table[1].value
    assert table.to_numpy().ravel().tolist() == ["94.3%", "23.6%", "94.6%", "7.6%"]
    claim = " ".join(x.value for x in at.success)
    assert "reproduce [003 Example 2](/references#paper-003 " in claim     # named by its link
    for number in PAPER_NUMBERS:
        assert f"**{number}**" in claim  # the live numbers, not just the quoted ones
    # the labelled points on the chart carry the same numbers
    marks = [t for t in traces(at, "vacuous_chart") if t["mode"] == "markers+text"]
    assert sorted(label for t in marks for label in t["text"]) == sorted(PAPER_NUMBERS)


def test_moving_alpha_changes_the_likelihood_curve_only():
    at = run_page()
    _, lik_lo, lik_hi = band(at, "likelihood interval")
    _, idm_lo, idm_hi = band(at, "IDM interval")
    row = first_row(at)
    slider(at, "alpha").set_value(0.5).run()
    assert not at.exception
    _, lik_lo2, lik_hi2 = band(at, "likelihood interval")
    _, idm_lo2, idm_hi2 = band(at, "IDM interval")
    assert np.all(lik_lo2 < lik_lo) and np.all(lik_hi2 > lik_hi)  # lower cut-off, wider interval
    np.testing.assert_array_equal(idm_lo2, idm_lo)
    np.testing.assert_array_equal(idm_hi2, idm_hi)
    row2 = first_row(at)
    assert row2[1:3] != row[1:3] and row2[3:] == row[3:]
    assert at.query_params["alpha"] == "0.5"


def test_moving_s_changes_the_idm_curve_and_the_ncc_but_not_the_likelihood():
    at = run_page()
    _, lik_lo, _ = band(at, "likelihood interval")
    _, idm_lo, idm_hi = band(at, "IDM interval")
    ncc, nhc = curve(at, "NCC"), curve(at, "NHC")
    slider(at, "s").set_value(5.0).run()
    assert not at.exception
    N, idm_lo2, idm_hi2 = band(at, "IDM interval")
    assert np.all(idm_hi2 - idm_lo2 > idm_hi - idm_lo)
    np.testing.assert_allclose(idm_hi2 - idm_lo2, 5.0 / (N + 5.0))
    np.testing.assert_array_equal(band(at, "likelihood interval")[1], lik_lo)
    assert np.all(curve(at, "NCC") >= ncc) and np.any(curve(at, "NCC") > ncc)  # more caution
    np.testing.assert_array_equal(curve(at, "NHC"), nhc)
    # no longer the paper's settings: live numbers, no claim
    assert not at.success
    assert "Reset β = 0.15, s = 2, p = 0.5 to reproduce 003 Example 2" in page_text(at)
    assert "94.3%" in page_text(at)  # the NHC does not depend on s


def test_moving_beta_and_p():
    at = run_page()
    nhc = curve(at, "NHC")
    slider(at, "beta").set_value(0.5).run()
    assert np.all(curve(at, "NHC") <= nhc) and np.any(curve(at, "NHC") < nhc)
    assert not at.success
    slider(at, "beta").set_value(0.15).run()
    assert at.success  # back at the paper's settings, the claim returns
    slider(at, "p").set_value(0.7).run()
    assert not at.exception and not at.success
    text = page_text(at)
    assert "With p = 0.7 ≠ 1/2" in text and "theoretically correct" not in text
    assert curve(at, "NCC")[-1] < 1e-6 and curve(at, "NHC")[-1] < 1e-6


def test_moving_ratio_moves_both_intervals():
    at = run_page()
    _, lik_lo, _ = band(at, "likelihood interval")
    _, idm_lo, _ = band(at, "IDM interval")
    slider(at, "ratio").set_value(0.2).run()
    assert not at.exception
    N, lik_lo2, lik_hi2 = band(at, "likelihood interval")
    _, idm_lo2, idm_hi2 = band(at, "IDM interval")
    assert np.all(lik_lo2 < lik_lo) and np.all(idm_lo2 < idm_lo)
    np.testing.assert_allclose(idm_lo2, 0.2 * N / (N + 2.0))


def test_edge_ratios_do_not_break_the_page():
    for ratio in ("0", "1"):
        at = run_page({"ratio": ratio})
        assert slider(at, "ratio").value == float(ratio)
        N, lo, hi = band(at, "likelihood interval")
        assert np.all(np.isfinite(lo)) and np.all(np.isfinite(hi))
        assert not re.search(r"\b(nan|inf)\b", page_text(at).lower())
        # at n/N = 0 or 1 the likelihood interval also shrinks like 1/N
        assert "shrinks **10.0×** and the IDM width **10.0×**" in page_text(at)


@pytest.mark.parametrize("corner", ["lo", "hi"])
def test_extreme_settings_render_without_nan(corner):
    corners = {"lo": {"ratio": "0", "alpha": "0.01", "s": "0.1", "beta": "0.01", "p": "0"},
               "hi": {"ratio": "1", "alpha": "0.99", "s": "10", "beta": "0.99", "p": "1"}}
    query = corners[corner]
    at = run_page(query)
    assert {k: f"{v:g}" for k, v in values(at).items()} == query
    assert not re.search(r"\b(nan|inf)\b", page_text(at).lower())
    for key in ("intervals_chart", "vacuous_chart"):
        for trace in traces(at, key):
            assert np.all(np.isfinite(trace["y"]))


def test_url_round_trip():
    at = run_page()
    for name, value in {"ratio": 0.3, "alpha": 0.6, "s": 4.2, "beta": 0.25, "p": 0.45}.items():
        slider(at, name).set_value(value).run()
        assert not at.exception
    shared = dict(at.query_params)
    assert shared == {"ratio": "0.3", "alpha": "0.6", "s": "4.2", "beta": "0.25", "p": "0.45"}
    reopened = run_page(shared)  # a fresh session opening the shared link sees the same view
    assert values(reopened) == values(at)
    for key in ("intervals_chart", "vacuous_chart"):
        for a, b in zip(traces(reopened, key), traces(at, key)):
            np.testing.assert_array_equal(a["y"], b["y"])
    assert [t.value.to_string() for t in reopened.table] == [t.value.to_string() for t in at.table]


def test_page_in_the_app_navigation():
    from app_support.registry import page, pages

    assert page("intervals_vs_n") in pages()          # app.py's navigation lists the registry's pages
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.run()
    at.switch_page("pages/intervals_vs_n.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.title[0].value == "Intervals vs N"
    assert values(at) == pytest.approx(DEFAULTS)
    assert "reproduce 003 Example 2" in unlinked(" ".join(x.value for x in at.success))
    slider(at, "alpha").set_value(0.5).run()
    assert not at.exception and at.query_params["alpha"] == "0.5"
    at.switch_page("pages/home.py").run()  # and back home: no clash of widget keys or URL names
    assert not at.exception, [e.value for e in at.exception]
    assert at.title[0].value == "Credal classification explorer"
