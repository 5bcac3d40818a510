"""Each question's right answer recomputed by another route than its grader: brute force over the
definition (the IDM's priors, the NBC's parameters, the binomial sum) or another class of the core
(LNCC / NCC fitted on rows instead of the pair profile; a direct fit instead of ``holdout_example``)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.optimize import brentq
from scipy.special import xlogy
from scipy.stats import binom

from app_support.lessons import lesson_data, lesson_lncc, lesson_ncc
from app_support.lessons.problems import pair_frame, pair_from_params, pair_instance
from credal_core import LNCC, NCC, NaiveBayes
from credal_core.metrics import credal_scores, precise_accuracy_split

TESTS = Path(__file__).resolve().parents[2]
for folder in (TESTS, TESTS / "credal_core"):  # tests/_depth.py and tests/credal_core/brute_force.py
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
from brute_force import lncc_critical_alpha, ncc_min_ratio  # noqa: E402  (tests/credal_core's brute force)

CLASSES = ("c", "¬c")


def _pair_counts(p):
    """The pair problem in brute_force's layout: two classes, binary features (column 0: the instance's)."""
    n_c = np.array([p["n_c"], p["n_not"]])
    n_cf = [
        np.array([[a, p["n_c"] - a], [b, p["n_not"] - b]]) for a, b in zip(p["counts_c"], p["counts_not"])
    ]
    return n_c, n_cf, tuple(0 for _ in n_cf)


def _brute_pair_set(p, s):
    n_c, n_cf, inst = _pair_counts(p)
    keep = []
    for a in (0, 1):
        b = 1 - a
        if not ncc_min_ratio(n_c, n_cf, inst, b, a, s=s, epsilon=0.0) > 1 + 1e-9:
            keep.append(CLASSES[a])
    return tuple(keep)


def nbc_class(p):
    """Perks NBC by hand: P(c) ∝ (n(c) + s/2) ∏ (n(c, f̃) + s/4)/(n(c) + s/2), s = 1."""
    s = 1.0
    scores = []
    for n, counts in ((p["n_c"], p["counts_c"]), (p["n_not"], p["counts_not"])):
        score = (n + s / 2) / (p["n_c"] + p["n_not"] + s)
        for count in counts:
            score *= (count + s / 4) / (n + s / 2)
        scores.append(score)
    return CLASSES[int(np.argmax(scores))]


def idm_upper(p):
    """Brute force: the largest (n + s t)/(N + s) over a grid of t in [0, 1]."""
    t = np.linspace(0, 1, 1001)
    return float(((p["n"] + p["s"] * t) / (p["N"] + p["s"])).max())


def dominance(p):
    n_c, n_cf, inst = _pair_counts(p)
    a, b = CLASSES.index(p["a"]), CLASSES.index(p["b"])
    return "yes" if ncc_min_ratio(n_c, n_cf, inst, a, b, s=p["s"], epsilon=0.0) > 1 + 1e-9 else "no"


def three_set(data_seed, s):
    X, y, instance = lesson_ncc.three_class_problem(data_seed)
    labels = ("a", "b", "c")
    n_c = np.array([(y == c).sum() for c in labels])
    n_cf = [
        np.array([[((y == c) & (X[f] == v)).sum() for v in ("no", "yes")] for c in labels]) for f in X.columns
    ]
    inst = tuple(("no", "yes").index(instance[f].iloc[0]) for f in X.columns)
    return tuple(
        labels[a]
        for a in range(3)
        if not any(
            ncc_min_ratio(n_c, n_cf, inst, b, a, s=s, epsilon=0.0) > 1 + 1e-9 for b in range(3) if b != a
        )
    )


def _holdout_direct(s):
    X, y = lesson_ncc.sample("synthetic_nb")
    y = np.asarray(y)
    train, test = slice(0, lesson_ncc.N_TRAIN), slice(lesson_ncc.N_TRAIN, None)
    model = NCC(s=s).fit(X.iloc[train], y[train])
    sets = model.predict_set(X.iloc[test])
    nbc = NaiveBayes(s=1.0).fit(X.iloc[train], y[train]).predict(X.iloc[test])
    return credal_scores(y[test], sets, model.classes_), precise_accuracy_split(
        y[test], nbc, sets, model.classes_
    )


def determinacy_direction(p):
    first, second = _holdout_direct(1.0)[0]["determinacy"], _holdout_direct(p["s"])[0]["determinacy"]
    return "the same" if first == second else ("higher" if second > first else "lower")


def nbc_i(p):
    split = _holdout_direct(p["s"])[1]
    return (
        lesson_ncc.NBCI[0]
        if split["accuracy_indeterminate"] > split["accuracy_determinate"]
        else lesson_ncc.NBCI[1]
    )


def _log_lik(theta, n, N):
    return n * np.log(theta) + (N - n) * np.log1p(-theta)


def likelihood_lower(n, N, alpha):
    """Root of lik(θ)/lik(n/N) = α below n/N (brentq on the raw binomial likelihood)."""
    top = _log_lik(n / N, n, N)
    if n == 0:
        return 0.0
    return brentq(lambda t: _log_lik(t, n, N) - top - np.log(alpha), 1e-15, n / N, xtol=1e-13)


def likelihood_width(n, N, alpha):
    top = _log_lik(n / N, n, N) if 0 < n < N else 0.0
    lo = brentq(lambda t: _log_lik(t, n, N) - top - np.log(alpha), 1e-15, n / N, xtol=1e-13)
    hi = brentq(lambda t: _log_lik(t, n, N) - top - np.log(alpha), n / N, 1 - 1e-15, xtol=1e-13)
    return hi - lo


def rates(p):
    widths = []
    for N in (p["N"], 100 * p["N"]):
        widths.append((likelihood_width(p["ratio"] * N, N, p["alpha"]), p["s"] / (N + p["s"])))
    lik, idm = widths[1][0] / widths[0][0], widths[1][1] / widths[0][1]
    return lesson_data.RATES[0] if idm < lik else lesson_data.RATES[1]


def vacuous_set(p):
    n, k, s = p["n"], p["k"], p["s"]
    if abs(2 * k - n) <= s:
        return ("a", "b")
    return ("a",) if k > n - k else ("b",)


def vacuous_percent(p):
    n, s = p["n"], p["s"]
    ks = np.arange(n + 1)
    return 100 * float(binom.pmf(ks, n, p["p"])[np.abs(2 * ks - n) <= s].sum())


def _nhc_vacuous(n, beta, prob):
    ks = np.arange(n + 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        log_top = np.where(ks > 0, ks * np.log(ks / n), 0) + np.where(
            ks < n, (n - ks) * np.log((n - ks) / n), 0
        )
    vac = n * np.log(0.5) - log_top >= np.log(beta)
    return float(binom.pmf(ks, n, prob)[vac].sum())


def nhc_trend(p):
    small, large = _nhc_vacuous(100, p["beta"], p["p"]), _nhc_vacuous(10_000, p["beta"], p["p"])
    return (
        lesson_data.TREND[1]
        if abs(large - small) < 0.05
        else (lesson_data.TREND[0] if large < small else lesson_data.TREND[2])
    )


def _lncc(p, include_instance=True):
    pair = pair_from_params(p)
    X, y = pair_frame(pair)
    return LNCC(include_instance=include_instance, categories="declared").fit(X, y), pair_instance(pair)


def lncc_critical(p, include_instance=True):
    model, instance = _lncc(p, include_instance)
    crit = model.critical_alpha(instance)[0]
    return float(min(crit[0, 1], crit[1, 0]))


def lncc_critical_brute(p):
    n_c, n_cf, inst = _pair_counts(p)
    return min(lncc_critical_alpha(n_c, n_cf, inst, a, 1 - a, include_instance=True) for a in (0, 1))


def lncc_set(p, alpha, include_instance=True):
    model, instance = _lncc(p, include_instance)
    model.set_params(alpha=alpha)
    return tuple(str(c) for c in model.classes_[model.predict_set(instance)[0]])


def _compare(first, second, words):
    return words[1] if first == second else (words[0] if second > first else words[2])


def mle_class(p):
    """Brute force: maximise the likelihood (data and instance) over the NBC's parameters (grid + polish)."""
    from scipy.optimize import minimize

    n1, n2 = p["n_c"], p["n_not"]
    c1, c2 = np.array(p["counts_c"], float), np.array(p["counts_not"], float)

    def neg(z):
        th = 1 / (1 + np.exp(-z))
        tc, t1, t2 = th[0], th[1 : 1 + c1.size], th[1 + c1.size :]
        ll = (  # xlogy: a zero count times log 0 is 0 (the papers' 0^0 = 1)
            xlogy(n1, tc)
            + xlogy(n2, 1 - tc)
            + (xlogy(c1, t1) + xlogy(n1 - c1, 1 - t1)).sum()
            + (xlogy(c2, t2) + xlogy(n2 - c2, 1 - t2)).sum()
        )
        pa, pb = tc * np.prod(t1), (1 - tc) * np.prod(t2)
        return -(ll + np.log(pa + pb)), pa / (pa + pb)

    best = None
    rng = np.random.default_rng(0)
    for _ in range(12):
        res = minimize(
            lambda z: neg(z)[0],
            rng.normal(0, 2, 1 + 2 * c1.size),
            method="Nelder-Mead",
            options=dict(xatol=1e-10, fatol=1e-12, maxiter=20_000),
        )
        if best is None or res.fun < best.fun:
            best = res
    return "c" if neg(best.x)[1] > 0.5 else "¬c"


def instance_effect(p):
    """c's critical α from the LNCC fitted with and without the instance."""
    (with_model, instance), (without_model, _) = _lncc(p, True), _lncc(p, False)
    with_, without = (float(m.critical_alpha(instance)[0, 0, 1]) for m in (with_model, without_model))
    if with_ == without:
        return lesson_lncc.INSTANCE[1]
    return lesson_lncc.INSTANCE[2] if without > with_ else lesson_lncc.INSTANCE[0]


SOLVERS = {
    "ncc.nbc.class": nbc_class,
    "ncc.idm.upper": idm_upper,
    "ncc.dominance.yes-no": dominance,
    "ncc.set.three-classes": lambda p: three_set(p["data_seed"], p["s"]),
    "ncc.set.grows": lambda p: _compare(
        set(three_set(p["data_seed"], p["s"])), set(three_set(p["data_seed"], p["s2"])), lesson_ncc.GROWS
    ),
    "ncc.determinacy.direction": determinacy_direction,
    "ncc.nbc-i.direction": nbc_i,
    "data.idm.width": lambda p: p["s"] / (p["N"] + p["s"]),
    "data.likelihood.lower": lambda p: likelihood_lower(p["n"], p["N"], p["alpha"]),
    "data.rates": rates,
    "data.vacuous.set": vacuous_set,
    "data.vacuous.probability": vacuous_percent,
    "data.nhc.trend": nhc_trend,
    "lncc.mle.class": mle_class,
    "lncc.alpha-cut.set": lambda p: lncc_set(p, p["alpha"]),
    "lncc.critical-alpha": lncc_critical,
    "lncc.alpha.monotone": lambda p: _compare(
        set(lncc_set(p, p["alpha"])), set(lncc_set(p, p["alpha2"])), lesson_lncc.MONO
    ),
    "lncc.more-data": lambda p: _compare(
        -lncc_critical(p), -lncc_critical(lesson_lncc._scaled(p)), ("lower", "the same", "higher")
    ),
    "lncc.instance": lambda p: instance_effect(p),
    "lncc.zero-count.ncc": lambda p: _brute_pair_set(p, p["s"]),
}


# ---------------------------------------------------------------- lesson 4: missing values
def _weather(p):
    from app_support.lessons import lesson_missing
    from credal_core.naive.ncc_explain import hide_cells

    X, y = lesson_missing.sample("weather")
    X = X.astype(object)
    if p.get("hide"):
        X = hide_cells(X, "outlook", p["hide"], mechanism="mnar", value="sunny", seed=0, protect=p["row"])
    y = np.asarray(y)
    keep = np.arange(len(X)) != p["row"]
    return X[keep].reset_index(drop=True), y[keep], X.iloc[p["row"]], str(y[p["row"]])


def _brute_weather_set(X, y, values: dict, s):
    """Brute-force NCC set: features in ``values`` (name → the instance's value), others left out (MAR)."""
    labels = sorted(set(y))
    n_c = np.array([(y == c).sum() for c in labels])
    n_cf, inst = [], []
    for f, v in values.items():
        seen = sorted(X[f].dropna().unique())
        n_cf.append(np.array([[((y == c) & (X[f] == u)).sum() for u in seen] for c in labels]))
        inst.append(seen.index(v))
    keep = []
    for a in range(len(labels)):
        if not any(
            ncc_min_ratio(n_c, n_cf, tuple(inst), b, a, s=s, epsilon=0.0) > 1 + 1e-9
            for b in range(len(labels))
            if b != a
        ):
            keep.append(labels[a])
    return tuple(keep)


def weather_mar(p):
    X, y, row, _ = _weather(p)
    return _brute_weather_set(X, y, {f: row[f] for f in X.columns if f != p["missing"]}, p["s"])


def weather_impute(p):
    X, y, row, _ = _weather(p)
    filled = X.fillna({f: X[f].mode().iloc[0] for f in X.columns})
    values = {f: (row[f] if f != p["missing"] else X[f].mode().iloc[0]) for f in X.columns}
    model = NCC(s=p["s"]).fit(filled, y)
    return tuple(str(c) for c in model.classes_[model.predict_set(pd.DataFrame([values]))[0]])


def weather_conservative(p):
    """Every completion of the missing instance value, each an ordinary NCC problem; a class is dropped only
    if it is dominated under every completion (with the training treatment of the declared feature)."""
    X, y, row, _ = _weather(p)
    f = p["missing"]
    model = NCC(s=p["s"], non_mar_training=[f] if X[f].isna().any() else []).fit(X, y)
    labels = model.classes_.tolist()
    dominated = np.ones((len(labels), len(labels)), dtype=bool)
    for v in sorted(X[f].dropna().unique()):
        values = {g: (row[g] if g != f else v) for g in X.columns}
        dominated &= model.dominance(pd.DataFrame([values]))[0]
    return tuple(str(labels[a]) for a in range(len(labels)) if not dominated[:, a].any())


def _size_word(p):
    from app_support.lessons import lesson_missing

    mar, cons = set(weather_mar(p)), set(weather_conservative(p))
    return _compare(mar, cons, lesson_missing.SIZE)


def _same_word(p):
    from app_support.lessons import lesson_missing

    return lesson_missing.SAME[0] if set(weather_impute(p)) == set(weather_mar(p)) else lesson_missing.SAME[1]


def _truth_word(p):
    from app_support.lessons import lesson_missing

    return lesson_missing.TRUTH[0] if _weather(p)[3] in weather_mar(p) else lesson_missing.TRUTH[1]


SOLVERS.update(
    {
        "missing.mar.set": weather_mar,
        "missing.impute.same": _same_word,
        "missing.conservative.set": weather_conservative,
        "missing.conservative.size": _size_word,
        "missing.mnar.truth": _truth_word,
        "missing.mnar.declared": weather_conservative,
    }
)


# ---------------------------------------------------------------- lessons 5-6
def _aode_models(n, eps=0.01):
    from app_support.lessons import lesson_ensembles as l5
    from credal_core import BMAAODE, CompAODE

    X, y = l5.sample(l5.DATA)
    rows = np.sort(np.random.default_rng(0).permutation(len(X))[:n])
    y = np.asarray(y)
    return BMAAODE().fit(X.iloc[rows], y[rows]), CompAODE().fit(X.iloc[rows], y[rows]), X, y, rows


def _bma_word(p):
    from app_support.lessons import lesson_ensembles as l5

    bma = _aode_models(p["n"])[0]
    return l5.BMA[0] if np.max(bma.weights_) > 0.5 else l5.BMA[1]


def _comp_word(p):
    from app_support.lessons import lesson_ensembles as l5

    bma, comp, X, _, _ = _aode_models(p["n"])
    k = X.shape[1]
    return (
        l5.COMP[0] if abs(np.max(comp.weights_) - 1 / k) < abs(np.max(bma.weights_) - 1 / k) else l5.COMP[1]
    )


def _credal_determinacy(n, eps):
    from credal_core.aode import CredalBMAAODE

    _, _, X, y, rows = _aode_models(n)
    test = np.setdiff1d(np.arange(len(X)), rows)
    dom = CredalBMAAODE(epsilon=eps).fit(X.iloc[rows], y[rows]).dominance(X.iloc[test])
    undominated = ~dom.any(axis=1)  # maximality: no class dominates it
    return float(np.mean(undominated.sum(axis=1) == 1))


def _eps_word(p):
    from app_support.lessons import lesson_ensembles as l5

    return _compare(
        _credal_determinacy(p["n"], p["eps"]), _credal_determinacy(p["n"], p["eps2"]), l5.DIRECTION
    )


def laplace_threshold(p, features=(0, 1), factor=1):
    """004's threshold by its definition: the root of R_b(s) = 1 (brentq), ĉ the Laplace NBC's class."""
    n = np.array([p["n_c"], p["n_not"]], float) * factor
    counts = np.array([[p["counts_c"][j], p["counts_not"][j]] for j in features], float) * factor
    scores = [
        np.log((n[c] + 1) / (n.sum() + 2)) + np.log((counts[:, c] + 1) / (n[c] + 2)).sum() for c in (0, 1)
    ]
    top, b = (0, 1) if scores[0] > scores[1] else (1, 0)

    def log_r(s):
        out = np.log((n[top] + 1) / (n[b] + 1 + s))
        for j in range(len(features)):
            out += np.log((counts[j, top] + 1) * (n[b] + 2 + s) / ((n[top] + 2 + s) * (counts[j, b] + 1 + s)))
        return out

    return brentq(log_r, 0.0, 1e7, xtol=1e-12)


def _scaled_word(p):
    from app_support.lessons import lesson_selection as l6

    return _compare(laplace_threshold(p), laplace_threshold(p, factor=p["factor2"]), l6.MORE)


def _selector_word(p):
    """004's selection by brute force: each classifier's critical threshold of every training row and of the
    instance from two Laplace NBCs fitted on the training part (``NaiveBayes.perturbation_threshold``, not
    the selector), Euclidean distances on the plane, every training row within the k-th smallest distance
    a neighbour, and the classifier right more often there (ties to C1)."""
    from app_support.data import load_sample
    from app_support.lessons import lesson_selection as l6

    X, y = load_sample("balloons")
    y = np.asarray(y)
    train, test = l6.balloons_split(p["seed"])
    points, right = [], []
    instance = X.iloc[[test[p["row"]]]]
    for features in (l6.F1, l6.F2):
        cols = list(features)
        model = NaiveBayes(prior="laplace").fit(X.iloc[train][cols], y[train])
        points.append(np.append(model.perturbation_threshold(X.iloc[train][cols]),
                                model.perturbation_threshold(instance[cols])))
        right.append(model.predict(X.iloc[train][cols]) == y[train])
    points = np.column_stack(points)
    distance = np.hypot(*(points[:-1] - points[-1]).T)
    k = int(round(p["k"]))
    near = distance <= np.sort(distance)[min(k, len(distance)) - 1] + 1e-12
    hits_1, hits_2 = right[0][near].sum(), right[1][near].sum()
    return l6.CHOSEN["C2" if hits_2 > hits_1 else "C1"]


def _above_word(p):
    from app_support.lessons import lesson_selection as l6

    return l6.ABOVE[0] if laplace_threshold(p) > 1 else l6.ABOVE[1]


SOLVERS.update(
    {
        "ensembles.aode.weight": lambda p: 1 / _aode_models(p["n"])[2].shape[1],
        "ensembles.bma.concentration": _bma_word,
        "ensembles.compression.spread": _comp_word,
        "ensembles.credal.epsilon": _eps_word,
        "selection.threshold.size": _above_word,
        "selection.threshold.more-data": _scaled_word,
        "selection.selector.choice": _selector_word,
    }
)


# ---------------------------------------------------------------- lesson 3's network step (003 Theorem 1)
def _network_rows(graph: str, row: int) -> list:
    """The probability-table rows that γ = P(yes, rest) / P(no, rest) touches on the weather data, counted
    from the rows with pandas: (counts d over the node's states, exponents q of log γ)."""
    from app_support.data import load_sample
    from app_support.lessons import lesson_network as ln

    X, y = load_sample("weather")
    frame = X.astype(str).assign(play=np.asarray(y).astype(str))
    instance = frame.iloc[row]
    rows = []
    for node, parents in ln.parents(graph).items():      # the graph is the question's input
        states = sorted(frame[node].unique())
        exponents = {}
        for cls, sign in (("yes", 1.0), ("no", -1.0)):
            at = {**instance.to_dict(), "play": cls}
            mask = np.ones(len(frame), dtype=bool)
            for parent in parents:
                mask &= (frame[parent] == at[parent]).to_numpy()
            key = tuple(at[parent] for parent in parents)
            counts = np.array([(frame.loc[mask, node] == s).sum() for s in states], dtype=float)
            q = exponents.setdefault(key, (counts, np.zeros(len(states))))[1]
            q[states.index(at[node])] += sign
        rows += [(d, q) for d, q in exponents.values() if np.any(q != 0)]
    return rows


def network_profile_at(graph: str, row: int, log_gamma_value: float) -> float:
    """The normalised profile likelihood of γ = exp(``log_gamma_value``) by brute force: the constrained
    maximum of the log-likelihood over the touched rows (softmax parameters, SLSQP with exact gradients),
    against the unconstrained maximum (the observed frequencies)."""
    from scipy.optimize import minimize
    from threadpoolctl import threadpool_limits

    rows = _network_rows(graph, row)
    sizes = np.cumsum([0] + [len(d) for d, _ in rows])

    def parts(z):
        return [z[a:b] - np.logaddexp.reduce(z[a:b]) for a, b in zip(sizes[:-1], sizes[1:])]

    def objective(z):
        logps = parts(z)
        value = -sum(float(d @ lp) for (d, _), lp in zip(rows, logps))
        grad = -np.concatenate([d - d.sum() * np.exp(lp) for (d, _), lp in zip(rows, logps)])
        return value, grad

    def constraint(z):
        return sum(float(q @ lp) for (_, q), lp in zip(rows, parts(z))) - log_gamma_value

    def constraint_grad(z):
        return np.concatenate([q - q.sum() * np.exp(lp) for (_, q), lp in zip(rows, parts(z))])

    best = sum(float(xlogy(d, d / max(d.sum(), 1.0)).sum()) for d, _ in rows)
    found = -np.inf
    for start in (np.zeros(sizes[-1]), np.random.default_rng(row).normal(size=sizes[-1])):
        with threadpool_limits(1):     # small LAPACK calls: BLAS threads only wait on a busy machine
            res = minimize(objective, start, jac=True, method="SLSQP",
                           constraints=[{"type": "eq", "fun": constraint, "jac": constraint_grad}],
                           options={"maxiter": 1000, "ftol": 1e-13})
        if abs(constraint(res.x)) < 1e-7:
            found = max(found, -objective(res.x)[0])
    return float(np.exp(found - best))


def _network_set(p):
    """Both classes unless lik(γ = 1) ≤ β; then the class on the side of 1 where the likelihood is higher
    (compared at γ = e^±2: the profile is unimodal in log γ)."""
    if network_profile_at(p["graph"], p["row"], 0.0) > p["beta"]:
        return ("yes", "no")
    above, below = (network_profile_at(p["graph"], p["row"], v) for v in (2.0, -2.0))
    return ("yes",) if above > below else ("no",)


SOLVERS["lncc.network.set"] = _network_set
