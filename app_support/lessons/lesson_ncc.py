"""Lesson 1: from naive Bayes to the naive credal classifier (the IDM, s, dominance, determinacy)."""

from __future__ import annotations

import functools

import numpy as np
import pandas as pd

from credal_core import NCC, NaiveBayes
from credal_core.experiments.generator import draw_chances, sample_naive
from credal_core.experiments.holdout_example import holdout_example
from credal_core.likelihood import idm_interval
from credal_core.metrics import credal_scores
from credal_core.naive.ncc_explain import explain_dominance

from . import links
from .figures import bars, curve
from .model import CHOICE, CLASSES, NUMBER, Experiment, Lesson, QuestionSpec, Step, Widget, change
from .problems import CLASSES as PAIR_CLASSES
from .problems import counts_table, pair_frame, pair_from_params, pair_instance, pair_params, random_pair
from .sources import sample, set_grid, set_size_bar

S_CHOICES = (0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 5.0)
S_WIDGET = Widget(
    "s",
    "s (hidden instances of the IDM)",
    0.1,
    10.0,
    0.1,
    help="The prior strength: how many hidden instances the set of priors may place anywhere.",
)
S_GRID = tuple(round(0.1 * k, 1) for k in range(1, 101))
HOLDOUT_S = (1.0, 2.0, 3.0, 4.0, 6.0, 8.0)
N_TRAIN = 200  # the Home page's split of synthetic_nb: 200 rows train, 100 test


def g(term: str, text: str | None = None) -> str:
    """A markdown link to the glossary's entry ``term``."""
    return f"[{text or term}](/glossary#{term})"


# ---------------------------------------------------------------- the two-class problem of steps 1-3
@functools.lru_cache(maxsize=256)
def _fitted(model: str, s: float, key: tuple):
    pair = pair_from_params({"n_c": key[0], "n_not": key[1], "counts_c": key[2], "counts_not": key[3]})
    X, y = pair_frame(pair)
    cls = NaiveBayes if model == "nbc" else NCC
    return cls(s=s, categories="declared").fit(X, y), pair_instance(pair)


def _key(params: dict) -> tuple:
    return params["n_c"], params["n_not"], tuple(params["counts_c"]), tuple(params["counts_not"])


def nbc_class(params: dict, s: float = 1.0) -> str:
    model, instance = _fitted("nbc", float(s), _key(params))
    return str(model.predict(instance)[0])


def nbc_proba(params: dict, s: float = 1.0) -> np.ndarray:
    model, instance = _fitted("nbc", float(s), _key(params))
    return model.predict_proba(instance)[0]


def ncc_dominates(params: dict, s: float, a: str, b: str) -> bool:
    model, instance = _fitted("ncc", float(s), _key(params))
    labels = model.classes_.tolist()
    return bool(model.dominance(instance)[0, labels.index(a), labels.index(b)])


def ncc_ratio(params: dict, s: float, a: str, b: str) -> float:
    model, instance = _fitted("ncc", float(s), _key(params))
    return float(explain_dominance(model, instance, a, b).ratio)


def _pair_params(rng) -> dict:
    return {**pair_params(random_pair(rng, features=2, lo=3, hi=12)), "s": float(rng.choice(S_CHOICES))}


def _pair_prompt(params: dict) -> str:
    table = counts_table(pair_from_params(params))
    return f"Training counts (the instance has the value f̃ⱼ of each feature):\n\n{table}"


# step 1 ---------------------------------------------------------------------------------------
def _nbc_explain(params, right) -> str:
    p = nbc_proba(params, 1.0)
    return (
        f"With the Perks prior (s = 1) the NBC gives P(c | f̃) = {p[0]:.3f} and P(¬c | f̃) = {p[1]:.3f}: "
        f"it returns the larger, **{right}**. Each factor is a count plus its share of s over the class "
        "count plus its share: a class seen rarely with f̃ⱼ is penalised by that factor."
    )


NBC_Q = QuestionSpec(
    "ncc.nbc.class",
    CHOICE,
    _pair_params,
    prompt=lambda p: _pair_prompt(p) + "\n\nWhich class does the NBC (Perks prior, s = 1) predict?",
    solve=lambda p: nbc_class(p, 1.0),
    explain=_nbc_explain,
    options=lambda p: PAIR_CLASSES,
)


def _nbc_figure(params):
    return bars(
        ["P(c | f̃)", "P(¬c | f̃)"],
        nbc_proba(params, params["s"]),
        title=f"The NBC's posterior with a Perks prior of strength s = {params['s']:g}",
        y_title="probability",
    )


# step 2 ---------------------------------------------------------------------------------------
def _idm_params(rng) -> dict:
    n_total = int(rng.integers(4, 31))
    return {"n": int(rng.integers(0, n_total + 1)), "N": n_total, "s": float(rng.choice(S_CHOICES))}


def _idm_explain(params, right) -> str:
    n, N, s = params["n"], params["N"], params["s"]
    lo, hi = idm_interval(n, N, s)
    return (
        f"The upper probability puts all s = {s:g} hidden instances on c: (n(c) + s)/(N + s) = "
        f"({n} + {s:g})/({N} + {s:g}) = **{hi:.3f}**; the lower puts none there: {n}/({N} + {s:g}) = "
        f"{lo:.3f}. The width s/(N + s) does not depend on the counts."
    )


IDM_Q = QuestionSpec(
    "ncc.idm.upper",
    NUMBER,
    _idm_params,
    prompt=lambda p: (
        f"Class c was seen n(c) = {p['n']} times in N = {p['N']} training rows. With the IDM "
        "at "
        f"s = {p['s']:g}, what is the **upper** probability of c? (3 decimals)"
    ),
    solve=lambda p: idm_interval(p["n"], p["N"], p["s"])[1],
    explain=_idm_explain,
)


def _idm_figure(params):
    grid = np.linspace(0.1, 10, 100)
    bounds = np.array([idm_interval(params["n"], params["N"], s) for s in grid])
    n, N = params["n"], params["N"]
    return curve(
        grid,
        None,
        band=(bounds[:, 0], bounds[:, 1]),
        band_name="IDM interval of P(c)",
        title=f"IDM interval of P(c) with n(c) = {n} of N = {N}, against s",
        x_title="s",
        y_title="P(c)",
        hline=n / N,
        hline_name="n(c)/N",
        mark=params["s"],
        y_range=(0, 1),
    )


# step 3 ---------------------------------------------------------------------------------------
def _dom_params(rng) -> dict:
    params = _pair_params(rng)
    params["a"] = nbc_class(params, 1.0)
    params["b"] = [c for c in PAIR_CLASSES if c != params["a"]][0]
    return params


def _dom_explain(params, right) -> str:
    a, b, s = params["a"], params["b"], params["s"]
    ratio = ncc_ratio(params, s, a, b)
    verdict = "exceeds 1: every prior prefers" if ratio > 1 else "is at most 1: some prior does not prefer"
    return (
        f"At s = {s:g} the smallest ratio P({a}, f̃)/P({b}, f̃) over the priors is **{ratio:.4f}**, which "
        f"{verdict} {a} to {b}. The least favourable prior puts the s hidden instances on {b} and on "
        f"{b}'s values f̃ⱼ, and none on {a}'s."
    )


DOM_Q = QuestionSpec(
    "ncc.dominance.yes-no",
    CHOICE,
    _dom_params,
    prompt=lambda p: (
        _pair_prompt(p) + f"\n\nThe NBC predicts {p['a']}. At s = {p['s']:g}, does {p['a']} "
        f"**dominate** {p['b']} under the IDM?"
    ),
    solve=lambda p: "yes" if ncc_dominates(p, p["s"], p["a"], p["b"]) else "no",
    explain=_dom_explain,
    options=lambda p: ("yes", "no"),
)


DOM_GRID = tuple(float(s) for s in np.round(np.linspace(0.1, 10, 60), 3))


@functools.lru_cache(maxsize=256)
def _ratios(key: tuple, a: str, b: str) -> tuple:
    """The smallest ratio at each s of :data:`DOM_GRID` (the curve does not move with the slider)."""
    params = {"n_c": key[0], "n_not": key[1], "counts_c": key[2], "counts_not": key[3]}
    return tuple(ncc_ratio(params, s, a, b) for s in DOM_GRID)


def _dom_figure(params):
    a, b = params["a"], params["b"]
    grid, ratios = DOM_GRID, _ratios(_key(params), a, b)
    return curve(
        grid,
        ratios,
        title=f"Smallest ratio P({a}, f̃)/P({b}, f̃) over the IDM's priors",
        x_title="s",
        y_title="smallest ratio (log scale)",
        name="inf of the ratio",
        hline=1.0,
        hline_name=f"1: above it, {a} dominates {b}",
        mark=params["s"],
        log_y=True,
    )


# steps 4-5: three classes --------------------------------------------------------------------
@functools.lru_cache(maxsize=256)
def three_class_problem(data_seed: int):
    """20 training rows and one instance from a naive model with 3 classes and 4 binary features."""
    rng = np.random.default_rng(data_seed)
    theta = draw_chances(rng, n_features=4, n_classes=3)
    codes, y = sample_naive(rng, theta, 21)
    columns = {
        f"F{j + 1}": pd.Categorical(np.where(codes[:, j] == 1, "yes", "no"), categories=["no", "yes"])
        for j in range(codes.shape[1])
    }
    X = pd.DataFrame(columns)
    labels = np.array(["a", "b", "c"], dtype=object)[y]
    return X.iloc[:20].reset_index(drop=True), labels[:20], X.iloc[20:].reset_index(drop=True)


@functools.lru_cache(maxsize=1024)
def ncc_set(data_seed: int, s: float) -> tuple:
    X, y, instance = three_class_problem(int(data_seed))
    model = NCC(s=float(s), categories="declared").fit(X, y, classes=["a", "b", "c"])
    keep = model.predict_set(instance)[0]
    return tuple(str(c) for c in model.classes_[keep])


def _three_prompt(params) -> str:
    X, y, instance = three_class_problem(params["data_seed"])
    rows = []
    for cls in ("a", "b", "c"):
        mask = y == cls
        cells = " | ".join(str(int((X.loc[mask, f] == instance[f].iloc[0]).sum())) for f in X.columns)
        rows.append(f"| {cls} | {int(mask.sum())} | {cells} |")
    head = " | ".join(f"{f} = {instance[f].iloc[0]}" for f in X.columns)
    return "\n".join([f"| class | n(class) | {head} |", "|---" * (2 + len(X.columns)) + "|", *rows])


def _three_params(rng) -> dict:
    return {"data_seed": int(rng.integers(0, 10**6)), "s": float(rng.choice(S_CHOICES))}


SET_Q = QuestionSpec(
    "ncc.set.three-classes",
    CLASSES,
    _three_params,
    prompt=lambda p: (
        "Counts of 20 training rows (three classes) with the instance's value of each "
        "feature:\n\n" + _three_prompt(p) + f"\n\nWhich classes does the NCC return at s = {p['s']:g}?"
    ),
    solve=lambda p: ncc_set(p["data_seed"], p["s"]),
    explain=lambda p, right: (
        f"At s = {p['s']:g} the NCC returns {{{', '.join(right)}}}: every class left "
        "out "
        "is dominated by one kept (its ratio to it stays above 1 for every prior). A "
        "class "
        "with a zero count n(class, f̃ⱼ) = 0 can never dominate."
    ),
    options=lambda p: ("a", "b", "c"),
)


def _set_figure(params):
    values = sorted({0.5, 1.0, 2.0, 4.0, 8.0, round(float(params["s"]), 1)})
    return set_grid(
        [f"s = {s:g}" for s in values], [ncc_set(params["data_seed"], s) for s in values], ["a", "b", "c"]
    )


def _grow_params(rng) -> dict:
    s1 = float(rng.choice((0.5, 1.0, 2.0)))
    return {"data_seed": int(rng.integers(0, 10**6)), "s": s1, "s2": s1 + float(rng.choice((1.0, 3.0, 6.0)))}


GROWS = ("a larger set", "the same set", "a smaller set")


def _grow_solve(p) -> str:
    first, second = set(ncc_set(p["data_seed"], p["s"])), set(ncc_set(p["data_seed"], p["s2"]))
    return change(first, second, GROWS)


GROW_Q = QuestionSpec(
    "ncc.set.grows",
    CHOICE,
    _grow_params,
    prompt=lambda p: (
        "The same kind of problem:\n\n" + _three_prompt(p) + f"\n\nAt s = {p['s']:g} the NCC returns "
        f"{{{', '.join(ncc_set(p['data_seed'], p['s']))}}}. "
        f"At s = {p['s2']:g} it returns…"
    ),
    solve=_grow_solve,
    explain=lambda p, right: (
        f"At s = {p['s2']:g} the set is "
        f"{{{', '.join(ncc_set(p['data_seed'], p['s2']))}}}: "
        f"{right}. A larger s holds every prior of a smaller one, so a class that "
        "dominates "
        "at the larger s dominates at the smaller: the set never shrinks as s grows."
    ),
    options=lambda p: GROWS,
)


# steps 6-7: the Home page's example ---------------------------------------------------------
@functools.lru_cache(maxsize=1)
def holdout() -> dict:
    X, y = sample("synthetic_nb")
    return holdout_example(X, y, N_TRAIN, sorted(set(HOLDOUT_S) | set(S_GRID)))


DIRECTION = ("higher", "the same", "lower")


def _det(s: float) -> float:
    return float(holdout()[round(float(s), 1)]["scores"]["determinacy"])


def _det_solve(p) -> str:
    first, second = _det(1.0), _det(p["s"])
    return change(first, second, DIRECTION)


def _experiment_determinacy(params: dict, seed: int) -> float:
    """NCC(s = 1) determinacy on 1,000 test rows after training on 30 rows of this student's sample."""
    rng = np.random.default_rng([int(seed), 1])
    theta = draw_chances(np.random.default_rng(0), n_features=10, n_classes=2)  # one truth for the class
    X, y = sample_naive(rng, theta, 30 + 1000)
    X = pd.DataFrame({f"F{j}": pd.Categorical(X[:, j], categories=[0, 1]) for j in range(X.shape[1])})
    model = NCC(s=1.0, categories="declared").fit(X.iloc[:30], y[:30], classes=[0, 1])
    return float(credal_scores(y[30:], model.predict_set(X.iloc[30:]), model.classes_)["determinacy"])


DET_Q = QuestionSpec(
    "ncc.determinacy.direction",
    CHOICE,
    lambda rng: {"s": float(rng.choice(HOLDOUT_S[1:]))},
    prompt=lambda p: (
        f"The Home page's example: NCC trained on {N_TRAIN} rows of synthetic_nb, tested on "
        "100. "
        f"At s = 1 its **determinacy** is {100 * _det(1.0):.0f} %. At s = {p['s']:g} it is…"
    ),
    solve=_det_solve,
    explain=lambda p, right: (
        f"At s = {p['s']:g} the determinacy is {100 * _det(p['s']):.0f} % ({right}): "
        "sets "
        "never shrink as s grows, so fewer test rows get a single class."
    ),
    options=lambda p: DIRECTION,
)


def _holdout_figure(params):
    view = holdout()[round(float(params["s"]), 1)]
    return set_size_bar(
        view["sets"],
        view["contains_truth"],
        title=f"Size of the NCC set on each of the {len(view['sets'])} test rows (s = {params['s']:g})",
    )


NBCI = ("higher than on the rows with one class", "lower than on the rows with one class")


def _split(s):
    return holdout()[round(float(s), 1)]["split"]


NBCI_Q = QuestionSpec(
    "ncc.nbc-i.direction",
    CHOICE,
    lambda rng: {"s": float(rng.choice((1.0, 2.0, 3.0, 4.0)))},
    prompt=lambda p: (
        f"Same example, s = {p['s']:g}. On the test rows where the NCC returns two or more "
        "classes, "
        "the NBC's accuracy is…"
    ),
    solve=lambda p: (
        NBCI[0]
        if _split(p["s"])["accuracy_indeterminate"] > _split(p["s"])["accuracy_determinate"]
        else NBCI[1]
    ),
    explain=lambda p, right: (
        f"NBC accuracy: {100 * _split(p['s'])['accuracy_indeterminate']:.0f} % where "
        "the "
        "NCC is indeterminate (NBC-I) against "
        f"{100 * _split(p['s'])['accuracy_determinate']:.0f} "
        "% where it is determinate. The NCC's sets isolate the rows that are hard for "
        "the "
        "NBC: there a single answer would often be a guess."
    ),
    options=lambda p: NBCI,
)


LESSON = Lesson(
    "naive-credal",
    "From naive Bayes to the naive credal classifier",
    assumes="Conditional probability and Bayes' rule; nothing about imprecise probability.",
    summary="The NBC, the imprecise Dirichlet model and s, dominance, credal sets, determinacy against "
    "single accuracy.",
    steps=(
        Step(
            "nbc",
            "The naive Bayes classifier",
            f"A {g('nbc', 'naive Bayes classifier (NBC)')} learns P(c) and each P(f̃ⱼ | c) from counts and "
            "multiplies them: P(c, f̃) = P(c) ∏ⱼ P(f̃ⱼ | c). It returns the class with the largest product: "
            f"always exactly one. Before counting it adds a {g('prior')}: s hidden instances spread evenly "
            "over "
            f"classes and values (the {g('perks-prior', 'Perks prior')}; here s = 1). The table gives "
            "n(c), the "
            "rows of class c, and n(c, f̃ⱼ), those that also show the instance's value f̃ⱼ.",
            NBC_Q,
            S_WIDGET,
            _nbc_figure,
            "profile_likelihood",
            lambda p: links.profile(pair_from_params(p), 0.5),
            formula=r"P(c)=\frac{n(c)+s/2}{N+s},\quad P(\tilde f_j\mid c)=\frac{n(c,\tilde "
            r"f_j)+s/4}{n(c)+s/2}",
        ),
        Step(
            "idm",
            "A set of priors: the IDM",
            "The NBC's answer depends on its prior. Walley's "
            f"{g('idm', 'imprecise Dirichlet model (IDM)')} keeps "
            "*every* Dirichlet prior worth s hidden instances, spread over the classes in any way t. The "
            "probability of class c is then known only as an interval: its lower end gives c none of the s "
            "hidden instances, its upper end gives c all of them. A larger s is more caution: a wider "
            "interval. As the data grow, the interval shrinks around n(c)/N.",
            IDM_Q,
            S_WIDGET,
            _idm_figure,
            "intervals_vs_n",
            lambda p: links.intervals(ratio=p["n"] / p["N"], s=p["s"]),
            formula=r"\underline P(c)=\frac{n(c)}{N+s}\qquad \overline P(c)=\frac{n(c)+s}{N+s}",
        ),
        Step(
            "dominance",
            "Dominance",
            f"With a set of priors, class a {g('dominance', 'dominates')} class b when a is more probable "
            "than "
            "b under *every* prior of the set: the smallest ratio P(a, f̃)/P(b, f̃) over the set exceeds 1 "
            f"({g('maximality')}). The {g('ncc', 'naive credal classifier (NCC)')} returns every class "
            "that no "
            "other class dominates. The figure shows that smallest ratio as s grows: where it falls below "
            "1, "
            "the NCC keeps both classes.",
            DOM_Q,
            S_WIDGET,
            _dom_figure,
            "profile_likelihood",
            lambda p: links.profile(pair_from_params(p), 0.5),
            formula=r"a \succ b \iff \inf_{t\in\mathcal T}\frac{P_t(a,\tilde f)}{P_t(b,\tilde f)}>1",
        ),
        Step(
            "set",
            "The credal set",
            f"With three classes the NCC's {g('credal-set', 'set')} may hold one, two or three classes. It "
            "keeps "
            "each class that no other dominates, so it is never empty; a class is dropped only when some "
            "class "
            "beats it under every prior. The counts come from 20 rows drawn from a naive model with three "
            "classes a, b, c and four yes/no features F1-F4.",
            SET_Q,
            S_WIDGET,
            _set_figure,
            "home",
            lambda p: links.home(p["s"]),
        ),
        Step(
            "grows",
            "More caution, larger sets",
            "The IDM at a larger s contains every prior of a smaller s. A class that dominates for all the "
            "priors of the larger set therefore dominates for the smaller one too. Predict what happens to "
            "the set when s grows, then move the slider and watch the grid: each row is the NCC's set at "
            "one s.",
            GROW_Q,
            S_WIDGET,
            _set_figure,
            "home",
            lambda p: links.home(p["s2"]),
        ),
        Step(
            "determinacy",
            "Determinacy and single accuracy",
            f"On a test set, {g('determinacy')} is the share of rows where the credal classifier returns "
            "one "
            f"class; {g('single-accuracy', 'single accuracy')} is its accuracy on those rows. Here: the "
            "Home "
            "page's example, 200 training rows of synthetic data with three classes, 100 test rows. The "
            "bars "
            "count the test rows by the size of their set, split by whether the set holds the true class.",
            DET_Q,
            S_WIDGET,
            _holdout_figure,
            "home",
            lambda p: links.home(p["s"]),
            experiment=Experiment(
                "NCC determinacy (s = 1) after 30 rows of your own sample", _experiment_determinacy
            ),
        ),
        Step(
            "nbc-i",
            "Where the NCC hesitates, the NBC guesses",
            "Compare the NBC with the NCC on the rows where the NCC returns several classes "
            f"({g('nbc-i', 'NBC-I')}"
            "). If the NBC is much less accurate there than elsewhere, the NCC's sets are doing their job: "
            "they "
            "mark the rows where the data do not justify one class, and where a single answer is often "
            "wrong.",
            NBCI_Q,
            S_WIDGET,
            _holdout_figure,
            "home",
            lambda p: links.home(p["s"]),
        ),
    ),
)
