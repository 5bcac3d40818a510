"""Headless tests of the page "Compare on your data": samples, uploads, hostile files, downloads."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "pages" / "compare.py")
TIMEOUT = 180
QUICK = {"folds": "2", "repeats": "1", "clf": "NBC,NCC,LNCC_α=0.75"}

VALID = ("colour,size,weight,class\n" + "\n".join(
    f"{'rgb'[i % 3]},{'SML'[i % 3 == 0]},{1.5 + (i % 7) * 0.8:.1f},{'yes' if (i % 3) else 'no'}"
    for i in range(40))).encode()

HOSTILE = {
    "empty.csv": b"",
    "blank.csv": b"\n\n   \n",
    "header_only.csv": b"a,b,class\n",
    "binary.csv": bytes(range(256)) * 8,
    "zip.csv": b"PK\x03\x04" + b"\x00" * 200,
    "one_column.csv": b"value\n1\n2\n3\n",
    "one_class.csv": b"a,class\nx,yes\ny,yes\nz,yes\n",
    "duplicate_names.csv": b"a,a,class\n1,2,x\n3,4,y\n",
    "ragged.csv": b"a,b,class\n1,2,x\n3,4\n5,6,y\n",
    "unbalanced_quote.csv": b'a,b,class\n"open,2,x\n3,4,y\n',
    "huge_cell.csv": b"a,b,class\n" + b"z" * 50_000 + b",1,x\n2,3,y\n",
    "wide.csv": (",".join(f"c{j}" for j in range(10_000)) + "\n" + ",".join("1" * 10_000)).encode(),
    "nan_inf.csv": b"a,b,class\nnan,inf,x\n-inf,NaN,y\ninf,1,x\n2,nan,y\n",
    "formulas.csv": b"=cmd,b,class\n=1+1,@SUM(A1),x\n+2,-3,y\n=HYPERLINK(\"x\"),4,x\n5,6,y\n",
    "unicode_names.csv": "名前,größe,\u202eclass\nα,1,ja\nβ,2,nein\nγ,3,ja\nδ,4,nein\n".encode(),
    "latin1.csv": "café,class\nnaïve,a\nbœ,b\nçà,a\nél,b\n".encode("latin-1", errors="replace"),
    "mixed_types.csv": b"a,class\n1,x\ntwo,y\n3.5,x\nfour,y\n",
    "all_missing.csv": b"a,b,class\n?,,x\n,NA,y\n?,?,x\n",
    "class_missing.csv": b"a,class\n1,\n2,\n3,x\n",
    "semicolon_decimal_comma.csv": b"a;b;class\n1,5;x;y\n2,5;z;n\n3,5;x;y\n",
    "only_delimiters.csv": b",,,\n,,,\n,,,\n",
    "numeric_target.csv": ("f,mpg\n" + "\n".join(f"a,{10 + i * 0.37:.2f}" for i in range(40))).encode(),
    "singletons.csv": b"a,class\nx,1\ny,2\nz,3\nw,4\n",
    "null_bytes.csv": b"a,b,class\n1,\x002,x\n",
    "crlf_bom.csv": b"\xef\xbb\xbfa,b,class\r\n1,x,p\r\n2,y,q\r\n3,x,p\r\n4,y,q\r\n",
}


def run_page(query: dict[str, str] | None = None) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=TIMEOUT)
    at.query_params.update({**QUICK, **(query or {})})
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_default_view_compares_on_two_samples():
    at = run_page({"samples": "weather,synthetic_nb"})
    assert len(at.tabs) == 2
    table = at.dataframe[0].value
    assert table["classifier"].tolist() == ["NBC", "NCC", "LNCC_α=0.75"]
    assert {"Accuracy", "Determinacy", "u65", "u80", "Precise acc. (indet.)"} <= set(table.columns)
    assert table.loc[0, "Determinacy"].startswith("100.0")
    assert len(at.get("plotly_chart")) == 2 * 2 + 1             # two per data set, the CD diagram
    assert at.query_params["folds"] == "2" and at.query_params["samples"] == "weather,synthetic_nb"


def test_upload_then_hostile_files_with_their_messages_then_a_valid_upload_in_the_same_session():
    at = run_page({"samples": ""})
    assert any("Upload a CSV file" in i.value for i in at.info)
    uploader = at.get("file_uploader")[0]
    uploader.set_value(("valid.csv", VALID, "text/csv")).run()
    assert not at.exception
    assert at.dataframe[0].value["classifier"].tolist() == ["NBC", "NCC", "LNCC_α=0.75"]
    expectations = {"empty.csv": "is empty", "binary.csv": "looks binary", "one_class.csv": "fewer than two",
                    "duplicate_names.csv": "duplicate column names", "ragged.csv": "row 3 has 2 fields",
                    "numeric_target.csv": "looks continuous"}      # specific messages for typical mistakes
    refused = 0
    for name, data in HOSTILE.items():
        at.get("file_uploader")[0].set_value((name, data, "text/csv")).run()
        assert not at.exception, (name, [e.value for e in at.exception])
        messages = [e.value for e in at.error] + [w.value for w in at.warning] + [i.value for i in at.info]
        assert messages or at.dataframe, name            # either a clear message or a usable result
        refused += bool(at.error)
        if name in expectations:
            assert any(expectations[name] in e.value for e in at.error), (name, [e.value for e in at.error])
    assert refused >= 18
    # user text is shown literally
    at.get("file_uploader")[0].set_value(("[click](http://evil).csv", b"", "text/csv")).run()
    message = at.error[0].value
    assert message.startswith("**\\[click\\]\\(http\\://evil\\)\\.csv** cannot be used")
    at.get("file_uploader")[0].set_value(("valid_again.csv", VALID, "text/csv")).run()
    assert not at.exception and not at.error
    assert at.dataframe[0].value["classifier"].tolist() == ["NBC", "NCC", "LNCC_α=0.75"]


def test_id_like_column_is_dropped_and_missing_class_rows_left_out():
    rows = "\n".join(f"{i},{'rgb'[i % 3]},{'yes' if i % 3 else 'no'}" for i in range(30))
    data = ("id,colour,class\n" + rows + "\n31,r,\n").encode()
    at = run_page({"samples": ""})
    at.get("file_uploader")[0].set_value(("ids.csv", data, "text/csv")).run()
    assert not at.exception and not at.error
    assert any("Drop ID-like columns" in c.label and c.value for c in at.checkbox)
    assert any("rows without a class are left out" in c.value for c in at.caption)


def test_formula_cells_are_data_and_every_download_is_offered():
    rows = b"".join(b"=1+1,@SUM(A1),x\n+2,-3,y\n" for _ in range(6))
    at = run_page({"samples": ""})
    at.get("file_uploader")[0].set_value(("f.csv", b"=cmd,b,class\n" + rows, "text/csv")).run()
    assert not at.exception and not at.error
    labels = [b.proto.label for b in at.get("download_button")]
    assert labels == ["Per-fold results (CSV)", "Summary (CSV)", "Scatter (HTML)", "Utilities (HTML)",
                      "All data sets, per fold (CSV)"]


def test_bad_settings_are_refused():
    at = run_page({"samples": "weather"})
    at.session_state["cmp_clf"] = []
    at.button[0].click().run() if at.button else at.run()
    assert not at.exception
    assert any("at least one classifier" in e.value for e in at.error)


@pytest.mark.parametrize("kind", ["equal_frequency", "median"])
def test_other_discretisers_and_missing_category(kind):
    data = ("x,y,class\n" + "\n".join(
        f"{(i % 10) * 1.1 if i % 7 else '?'},{'ab'[i % 2]},{'p' if i % 10 > 4 else 'q'}"
        for i in range(50))).encode()
    at = run_page({"samples": "", "disc": kind, "missing": "category"})
    at.get("file_uploader")[0].set_value(("numbers.csv", data, "text/csv")).run()
    assert not at.exception and not at.error
    assert at.dataframe[0].value.shape[0] == 3


def test_across_data_sets_friedman_nemenyi_and_wilcoxon():
    at = run_page({"samples": "weather,balloons,monks1"})
    assert not at.exception
    scores = at.dataframe[3].value                         # three summary tables, then the scores
    assert list(scores.index) == ["weather (sample)", "balloons (sample)", "monks1 (sample)"]
    assert list(scores.columns) == ["NBC", "NCC", "LNCC_α=0.75"]
    friedman = [m.value for m in at.markdown if m.value.startswith("**[Friedman](/glossary#friedman) test**")]
    assert friedman and "3 data sets and 3 classifiers" in friedman[0]
    assert "critical difference" in friedman[0]
    assert any(c.proto.id.endswith("-cmp_cd") for c in at.get("plotly_chart"))
    pairs = at.dataframe[4].value
    assert len(pairs) == 3 and {"p_value", "wins", "losses"} <= set(pairs.columns)
    at.selectbox(key="cmp_rank_indicator").set_value("accuracy").run()
    assert not at.exception


def test_duplicate_uploads_and_duplicate_samples_are_kept_apart():
    other = VALID.replace(b"yes", b"oui")
    at = run_page({"samples": "balloons,balloons"})
    at.get("file_uploader")[0].set_value([("data.csv", VALID, "text/csv"), ("data.csv", VALID, "text/csv"),
                                          ("data.csv", other, "text/csv")]).run()
    assert not at.exception, [e.value for e in at.exception]
    labels = [t.label.replace("\\", "") for t in at.tabs]     # labels are markdown-escaped
    assert labels == ["data.csv", "data.csv (2)", "data.csv (3)", "balloons (sample)"]


def test_fewer_rows_than_folds_is_a_message_not_a_traceback():
    at = run_page({"samples": "", "folds": "5"})
    at.get("file_uploader")[0].set_value(("tiny.csv", b"a,class\nx,p\nx,p\ny,q\ny,q\n", "text/csv")).run()
    assert not at.exception
    assert any("could not be compared" in e.value and "n\\_splits=5 is more than the 4 instances" in e.value
               for e in at.error)
    at.get("file_uploader")[0].set_value(("valid.csv", VALID, "text/csv")).run()
    assert not at.exception and not at.error and not at.warning      # no false "stopped" message


def test_whole_number_codes_are_categories_unless_chosen_for_discretising():
    at = run_page({"samples": "monks1"})
    assert at.multiselect(key="cmp_numeric_sample-monks1").value == []
    options = at.multiselect(key="cmp_numeric_sample-monks1").options
    assert set(options) == {"a1", "a2", "a3", "a4", "a5", "a6"}
    accuracy = at.dataframe[0].value.set_index("classifier").loc["NBC", "Accuracy"]
    assert float(accuracy.split(" ")[0]) > 70                 # NBC on the six categorical codes


def test_one_data_set_explains_the_cross_data_set_tests_and_a_run_cut_short_can_be_restarted():
    at = run_page({"samples": "balloons"})
    assert any("Add a second data set" in i.value for i in at.info)
    at.session_state["cmp_running"] = True          # what a click during a run leaves behind
    at.run()
    assert not at.exception
    assert any("stopped before it finished" in w.value for w in at.warning)
    assert not at.dataframe
    next(b for b in at.button if b.label == "Run the comparison").click().run()
    assert not at.exception and not at.warning and at.dataframe


# ---------------------------------------------------------------- issues 26 and 28: new classifiers, sections
def test_cma_and_cdt_are_compared_by_default_and_the_optional_classifiers_offered():
    at = run_page({"samples": "weather", "clf": ""})             # no clf: the default classifiers
    chosen = at.multiselect(key="cmp_clf")
    assert {"CMA", "CDT"} <= set(chosen.value)
    assert not {"conformal-NBC", "LTANC_α=0.75"} & set(chosen.value)
    assert {"conformal-NBC", "Mondrian-NBC", "conformal-AODE", "Mondrian-AODE", "LTANC_α=0.75",
            "BMA (naive subsets)", "Tree (upper entropy)"} <= set(chosen.options)
    table = at.dataframe[0].value
    assert {"CMA", "CDT"} <= set(table["classifier"])
    assert {"Coverage", "Mean set size", "Empty sets"} <= set(table.columns)
    assert any("columns: the table scrolls sideways" in c.value for c in at.caption)


def test_conformal_sets_at_matched_determinacy_with_coverage_and_empty_sets():
    at = run_page({"samples": "weather", "clf": "NCC,conformal-NBC,Mondrian-NBC", "match": "ncc"})
    assert not at.error
    table = at.dataframe[0].value.set_index("classifier")
    assert list(table.index) == ["NCC", "conformal-NBC", "Mondrian-NBC"]
    assert all(table[c].str.match(r"^\d").all() for c in ("Coverage", "Mean set size", "Empty sets"))
    assert at.selectbox(key="cmp_match").value == "ncc"
    assert at.query_params["match"] == "ncc"


def test_the_optional_sections_render_from_a_deep_link():
    at = run_page({"samples": "weather,balloons,monks1", "clf": "NBC,NCC,CMA,CDT,COMP-AODE*",
                   "bayes": "1", "rope": "0.02", "sets": "1", "fig001": "1", "reject": "1", "d": "0.3"})
    ids = [c.proto.id.rsplit("-", 1)[-1] for c in at.get("plotly_chart")]
    assert {"cmp_simplex", "cmp_fig5", "cmp_fig6", "cmp_fig7_u65", "cmp_fig7_u80"} <= set(ids)
    for chart in at.get("plotly_chart"):                  # 001's figures name their paper (a link)
        if chart.proto.id.rsplit("-", 1)[-1] in {"cmp_fig5", "cmp_fig6", "cmp_fig7_u65", "cmp_fig7_u80"}:
            title = json.loads(chart.proto.spec)["layout"]["title"]["text"]
            assert "Corani & Antonucci 2012" in title and "/references#paper-001" in title
    assert sum("-cmp_coverage_" in c.proto.id for c in at.get("plotly_chart")) == 3
    bayesian = [df.value for df in at.dataframe if "P(rope)" in df.value.columns]
    signed, correlated = bayesian                          # across data sets, then per data set
    probabilities = ["P(left): a better", "P(rope)", "P(right): b better"]
    assert {*probabilities, "decision"} <= set(signed.columns) and len(signed) == 10
    assert np.allclose(signed[probabilities].sum(axis=1), 1, atol=2e-3)
    assert set(correlated["dataset"]) == {"weather (sample)", "balloons (sample)", "monks1 (sample)"}
    assert at.number_input(key="cmp_rope").value == 0.02
    (reject,) = [df.value for df in at.dataframe if "cost, credal" in df.value.columns]
    assert set(reject["classifier"]) == {"NCC", "CMA", "CDT", "COMP-AODE*"}       # all two-class data
    assert reject[["cost, precise", "cost, credal"]].stack().between(0, 1).all()
    assert any("coverage guarantee" in m.value and "robust to the prior" in m.value for m in at.markdown)
    at.toggle(key="cmp_bayes").set_value(False).run()
    assert not at.exception and at.query_params["bayes"] == "0"


def test_the_reject_option_has_the_ncc_on_three_class_data():
    at = run_page({"samples": "iris", "clf": "NCC,CMA", "reject": "1", "d": "0.1", "folds": "2",
                   "repeats": "1"})
    assert not at.exception and not at.error
    (reject,) = [df.value for df in at.dataframe if "cost, credal" in df.value.columns]
    assert list(reject["classifier"]) == ["NCC", "CMA"]
    assert reject[["cost, precise", "cost, credal"]].stack().between(0, 0.5).all()
    label = at.toggle(key="cmp_reject").label
    assert label.startswith("Show the expected cost with a reject option (001")
    assert "Corani & Antonucci 2012" in label


def test_a_many_valued_integer_column_is_named_and_can_be_discretised():
    rows = "\n".join(f"{120 + (i * 7) % 61},{'ab'[i % 2]},{'p' if (i * 7) % 61 > 30 else 'q'}"
                     for i in range(80))
    at = run_page({"samples": ""})
    data = ("chol,sex,class\n" + rows).encode()
    at.get("file_uploader")[0].set_value(("heart.csv", data, "text/csv")).run()
    assert not at.exception
    numeric = next(m for m in at.multiselect if m.label.startswith("Numeric columns to discretise"))
    assert numeric.value == ["chol"]                 # proposed for discretising: no warning
    assert not [w for w in at.warning if "chol" in w.value]
    numeric.set_value([]).run()                      # taken as categories: the warning names it
    warning = [w.value for w in at.warning if "chol" in w.value]
    assert warning and "61 distinct whole numbers" in warning[0] and "discretise it" in warning[0]
    key = numeric.key
    assert "chol" not in at.session_state[key]
    next(b for b in at.button if b.label == "Discretise chol").click().run()
    assert not at.exception
    assert "chol" in at.session_state[key]
    assert not [w for w in at.warning if "chol" in w.value]
