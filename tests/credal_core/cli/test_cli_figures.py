"""``compare --figures DIR``: 001 Figs. 5-7 written as offline HTML + CSV, their points recomputed here from
the per-fold CSV (``--out``) with plain pandas and scipy, not with the package's summaries or tests."""
from __future__ import annotations

import base64
import json
import re

import numpy as np
import pandas as pd
import pytest
from scipy.stats import rankdata

from credal_core.cli import main

pytest.importorskip("plotly")
CREDAL = ["NCC", "CDT", "CMA", "COMP-AODE*"]


def _traces(path) -> list[dict]:
    """The figure's traces, read back from the HTML (plotly writes arrays as base64 typed arrays)."""
    text = path.read_text()
    start = re.search(r"Plotly\.newPlot\(\s*\"[^\"]+\",\s*", text).end()
    data, _ = json.JSONDecoder().raw_decode(text, start)

    def values(v):
        if isinstance(v, dict) and "bdata" in v:
            return np.frombuffer(base64.b64decode(v["bdata"]), dtype=np.dtype(v["dtype"])).tolist()
        return v
    return [{k: values(v) for k, v in trace.items()} for trace in data]


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("figs")
    out = folder / "folds.csv"
    code = main(["compare", "iris", "wine", "--folds", "3", "--repeats", "1", "--jobs", "1",
                 "--out", str(out), "--figures", str(folder / "figures"),
                 "--classifiers", "ncc,cdt,cma,comp-aode*"])
    assert code == 0
    return pd.read_csv(out), folder / "figures"


def test_the_files_exist_offline(run):
    _, figures = run
    for name in ("fig5.html", "fig6.html", "fig7_u65.html", "fig7_u80.html", "fig5_points.csv",
                 "fig6_points.csv", "fig7_u65_ranks.csv", "fig7_u80_ranks.csv", "plotly.min.js"):
        assert (figures / name).is_file(), name
    html = (figures / "fig5.html").read_text()
    assert 'src="plotly.min.js"' in html and "cdn.plot.ly" not in html        # no network to open it
    assert "Corani &amp; Antonucci 2012" in html or "Corani & Antonucci 2012" in html


def test_fig5_and_fig6_points_are_the_folds_means(run):
    folds, figures = run
    means = folds.groupby(["dataset", "classifier"], sort=False)[
        ["single_accuracy", "nbc_i", "u65", "u80", "accuracy", "determinacy"]].mean()
    expected = means[means["nbc_i"].notna()]                      # some prior-dependent instance
    assert len(expected) >= 1
    points = {(t["name"], x, y) for t in _traces(figures / "fig5.html") if t.get("mode") == "markers"
              for x, y in zip(t["x"], t["y"])}
    for (dataset, classifier), row in expected.iterrows():
        assert any(name == classifier and x == pytest.approx(row.single_accuracy)
                   and y == pytest.approx(row.nbc_i) for name, x, y in points), (dataset, classifier)
    assert len(points) == len(expected)
    traces = [t for t in _traces(figures / "fig6.html") if t.get("mode") == "markers"]
    u65 = {(t["name"], x): y for t in traces if t["xaxis"] == "x" for x, y in zip(t["x"], t["y"])}
    u80 = {(t["name"], x): y for t in traces if t["xaxis"] == "x2" for x, y in zip(t["x"], t["y"])}
    for (dataset, classifier), row in expected.iterrows():
        assert u65[classifier, dataset] == pytest.approx(row.u65 / row.accuracy)
        assert u80[classifier, dataset] == pytest.approx(row.u80 / row.accuracy)


@pytest.mark.parametrize("indicator", ["u65", "u80"])
def test_fig7_ranks_and_critical_difference(run, indicator):
    folds, figures = run
    table = folds.groupby(["dataset", "classifier"])[indicator].mean().unstack()[CREDAL]
    ranks = np.mean([rankdata(-row) for row in table.to_numpy()], axis=0)    # 1 = best, ties averaged
    k, n = len(CREDAL), table.shape[0]
    cd = 2.569 * np.sqrt(k * (k + 1) / (6 * n))                             # Demšar's q_0.05 for k = 4
    drawn = {t["name"]: t["x"][0] for t in _traces(figures / f"fig7_{indicator}.html")
             if t.get("meta") == "classifier"}
    assert drawn == pytest.approx(dict(zip(CREDAL, ranks)))
    cd_trace = next(t for t in _traces(figures / f"fig7_{indicator}.html") if t.get("meta") == "cd")
    assert cd_trace["x"][1] - cd_trace["x"][0] == pytest.approx(cd, rel=1e-3)
    csv = pd.read_csv(figures / f"fig7_{indicator}_ranks.csv").set_index("classifier")
    assert csv["average_rank"].to_dict() == pytest.approx(dict(zip(CREDAL, ranks)))


def test_an_unwritable_folder_is_refused_before_the_run(capsys, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(SystemExit):
        main(["compare", "iris", "--figures", str(blocker), "--jobs", "1"])
    assert "--figures" in capsys.readouterr().err
