"""Lesson 3: the likelihood-based credal classifier (profile likelihood, α-cut, critical α, with and without
the instance; 000 Examples 2-3)."""

from __future__ import annotations

import functools

import numpy as np

from credal_core import NCC
from credal_core.likelihood.pair_input import PairInput, lncc_answer

from . import links
from .lesson_ncc import g
from .lesson_network import STEP as NETWORK_STEP
from .model import CHOICE, CLASSES, NUMBER, Experiment, Lesson, QuestionSpec, Step, Widget, change
from .problems import CLASSES as PAIR_CLASSES
from .problems import (
    NOT_C,
    C,
    counts_table,
    pair_frame,
    pair_from_params,
    pair_instance,
    pair_params,
    random_pair,
    scaled,
)
from .sources import lncc_figure

ALPHA_WIDGET = Widget("alpha", "α (keep the NBCs with normalised likelihood ≥ α)", 0.0, 1.0, 0.01)
INSTANCE_WIDGET = Widget("include_instance", "include the instance in the likelihood", kind="toggle")
RETURNED = {"c": (C,), "not c": (NOT_C,), "both": (C, NOT_C)}
ALPHA_GRID = tuple(round(i / 100, 2) for i in range(101))     # the values of the α slider (step 0.01)


@functools.lru_cache(maxsize=256)
def _profile(pair: PairInput, include_instance: bool):
    profile = pair.profile(include_instance)
    return profile, profile.curve(num=400)


@functools.lru_cache(maxsize=256)
def _cloud(pair: PairInput, include_instance: bool):
    """1,500 random NBCs at their P(c | f̃) and likelihood (the same at every α)."""
    return _profile(pair, include_instance)[0].sample_cloud(size=1500, seed=0)


@functools.lru_cache(maxsize=256)
def _cut_grid(pair: PairInput, include_instance: bool) -> dict:
    """The α-cut at every value of the α slider, in one pass (``PairProfile.alpha_cuts``: each row the
    same as ``alpha_cut`` of that α alone): a class moving the slider then finds each cut computed."""
    cuts = _profile(pair, include_instance)[0].alpha_cuts(ALPHA_GRID)
    return {alpha: (float(lo), float(hi)) for alpha, (lo, hi) in zip(ALPHA_GRID, cuts)}


def alpha_cut(pair: PairInput, include_instance: bool, alpha: float) -> tuple[float, float]:
    """``PairProfile.alpha_cut`` of ``alpha``, looked up when ``alpha`` is a value of the slider."""
    grid = _cut_grid(pair, include_instance)
    return grid[alpha] if alpha in grid else _profile(pair, include_instance)[0].alpha_cut(alpha)


def profile_of(p: dict, include_instance: bool | None = None):
    inst = p.get("include_instance", True) if include_instance is None else include_instance
    return _profile(pair_from_params(p), bool(inst))[0]


def critical(p: dict, include_instance: bool | None = None) -> float:
    """The α above which one of the two classes dominates the other (1: never)."""
    profile = profile_of(p, include_instance)
    return min(profile.critical_alpha, profile.critical_alpha_reverse)


def lncc_set(p: dict, alpha: float, include_instance: bool | None = None) -> tuple:
    return RETURNED[lncc_answer(profile_of(p, include_instance), float(alpha)).returned]


@functools.lru_cache(maxsize=128)
def _figure(pair: PairInput, include_instance: bool, alpha: float):
    (profile, curve), (_, other) = _profile(pair, include_instance), _profile(pair, not include_instance)
    cloud = _cloud(pair, include_instance)
    cut = alpha_cut(pair, include_instance, alpha)
    answer = lncc_answer(profile, alpha, cut)
    return lncc_figure(
        curve,
        other,
        cloud,
        alpha=alpha,
        alpha_cut=cut,
        verdict=answer.returned,
        include_instance=include_instance,
    )


def figure(p: dict):
    return _figure(
        pair_from_params(p),
        bool(p.get("include_instance", True)),
        round(min(max(float(p.get("alpha", 0.5)), 0.0), 1.0), 2),
    )


def _decisive_pair(rng, features: int = 1, lo: int = 2, hi: int = 10) -> PairInput:
    """A random problem whose critical α lies in [0.03, 0.97] (some class can dominate, not trivially)."""
    while True:
        pair = random_pair(rng, features=features, lo=lo, hi=hi)
        if 0.03 <= critical(pair_params(pair)) <= 0.97:
            return pair


def _params(rng, features: int = 1) -> dict:
    pair = _decisive_pair(rng, features)
    return {**pair_params(pair), "alpha": float(np.round(rng.uniform(0.1, 0.9), 2)), "include_instance": True}


def _table(p) -> str:
    return counts_table(pair_from_params(p))


def _link(p):
    return links.profile(pair_from_params(p), p.get("alpha", 0.5), bool(p.get("include_instance", True)))


# step 1 ---------------------------------------------------------------------------------------
def mle_posterior(p: dict) -> float:
    curve = _profile(pair_from_params(p), True)[1]
    return float(curve["posterior"].iloc[int(curve["likelihood"].to_numpy().argmax())])


MLE_Q = QuestionSpec(
    "lncc.mle.class",
    CHOICE,
    _params,
    prompt=lambda p: (
        _table(p) + "\n\nThe **most likely** NBC (normalised likelihood 1): which class does it "
        "find more probable for the instance?"
    ),
    solve=lambda p: C if mle_posterior(p) > 0.5 else NOT_C,
    explain=lambda p, right: (
        "The top of the profile likelihood sits at P(c | f̃) = "
        f"{mle_posterior(p):.3f}: "
        f"**{right}**. That NBC uses the observed frequencies (with the instance "
        "counted as "
        "a half-observed row): it is the NBC without any prior."
    ),
    options=lambda p: PAIR_CLASSES,
)


# step 2 ---------------------------------------------------------------------------------------
CUT_Q = QuestionSpec(
    "lncc.alpha-cut.set",
    CLASSES,
    _params,
    prompt=lambda p: _table(p) + f"\n\nWhich classes does LNCC with α = {p['alpha']:g} return?",
    solve=lambda p: lncc_set(p, p["alpha"]),
    explain=lambda p, right: (
        f"At α = {p['alpha']:g}: {lncc_answer(profile_of(p), p['alpha']).reason} So "
        "the "
        f"LNCC returns {{{', '.join(right)}}}."
    ),
    options=lambda p: PAIR_CLASSES,
)


# step 3 ---------------------------------------------------------------------------------------
def _experiment_critical(params: dict, seed: int) -> float:
    """The critical α of this student's own 20 rows from one truth (P(c) = .5, P(f̃|c) = .7, P(f̃|¬c) = .4)."""
    rng = np.random.default_rng([int(seed), 3])
    n_c = int(rng.binomial(20, 0.5))
    pair = PairInput.from_counts(
        n_c, 20 - n_c, [int(rng.binomial(n_c, 0.7))], [int(rng.binomial(20 - n_c, 0.4))]
    )
    return critical(pair_params(pair))


CRIT_Q = QuestionSpec(
    "lncc.critical-alpha",
    NUMBER,
    _params,
    prompt=lambda p: (
        _table(p) + "\n\nAbove which α does one class dominate the other (the **critical α**)? (within 0.005)"
    ),
    solve=critical,
    explain=lambda p, right: (
        f"The critical α is the highest profile likelihood on the losing side of "
        f"P(c | f̃) = ½: **{right:.4f}**. {lncc_answer(profile_of(p), 0.5).headline}. "
        "Any α above it cuts that side away."
    ),
)


# step 4 ---------------------------------------------------------------------------------------
MONO = ("a larger set", "the same set", "a smaller set")


def _mono_params(rng) -> dict:
    p = _params(rng)
    first = float(np.round(rng.uniform(0.02, 0.6), 2))
    return {**p, "alpha": first, "alpha2": float(np.round(first + rng.uniform(0.1, 0.38), 2))}


def _mono_solve(p) -> str:
    first, second = set(lncc_set(p, p["alpha"])), set(lncc_set(p, p["alpha2"]))
    return change(first, second, MONO)


MONO_Q = QuestionSpec(
    "lncc.alpha.monotone",
    CHOICE,
    _mono_params,
    prompt=lambda p: (
        _table(p) + f"\n\nAt α = {p['alpha']:g} the LNCC returns "
        f"{{{', '.join(lncc_set(p, p['alpha']))}}}."
        f" At α = {p['alpha2']:g} it returns…"
    ),
    solve=_mono_solve,
    explain=lambda p, right: (
        f"At α = {p['alpha2']:g}: {{{', '.join(lncc_set(p, p['alpha2']))}}} "
        f"({right}). A higher "
        "α keeps fewer NBCs, so the α-cut shrinks and a dominance, once reached, "
        "stays: the "
        "set never grows as α rises."
    ),
    options=lambda p: MONO,
)


# step 5 ---------------------------------------------------------------------------------------
MORE = ("lower", "the same", "higher")


def _more_params(rng) -> dict:
    p = _params(rng)
    return {**p, "factor": int(rng.choice((2, 3, 5)))}


def _scaled(p) -> dict:
    return scaled(p, p["factor"])


def _more_solve(p) -> str:
    first, second = critical(p), critical(_scaled(p))
    return change(first, second, MORE[::-1], tol=1e-12)


MORE_Q = QuestionSpec(
    "lncc.more-data",
    CHOICE,
    _more_params,
    prompt=lambda p: (
        _table(p) + f"\n\nIts critical α is {critical(p):.3f}. Multiply every count by "
        f"{p['factor']} "
        "(same proportions, more data). The critical α becomes…"
    ),
    solve=_more_solve,
    explain=lambda p, right: (
        f"With {p['factor']}× the counts the critical α is {critical(_scaled(p)):.4f}: "
        f"**{right}**. The likelihood is raised to the power {p['factor']}, so every "
        "value "
        "below 1 shrinks: the plausible NBCs concentrate and the LNCC decides "
        "earlier."
    ),
    options=lambda p: MORE,
)


# step 6 ---------------------------------------------------------------------------------------
def _ex3_params(rng) -> dict:
    n = int(rng.integers(10, 61))
    return {
        "n_c": n,
        "n_not": n,
        "counts_c": [n, 0],
        "counts_not": [int(rng.integers(1, 4)), int(rng.integers(1, 4))],
        "alpha": 0.5,
        "include_instance": True,
    }


def _c_critical(p, include_instance):
    return profile_of(p, include_instance).critical_alpha


INSTANCE = ("a lower α", "the same α", "a higher α")


def _inst_solve(p) -> str:
    without, with_ = _c_critical(p, False), _c_critical(p, True)
    return change(with_, without, INSTANCE[::-1], tol=1e-12)


INST_Q = QuestionSpec(
    "lncc.instance",
    CHOICE,
    _ex3_params,
    prompt=lambda p: (
        _table(p) + f"\n\nWith the instance in the likelihood, c dominates ¬c for α > "
        f"{_c_critical(p, True):.3f}. **Without** the instance, c dominates ¬c above…"
    ),
    solve=_inst_solve,
    explain=lambda p, right: (
        f"Without the instance the critical α of c is {_c_critical(p, False):.4f} "
        f"({right}; 1 "
        "means never). The zero count n(c, f̃₂) = 0 makes every NBC fitted to the "
        "data alone "
        "give P(f̃₂ | c) near 0; the instance, which shows f̃₂, puts weight on NBCs "
        "where c "
        "can still explain it (000 Example 3)."
    ),
    options=lambda p: INSTANCE,
)


# step 7 ---------------------------------------------------------------------------------------
def ncc_pair_set(p: dict, s: float) -> tuple:
    pair = pair_from_params(p)
    X, y = pair_frame(pair)
    model = NCC(s=float(s), categories="declared").fit(X, y)
    keep = model.predict_set(pair_instance(pair))[0]
    return tuple(str(c) for c in model.classes_[keep])


def _zero_params(rng) -> dict:
    return {
        **_ex3_params(rng),
        "s": float(rng.choice((0.5, 1.0, 2.0))),
        "alpha": float(rng.choice((0.3, 0.5, 0.8))),
    }


ZERO_Q = QuestionSpec(
    "lncc.zero-count.ncc",
    CLASSES,
    _zero_params,
    prompt=lambda p: (
        _table(p) + f"\n\nThe LNCC at α = {p['alpha']:g} returns "
        f"{{{', '.join(lncc_set(p, p['alpha']))}}}. "
        f"Which classes does the **NCC** at s = {p['s']:g} return?"
    ),
    solve=lambda p: ncc_pair_set(p, p["s"]),
    explain=lambda p, right: (
        f"The NCC returns {{{', '.join(right)}}}. Under the IDM the least favourable "
        "prior "
        "gives c no extra weight on f̃₂, so the zero count n(c, f̃₂) = 0 makes P(c, "
        "f̃) = 0 and "
        "c can never dominate, whatever the other counts (000 §2.2). The LNCC's "
        "likelihood "
        "weighs that one zero against the 2n other rows."
    ),
    options=lambda p: PAIR_CLASSES,
)


LESSON = Lesson(
    "likelihood-credal",
    "The likelihood-based credal classifier",
    assumes="Lesson 1 (NBC, dominance) and lesson 2's likelihood interval.",
    summary="Profile likelihood, the α-cut, the critical α, with and without the instance (000 Examples "
    "2-3).",
    steps=(
        Step(
            "likelihood",
            "Every NBC has a likelihood",
            "Instead of a set of priors, keep a set of NBCs: every choice θ of the NBC's probabilities "
            "has a "
            f"{g('normalised-likelihood', 'normalised likelihood')} lik(θ) between 0 and 1 (1 for the most "
            "likely). "
            "The figure plots random NBCs (dots) at their P(c | f̃) and likelihood; the black line is the "
            f"{g('profile-likelihood', 'profile likelihood')}, the highest likelihood at each value of P(c "
            "| f̃).",
            MLE_Q,
            ALPHA_WIDGET,
            figure,
            "profile_likelihood",
            _link,
            formula=r"\mathrm{lik}(\theta)=\frac{P_\theta(\text{data},\tilde "
            r"f)}{\max_{\theta'}P_{\theta'}(\text{data},"
            r"\tilde f)}",
        ),
        Step(
            "alpha-cut",
            "The α-cut",
            f"The {g('lncc', 'LNCC')}$_\\alpha$ keeps the NBCs with lik(θ) ≥ α (the "
            f"{g('alpha-cut', 'α-cut')}). "
            "c dominates ¬c if every NBC kept finds c more probable, i.e. if the α-cut's range of P(c | f̃) "
            "lies right of ½. The thick line in the figure is that range at your α.",
            CUT_Q,
            ALPHA_WIDGET,
            figure,
            "profile_likelihood",
            _link,
            formula=r"c\succ\neg c \iff \inf_{\theta:\,\mathrm{lik}(\theta)\ge\alpha}"
            r"\frac{P_\theta(c,\tilde f)}{P_\theta(\neg c,\tilde f)}>1",
        ),
        Step(
            "critical",
            "The critical α",
            "Raise α and the α-cut shrinks around the most likely NBC. The "
            f"{g('critical-alpha', 'critical α')} is "
            "the α at which the cut leaves the losing side of ½: the highest profile likelihood there. "
            "Above it "
            "one class dominates; below it the LNCC returns both. It summarises the whole verdict in one "
            "number.",
            CRIT_Q,
            ALPHA_WIDGET,
            figure,
            "profile_likelihood",
            _link,
            experiment=Experiment("the critical α of your own 20 rows", _experiment_critical),
        ),
        Step(
            "monotone",
            "Higher α, smaller sets",
            "α plays the role s played in lesson 1, the other way round: a higher α keeps fewer NBCs. "
            "Predict "
            "what a higher α does to the set, then drag the slider across the critical α.",
            MONO_Q,
            ALPHA_WIDGET,
            figure,
            "profile_likelihood",
            _link,
        ),
        Step(
            "more-data",
            "More data, earlier decisions (000 Example 2)",
            "000 Example 2 has n(c) = 6, n(¬c) = 2 and one feature seen with c five times and with ¬c "
            "once; its "
            "critical α is 0.233. Multiplying every count keeps the proportions, and so the most likely "
            "NBC, but "
            "changes how sharply the likelihood falls away from it.",
            MORE_Q,
            ALPHA_WIDGET,
            figure,
            "profile_likelihood",
            _link,
        ),
        Step(
            "instance",
            "With and without the instance (000 Example 3)",
            "The LNCC counts the instance to classify as one more row whose class is missing; "
            f"{g('nhc', 'the NHC')} of 003 leaves it out. 000 Example 3: c always shows f̃₁ but never f̃₂, "
            "and the "
            "instance shows both. Flip the toggle and compare the two curves.",
            INST_Q,
            INSTANCE_WIDGET,
            figure,
            "profile_likelihood",
            _link,
        ),
        Step(
            "zero-count",
            "A zero count: NCC against LNCC",
            "A single zero count n(c, f̃ⱼ) = 0 is the NCC's weak spot: some prior of the IDM then gives the "
            "instance probability 0 under c. The LNCC weighs the zero against all the other data instead.",
            ZERO_Q,
            ALPHA_WIDGET,
            figure,
            "profile_likelihood",
            _link,
        ),
        NETWORK_STEP,
    ),
)
