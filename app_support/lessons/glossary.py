"""The glossary's entries (no streamlit): every term of the lessons and every abbreviation on a page, one or
two sentences each, a formula and the paper.  ``pages/glossary.py`` shows them; pages link to
``/glossary#<anchor>``."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Term", "TERMS", "anchors", "term"]


@dataclass(frozen=True)
class Term:
    anchor: str
    name: str
    text: str
    latex: str = ""
    source: str = ""


TERMS: tuple[Term, ...] = (
    Term(
        "nbc",
        "NBC — naive Bayes classifier",
        "Learns P(c) and each P(f_j | c) from counts and returns the class with the largest product; "
        "features "
        "are assumed independent given the class. It always returns exactly one class.",
        r"\hat c = \arg\max_c P(c)\prod_{j=1}^m P(\tilde f_j\mid c)",
        "000 §2.1; 004 §2",
    ),
    Term(
        "prior",
        "Prior (Dirichlet prior, s and t)",
        "Before counting, s hidden instances are added, spread over the classes and feature values by a "
        "vector t "
        "(t(c) sums to 1 over the classes, t(c, f_j) to t(c) over the values). s is the prior's strength.",
        r"P_t(c)=\frac{n(c)+s\,t(c)}{N+s},\quad P_t(f_j\mid c)=\frac{n(c,f_j)+s\,t(c,f_j)}{n(c)+s\,t(c)}",
        "000 eqs. 2-3",
    ),
    Term(
        "s",
        "s — hidden instances of the IDM",
        "The number of hidden instances the prior may place: the NBC's prior strength, and the size of the "
        "IDM's set of priors. Larger s, more caution: NCC sets never shrink as s grows.",
        r"s > 0\quad(\text{000, 001: } s = 1;\ \text{Walley suggests } 1 \le s \le 2)",
        "000 §2.2; Walley 1996",
    ),
    Term(
        "perks-prior",
        "Perks prior",
        "The prior that spreads the s hidden instances evenly: the NBC of 000, Home and the lessons (s = 1).",
        r"t(c)=\frac1{|C|},\qquad t(c,f_j)=\frac1{|C|\,|F_j|}",
        "000 §2.1",
    ),
    Term(
        "laplace-prior",
        "Laplace prior",
        "One hidden instance per class and per value (add-one smoothing): the NBC of paper 004 and of the "
        "Classifier selection page. It differs from Perks: Perks spreads s = 1 in total.",
        r"P(c)=\frac{n(c)+1}{N+|C|},\quad P(f_j\mid c)=\frac{n(c,f_j)+1}{n(c)+|F_j|}",
        "004 §2",
    ),
    Term(
        "idm",
        "IDM — imprecise Dirichlet model",
        "Walley's model: keep *every* Dirichlet prior of strength s (every t), not one. A chance is then "
        "known "
        "as an interval, which narrows like s/(N + s) as the data grow.",
        r"\Big[\frac{n}{N+s},\ \frac{n+s}{N+s}\Big]",
        "Walley 1996; 000 §2.2",
    ),
    Term(
        "t-set",
        "𝒯 and the infimum over 𝒯",
        "𝒯 is the set of all spreads t of the IDM's s hidden instances. “inf over 𝒯” is the smallest value "
        "a "
        "quantity takes over that set: the least favourable prior.",
        r"\mathcal T=\Big\{t:\ \sum_c t(c)=1,\ \sum_{f_j} t(c,f_j)=t(c),\ t\ge 0\Big\}",
        "000 eq. 4",
    ),
    Term(
        "dominance",
        "Dominance",
        "Class a dominates b when a is more probable than b for every model in the set (every prior of the "
        "IDM, "
        "every NBC kept by the LNCC, every SPODE weighting of the credal AODEs).",
        r"a\succ b\iff \inf_{t\in\mathcal T}\frac{P_t(a,\tilde f)}{P_t(b,\tilde f)}>1",
        "000 eq. 5",
    ),
    Term(
        "maximality",
        "Maximality",
        "The decision rule that returns every class no other class dominates; with dominance as above it is "
        "never empty.",
        r"\{\,c:\ \nexists\, c' \text{ with } c'\succ c\,\}",
        "000 §2.2; Zaffalon 2002",
    ),
    Term(
        "credal-set",
        "Credal set; credal classifier",
        "A credal set is a (closed convex) set of probability distributions; a credal classifier returns a "
        "set "
        "of classes, one class when the data justify it and several when they do not.",
        r"\mathcal K \subseteq \Delta(C)",
        "000 §1; 001 §1",
    ),
    Term(
        "ncc",
        "NCC — naive credal classifier",
        "The NBC with the IDM in place of one prior, deciding by maximality: Zaffalon's credal classifier.",
        r"\text{NCC}(\tilde f)=\{c:\ \nexists\,c':\ \inf_{t}P_t(c',\tilde f)/P_t(c,\tilde "
        r"f)>1\}",
        "Zaffalon 2002; 000 §2.2",
    ),
    Term(
        "ncc-epsilon",
        "NCC_ε — ε-contaminated NCC",
        "The IDM's set shrunk towards the Perks prior: ε = 0 is the NCC, ε = 1 the Perks NBC.",
        r"\mathcal T_\epsilon=\{(1-\epsilon)u+\epsilon\,t_{\rm Perks}:\ u\in\mathcal T\}",
        "000 §2.2",
    ),
    Term(
        "ncc2",
        "NCC2 and JNCC2",
        "Corani and Zaffalon's NCC with the conservative treatment of missing values (and feature "
        "selection); "
        "JNCC2 is their Java program, whose example files the Missing values page reproduces.",
        r"a\succ b\iff\min_{\text{completions}}\inf_t "
        r"\frac{P_t(a,\cdot)}{P_t(b,\cdot)}>1",
        "Corani & Zaffalon 2008 (JMLR)",
    ),
    Term(
        "determinacy",
        "Determinacy (Det)",
        "The share of test instances for which a credal classifier returns a single class.",
        r"\text{Det}=\frac1n\sum_i[\,|S_i|=1\,]",
        "000 §5; 001 §3",
    ),
    Term(
        "single-accuracy",
        "Single accuracy (Sgl-acc)",
        "Accuracy of the credal classifier on the instances where it returns one class.",
        r"\frac{\sum_i[S_i=\{c_i\}]}{\sum_i[|S_i|=1]}",
        "000 §5; 001 §3",
    ),
    Term(
        "set-accuracy",
        "Set accuracy",
        "On the instances with two or more classes, the share whose set holds the true class.",
        r"\frac{\sum_i[|S_i|>1,\ c_i\in S_i]}{\sum_i[|S_i|>1]}",
        "001 §3",
    ),
    Term(
        "indeterminate-size",
        "Indeterminate output size",
        "The mean number of classes returned on the instances with two or more classes.",
        r"\frac{\sum_i |S_i|\,[|S_i|>1]}{\sum_i[|S_i|>1]}",
        "001 §3",
    ),
    Term(
        "discounted-accuracy",
        "Discounted accuracy (D-acc)",
        "Per instance, 1/|S| if the set holds the true class, else 0; averaged. It rewards a set of two "
        "that "
        "holds the truth as much as a coin flip between them.",
        r"x_i=\frac{[c_i\in S_i]}{|S_i|}",
        "Zaffalon, Corani & Mauá 2012; 000 Table 1",
    ),
    Term(
        "nbc-i",
        "NBC-I",
        "The NBC's accuracy on the instances where the credal classifier is indeterminate: low NBC-I means "
        "the "
        "credal classifier isolates the hard instances.",
        r"\text{NBC-I}=\frac{\sum_i[\hat c_i=c_i,\ |S_i|>1]}{\sum_i[|S_i|>1]}",
        "000 §5, Table 1",
    ),
    Term(
        "utility",
        "u65 and u80",
        "Utilities of discounted accuracy that reward caution: a set of two holding the truth scores 0.65 "
        "(u65) or 0.80 (u80) instead of 0.5; a correct single class scores 1. u80 values caution more.",
        r"u_{65}(x)=-0.6x^2+1.6x,\qquad u_{80}(x)=-1.2x^2+2.2x",
        "Zaffalon, Corani & Mauá 2012; 001 §3",
    ),
    Term(
        "brier",
        "Brier loss",
        "The squared distance between the predicted probabilities and the truth's indicator, averaged over "
        "instances: a score of calibrated probabilities (lower is better).",
        r"\frac1n\sum_i\sum_c\big(P(c\mid x_i)-[c=c_i]\big)^2",
        "001 §3",
    ),
    Term(
        "vacuous",
        "Vacuous prediction",
        "A credal prediction that returns every class: the classifier admits it cannot tell.",
        r"S(\tilde f)=C",
        "003 Example 2",
    ),
    Term(
        "likelihood",
        "Likelihood",
        "The probability of the observed data under a model θ, read as a function of θ.",
        r"L(\theta)=P_\theta(\text{data})",
        "003 §2; 000 §4",
    ),
    Term(
        "normalised-likelihood",
        "Normalised likelihood lik(θ)",
        "The likelihood divided by its maximum, between 0 and 1; 1 for the most likely model.",
        r"\mathrm{lik}(\theta)=\frac{P_\theta(\text{data})}{\sup_{\theta'}P_{\theta'}(\text{data})}",
        "003 §2",
    ),
    Term(
        "likelihood-interval",
        "Likelihood interval (β-cut, α-cut of one chance)",
        "The values of a quantity whose profile likelihood is at least the cutoff: the plausible values. "
        "Its approximate confidence level follows from Wilks' theorem.",
        r"\{\gamma:\ \mathrm{lik}_g(\gamma)\ge\beta\}",
        "003 §2, Example 1; 000 Fig. 1",
    ),
    Term(
        "wilks",
        "Wilks' theorem",
        "For large samples −2 log of the normalised likelihood of the true value is about χ² with one "
        "degree of "
        "freedom: a cutoff β gives an approximate confidence level.",
        r"P\big(\chi^2_1\le -2\log\beta\big)",
        "003 §2",
    ),
    Term(
        "profile-likelihood",
        "Profile likelihood",
        "The largest likelihood among the models that give a quantity a fixed value: the upper edge of the "
        "cloud of random NBCs on the Profile likelihood page.",
        r"\mathrm{lik}_g(\gamma)=\sup_{\theta:\ g(\theta)=\gamma}\mathrm{lik}(\theta)",
        "003 §2; 000 Theorem 1",
    ),
    Term(
        "random-nbcs",
        "Random NBCs θ",
        "NBC parameters drawn uniformly at random, each plotted at its P(c | f̃) and its likelihood: a "
        "Monte "
        "Carlo picture under the exact profile (000 Fig. 2).",
        r"\theta_c,\ \theta_{\tilde f_j\mid c},\ \theta_{\tilde f_j\mid\neg c}\sim U(0,1)",
        "000 Fig. 2",
    ),
    Term(
        "alpha-cut",
        "α-cut",
        "The models whose normalised likelihood is at least α; on the Profile likelihood page, the range of "
        "P(c | f̃) over them.",
        r"\{\theta:\ \mathrm{lik}(\theta)\ge\alpha\}",
        "000 §4",
    ),
    Term(
        "lncc",
        "LNCC_α — likelihood-based naive credal classifier",
        "Keeps every NBC whose normalised likelihood (data and the instance, its class missing) is at "
        "least α, "
        "and decides by dominance over them.",
        r"c\succ c'\iff\inf_{\theta:\,\mathrm{lik}(\theta)\ge\alpha}\frac{P_\theta(c,\tilde "
        r"f)}{P_\theta(c',\tilde f)}>1",
        "000 §4, Theorems 1-2",
    ),
    Term(
        "critical-alpha",
        "Critical α",
        "The α above which class c dominates ¬c: the highest profile likelihood where ¬c is at least as "
        "probable as c. 1 means c never dominates.",
        r"\alpha^*=\sup\{\mathrm{lik}(\theta):\ P_\theta(c,\tilde f)\le P_\theta(\neg c,\tilde "
        r"f)\}",
        "000 eq. 8",
    ),
    Term(
        "t-param",
        "t, [a, b], t̂ and r(t) = 1 (Profile likelihood page)",
        "000's Theorem 2 maps every NBC to one number t in [a, b] (a and b here are the ends of t's range, "
        "not "
        "classes); r(t) is the ratio P(c, f̃)/P(¬c, f̃) there, increasing in t. t̂ is where the profile is "
        "highest, and “t where r(t) = 1” where the two classes tie.",
        r"a=-\min_j n(c,\tilde f_j)-\tfrac12,\quad b=\min_j n(\neg c,\tilde f_j)+\tfrac12,\quad "
        r"r(t)=\frac{p'(t)}{p''(t)}",
        "000 Theorem 2",
    ),
    Term(
        "nhc",
        "NHC — naive hierarchical classifier",
        "Cattaneo's likelihood-based classifier: the LNCC without the instance in the likelihood, with "
        "cutoff β.",
        r"\mathrm{NHC}_\beta = \mathrm{LNCC}_{\alpha=\beta}\ \text{(data only)}",
        "003 Corollary 1, Example 2",
    ),
    Term(
        "bayesian-network",
        "Bayesian network",
        "A directed acyclic graph over the class and the features: each node has a table P(node | its "
        "parents), and a joint probability is the product of one entry of each table. The NBC is the network "
        "in which the class is the only parent of every feature.",
        r"P_\theta(x_1,\dots,x_m)=\prod_{i}\theta_{x_i\mid \mathrm{pa}(x_i)}",
        "003 §3",
    ),
    Term(
        "tan",
        "TAN — tree-augmented naive Bayes",
        "A Bayesian network in which each feature has the class and at most one other feature as parents, "
        "the feature tree chosen by conditional mutual information (Chow-Liu; Friedman, Geiger & "
        "Goldszmidt 1997).",
        r"\mathrm{pa}(f_j)=\{C\}\ \text{or}\ \{C, f_k\}",
        "001 §1; 003 Theorem 1",
    ),
    Term(
        "beta-index",
        "β — cutoff (and the uncertainty index β_c)",
        "The likelihood level of a likelihood interval or of the NHC; 003 also reads the critical cutoff "
        "of a "
        "class as an uncertainty index β_c.",
        r"\beta\in(0,1)",
        "003 §2, §4",
    ),
    Term(
        "aode",
        "AODE — averaged one-dependence estimators",
        "An ensemble of SPODEs, one per feature as super-parent, whose class posteriors are averaged with "
        "equal "
        "weights (001's version; Webb et al. average the joints).",
        r"P(c\mid\mathbf a)=\frac1k\sum_{j=1}^k P(c\mid\mathbf a,s_j)",
        "Webb, Boughton & Wang 2005; 001 §2.1",
    ),
    Term(
        "spode",
        "SPODE and super-parent",
        "A super-parent one-dependence estimator: a naive-Bayes-like model in which one feature A_j, the "
        "super-parent, is a parent of every other feature besides the class.",
        r"P(c,\mathbf a\mid s_j)=P(c)P(a_j\mid c)\prod_{i\ne j}P(a_i\mid c,a_j)",
        "001 §2.1, Fig. 2",
    ),
    Term(
        "bma",
        "BMA — Bayesian model averaging (BMA-AODE)",
        "Weights each SPODE by its posterior probability, proportional to the exponential of its "
        "conditional "
        "log-likelihood LL_j: with many data one SPODE takes almost all the weight.",
        r"w_j^{\rm BMA}\propto e^{LL_j}P(s_j)",
        "001 §2.2, eq. 3",
    ),
    Term(
        "compression",
        "Compression coefficient (COMP-AODE)",
        "Boullé's smoothing of BMA: how much better a SPODE compresses the classes than the null model; the "
        "positive coefficients, normalised, are COMP-AODE's weights.",
        r"\pi_j=1-\frac{LL_j+\log P(s_j)}{-nH(C)+\log P(s_0)}",
        "001 §2.4, eqs. 6-7; Boullé 2007",
    ),
    Term(
        "null-model",
        "Null model and −nH(C)",
        "The classifier that ignores the features and predicts the class frequencies; its conditional "
        "log-likelihood is −n times the class entropy (natural logarithm).",
        r"LL_0=-nH(C)=n\sum_c P(c)\log P(c)",
        "001 §2.4",
    ),
    Term(
        "credal-aode",
        "BMA-AODE* and COMP-AODE*",
        "The credal versions: the prior over the SPODEs ranges over a set (each at least ε), and a class "
        "dominates if it does for every prior of the set.",
        r"\mathcal P(S)=\{P:\ P(s_j)\ge\epsilon,\ \textstyle\sum_j P(s_j)=1\}",
        "001 §2.3, §2.5",
    ),
    Term(
        "dinkelbach",
        "Dinkelbach's method",
        "An iteration for minimising a ratio of two functions by solving a sequence of parametric "
        "subtractive "
        "problems; used for the value of COMP-AODE*'s ratio, shown for display.",
        r"\min_x \frac{N(x)}{D(x)}:\ \lambda_{k+1}=\frac{N(x_k)}{D(x_k)},\ x_{k+1}=\arg\min_x "
        r"N(x)-\lambda_{k+1}D(x)",
        "001 §2.5; Bajalinov 2003",
    ),
    Term(
        "water-filling",
        "Water-filling",
        "A closed-form solution of a concave allocation problem: weights rise to a common level, bounded "
        "below "
        "by ε; used for COMP-AODE*'s dominance test.",
        r"y_j=\max\big(\epsilon,\ |d_j|/\lambda\big)",
        "001 §2.5 (our closed form)",
    ),
    Term(
        "mar",
        "MAR, MCAR and not MAR (MNAR)",
        "Missing at random: whether a value is missing does not depend on the value (given what is "
        "observed); "
        "MCAR: on nothing at all; not MAR: it may depend on the value itself.",
        r"P(\text{missing}\mid v,\text{obs})=P(\text{missing}\mid\text{obs})",
        "Corani & Zaffalon 2008 (JMLR)",
    ),
    Term(
        "cir",
        "Conservative (inference) rule",
        "NCC2's treatment of values not MAR: a hidden value may be any value, and a class dominates only "
        "if it "
        "does for every completion.",
        r"a\succ b\iff \min_{v}\inf_t\frac{P_t(a,\tilde f_{\rm obs},v)}{P_t(b,\tilde f_{\rm obs},v)}>1",
        "Corani & Zaffalon 2008 (JMLR)",
    ),
    Term(
        "imputation",
        "Imputation",
        "Filling each missing value with a guess, here the most frequent value of the training data, before "
        "learning and classifying.",
        r"\tilde f_j \leftarrow \arg\max_{v} n(F_j=v)",
        "001 §3",
    ),
    Term(
        "perturbation-threshold",
        "Critical perturbation threshold",
        "The largest s for which the Laplace-IDM NCC around an NBC still returns only the NBC's class: how "
        "far "
        "the NBC can be perturbed before its answer changes (its robustness on this instance).",
        r"s^*=\sup\{s:\ \text{Laplace-IDM NCC}_s(\tilde f)=\{\hat c\}\}",
        "004 §3",
    ),
    Term(
        "threshold-plane",
        "Threshold plane, kNN, Euclidean and Chebyshev distance",
        "Each instance is a point (s*₁, s*₂) of two classifiers' thresholds; a test instance uses the "
        "classifier "
        "that was right more often among its k nearest training points, by Euclidean or Chebyshev (largest "
        "coordinate) distance.",
        r"d_2=\sqrt{\Delta_1^2+\Delta_2^2},\qquad d_\infty=\max(|\Delta_1|,|\Delta_2|)",
        "004 §4",
    ),
    Term(
        "sfs",
        "SFS — sequential forward selection",
        "Greedy feature selection: add, one at a time, the feature that most improves cross-validated "
        "accuracy.",
        r"F_{k+1}=F_k\cup\{\arg\max_f \mathrm{acc}(F_k\cup\{f\})\}",
        "004 §5",
    ),
    Term(
        "mdl",
        "MDL discretisation",
        "Fayyad and Irani's supervised discretisation of a numeric feature: cut points chosen by the "
        "minimum "
        "description length principle.",
        r"\text{cut iff } \mathrm{Gain} > \frac{\log_2(N-1)}{N}+\frac{\Delta}{N}",
        "001 §3",
    ),
    Term(
        "cma",
        "CMA — credal model averaging",
        "Corani and Zaffalon's credal version of BMA over naive Bayes classifiers with different feature "
        "subsets: the prior over the models ranges over a set.",
        r"c\succ c'\iff\inf_{P\in\mathcal P}\frac{\sum_m P(c,\tilde f\mid m)P(m\mid D)}{\sum_m P(c',\tilde "
        r"f\mid m)P(m\mid D)}>1",
        "Corani & Zaffalon 2008 (ECML PKDD); 001 §3.4",
    ),
    Term(
        "cdt",
        "CDT — credal decision tree",
        "Abellán and Moral's classification tree built with the IDM and upper entropy; its leaves return "
        "sets.",
        r"\max_{P\in\mathcal K} H(P)",
        "Abellán & Moral 2005; 001 §3.4",
    ),
    Term(
        "wilcoxon",
        "Wilcoxon signed-rank test",
        "Compares two classifiers over data sets by ranking their differences; with few data sets no "
        "difference "
        "can be significant.",
        r"W=\sum_i \operatorname{sign}(d_i)\,\mathrm{rank}(|d_i|)",
        "Demšar 2006; 001 §3",
    ),
    Term(
        "friedman",
        "Friedman test, Nemenyi test, critical difference",
        "Ranks several classifiers on each data set and tests equal average ranks; the Nemenyi post-hoc "
        "test "
        "calls two classifiers different when their ranks differ by more than the critical difference (CD).",
        r"CD=q_\alpha\sqrt{\frac{k(k+1)}{6N}}",
        "Demšar 2006; 001 Fig. 7",
    ),
    Term(
        "bayesian-tests",
        "Bayesian comparison of classifiers",
        "Posterior probabilities that one classifier is better, equivalent (within a rope) or worse than "
        "another, in place of p-values.",
        r"P(\Delta>r),\ P(|\Delta|\le r),\ P(\Delta<-r)",
        "Benavoli et al. 2017",
    ),
    Term(
        "reject-option",
        "Reject option",
        "A precise classifier that refuses to classify when its top posterior is below 1 − d, at cost d.",
        r"\text{reject iff } \max_c P(c\mid x) < 1-d",
        "001 §3.5",
    ),
    Term(
        "class-letters",
        "The letters a, b, c",
        "In dominance statements a and b name two classes (a ≻ b); on the Profile likelihood page [a, b] "
        "is the "
        "range of the parameter t, and c, ¬c the two classes.",
        r"a\succ b\ \text{(classes)}\qquad t\in[a,b]\ \text{(000 Theorem 2)}",
        "000 §2, §4",
    ),
    Term(
        "papers",
        "000, 001, 003, 004",
        "The four papers behind the app, named by their file numbers; the References page gives each in "
        "full.",
        r"\text{000, 001, 003, 004}",
        "References page",
    ),
)


def anchors() -> tuple[str, ...]:
    return tuple(t.anchor for t in TERMS)


def term(anchor: str) -> Term | None:
    return next((t for t in TERMS if t.anchor == anchor), None)
