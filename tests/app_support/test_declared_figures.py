"""Figures declared as plain dicts (``DeclaredFigure``: sent without plotly's validation) send what the
same specification sends once plotly has validated it, so the page shows the same chart."""
from __future__ import annotations

import json

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
import plotly.tools as tools
import pytest

from app_support.figures import DeclaredFigure, default_template, typed_array
from tests.pages._apptest import plotly_array


def sent(fig) -> dict:
    """What ``st.plotly_chart`` puts in the page, typed arrays decoded to lists."""
    def plain(value):
        if isinstance(value, dict):
            if set(value) == {"dtype", "bdata"}:
                return plotly_array(value).tolist()
            return {k: plain(v) for k, v in value.items()}
        if isinstance(value, list):
            return [plain(v) for v in value]
        return value

    figure = tools.return_figure_from_figure_or_data(fig, validate_figure=True)
    return plain(json.loads(pio.to_json(figure, validate=False)))


def same_chart(fig: DeclaredFigure) -> None:
    assert isinstance(fig, DeclaredFigure)
    assert sent(fig) == sent(fig.validated())


def test_a_declared_figure_carries_the_template_and_is_not_copied():
    fig = DeclaredFigure([dict(type="bar", x=["a", "b"], y=[1, 2])], dict(height=300))
    assert fig.to_dict() is fig.to_dict()
    assert fig.to_dict()["layout"]["template"] == go.Figure().to_dict()["layout"]["template"]
    assert fig.to_dict()["layout"]["template"] is default_template()
    same_chart(fig)
    assert fig.data[0].y == (1, 2) and fig.layout.height == 300


def test_a_typed_array_is_what_plotly_sends_for_a_float_array():
    values = np.linspace(0, 1, 7)
    assert go.Figure(go.Scatter(y=values)).to_dict()["data"][0]["y"] == typed_array(values)


def test_an_invalid_declaration_fails_validation():
    with pytest.raises(ValueError):
        DeclaredFigure([dict(type="scatter", colour="red")], {}).validated()


def test_intervals_figures():
    from app_support.intervals_vs_n.figures import intervals_figure, vacuous_figure

    N = np.geomspace(1, 1000, 30)
    lo, hi = 0.5 - 1 / np.sqrt(N + 1), 0.5 + 1 / np.sqrt(N + 1)
    same_chart(intervals_figure(N, lo, hi, N / (N + 2), 1 - 0.001 * N / N, ratio=0.5, alpha=0.15, s=2))
    n = np.arange(2, 200, 2)
    same_chart(vacuous_figure(n, np.exp(-n / 50), np.exp(-n / 9), beta=0.15, s=2, marks=(100, 1000),
                              marks_nhc=[0.9, 0.8], marks_ncc=[0.2, 0.1], nhc_limit=0.85))


def test_profile_figures():
    from app_support.profile_likelihood.figures import lncc_figure, multinomial_figure
    from credal_core.likelihood import multinomial_cloud, multinomial_profile
    from credal_core.likelihood.profile import PairProfile

    for include in (True, False):
        p, other = PairProfile(6, 2, [5], [1], include_instance=include), PairProfile(6, 2, [5], [1])
        same_chart(lncc_figure(p.curve(60), other.curve(60), p.sample_cloud(200, seed=1), alpha=0.3,
                               alpha_cut=p.alpha_cut(0.3), verdict="both", include_instance=include))
    gamma = np.linspace(0, 1, 41)
    cloud = multinomial_cloud([2, 4, 3], [0, 1], size=300, seed=0)
    same_chart(multinomial_figure(gamma, multinomial_profile([2, 4, 3], [0, 1], gamma), cloud["g"],
                                  cloud["likelihood"], beta=0.15, interval=(0.35, 0.9), mle=2 / 3, title="t"))
