"""The references page's content (no streamlit): the four papers in full, as their own first pages give
authors and title (venues from the proceedings they appeared in), and the works the pages rely on, with
what each page takes from which."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Reference", "PAPERS", "WORKS"]


@dataclass(frozen=True)
class Reference:
    key: str  # the anchor: references#<key>
    short: str  # how the pages name it
    citation: str  # authors, year, title, venue (markdown)
    used: tuple = ()  # (page, what the page takes from it)


PAPERS = (
    Reference(
        "paper-000",
        "000",
        "Alessandro Antonucci, Marco E. G. V. Cattaneo and Giorgio Corani (2011). *Likelihood-based "
        "naive "
        "credal classifier.* ISIPTA '11: Proceedings of the Seventh International Symposium on "
        "Imprecise "
        "Probability: Theories and Applications, Innsbruck.",
        (
            ("Home, Lessons 1 and 3", "the NBC, the NCC with the IDM and s, dominance (eqs. 2-5)"),
            ("Profile likelihood", "LNCC_α, Theorems 1-2, Examples 2 and 3, Figs. 2-3"),
            ("Intervals vs N", "Example 1 and Fig. 1: likelihood against IDM intervals"),
            ("Determinacy curves", "§5's artificial data, Fig. 5 and Table 1 (Det, Sgl-acc, D-acc, NBC-I)"),
        ),
    ),
    Reference(
        "paper-001",
        "001",
        "Giorgio Corani and Alessandro Antonucci (2012). *Credal classification based on AODE and "
        "compression coefficients.* arXiv:1203.5716 (IDSIA, Manno-Lugano).",
        (
            (
                "AODE compression weights, Lesson 5",
                "AODE, BMA-AODE, COMP-AODE and their credal versions, Alg. 1, eqs. 3-10, ε = 0.01",
            ),
            (
                "Compare on your data",
                "u65/u80, Brier loss, Wilcoxon and Friedman tests, MDL "
                "discretisation, "
                "imputation, CMA and CDT (§3.4), the reject option (§3.5)",
            ),
            ("Missing values, Lesson 4", "imputation by the most frequent value"),
        ),
    ),
    Reference(
        "paper-003",
        "003",
        "Marco E. G. V. Cattaneo (2010). *Likelihood-based inference for probabilistic graphical "
        "models: "
        "some preliminary results.* PGM 2010: Proceedings of the Fifth European Workshop on "
        "Probabilistic "
        "Graphical Models, pp. 57-64, HIIT Publications.",
        (
            ("Profile likelihood", "Example 1: the multinomial profile likelihood and its β-cut"),
            (
                "Intervals vs N, Lesson 2",
                "Example 2: the probability of a vacuous prediction, NHC against NCC",
            ),
            ("Profile likelihood in a network", "Theorem 1 on any network; Corollary 1 (the NHC)"),
        ),
    ),
    Reference(
        "paper-004",
        "004",
        "Meizhu Li, Jasper De Bock and Gert de Cooman (2019). *Dynamic classifier selection based on "
        "imprecise probabilities: a case study for the naive Bayes classifier.* In: Uncertainty "
        "Modelling "
        "in Data Science (SMPS 2018), Advances in Intelligent Systems and Computing 832, pp. 149-156, "
        "Springer.",
        (
            (
                "Classifier selection, Lesson 6",
                "the Laplace NBC, the Laplace-IDM NCC, the critical "
                "perturbation "
                "threshold, kNN on the threshold plane, SFS, the "
                "experiments",
            ),
        ),
    ),
)

WORKS = (
    Reference(
        "walley-1996",
        "Walley 1996",
        "Peter Walley (1996). *Inferences from multinomial data: learning about a bag of marbles.* "
        "Journal "
        "of the Royal Statistical Society, Series B 58(1), 3-57.",
        (("Home, Intervals vs N, Lessons 1-2", "the imprecise Dirichlet model and its intervals"),),
    ),
    Reference(
        "zaffalon-2002",
        "Zaffalon 2002",
        "Marco Zaffalon (2002). *The naive credal classifier.* Journal of Statistical Planning and "
        "Inference "
        "105(1), 5-21.",
        (("Home, Lesson 1, Compare", "the NCC, maximality, the exact dominance test"),),
    ),
    Reference(
        "corani-zaffalon-2008-ncc2",
        "Corani & Zaffalon 2008 (NCC2)",
        "Giorgio Corani and Marco Zaffalon (2008). *Learning reliable classifiers from small or "
        "incomplete "
        "data sets: the naive credal classifier 2.* Journal of Machine Learning Research 9, 581-621.",
        (
            ("Missing values, Lesson 4", "the conservative rule for values not missing at random, JNCC2"),
            ("Compare on your data", "the credal indicators"),
        ),
    ),
    Reference(
        "webb-2005",
        "Webb, Boughton & Wang 2005",
        "Geoffrey I. Webb, Janice R. Boughton and Zhihai Wang (2005). *Not so naive Bayes: aggregating "
        "one-dependence estimators.* Machine Learning 58(1), 5-24.",
        (
            (
                "AODE compression weights, Lesson 5",
                "AODE and its SPODEs (the app uses 001's averaging of posteriors)",
            ),
        ),
    ),
    Reference(
        "demsar-2006",
        "Demšar 2006",
        "Janez Demšar (2006). *Statistical comparisons of classifiers over multiple data sets.* "
        "Journal of "
        "Machine Learning Research 7, 1-30.",
        (
            (
                "Compare on your data",
                "the Wilcoxon, Friedman and Nemenyi tests; the critical-difference diagram",
            ),
        ),
    ),
    Reference(
        "zcm-2012",
        "Zaffalon, Corani & Mauá 2012",
        "Marco Zaffalon, Giorgio Corani and Denis Mauá (2012). *Evaluating credal classifiers by "
        "utility-discounted predictive accuracy.* International Journal of Approximate Reasoning "
        "53(8), "
        "1282-1301.",
        (("Compare on your data, AODE compression weights", "discounted accuracy, u65 and u80"),),
    ),
    Reference(
        "corani-zaffalon-2008-cma",
        "Corani & Zaffalon 2008 (CMA)",
        "Giorgio Corani and Marco Zaffalon (2008). *Credal model averaging: an extension of Bayesian "
        "model "
        "averaging to imprecise probabilities.* Proc. ECML PKDD 2008, pp. 257-271, Springer.",
        (("Compare on your data", "CMA, one of the credal classifiers 001 compares with (§3.4)"),),
    ),
    Reference(
        "abellan-moral-2005",
        "Abellán & Moral 2005",
        "Joaquín Abellán and Serafín Moral (2005). *Upper entropy of credal sets. Applications to "
        "credal "
        "classification.* International Journal of Approximate Reasoning 39(2-3), 235-255.",
        (("Compare on your data", "the credal decision tree (CDT) of 001 §3.4"),),
    ),
    Reference(
        "benavoli-2017",
        "Benavoli et al. 2017",
        "Alessio Benavoli, Giorgio Corani, Janez Demšar and Marco Zaffalon (2017). *Time for a "
        "change: a "
        "tutorial for comparing multiple classifiers through Bayesian analysis.* Journal of Machine "
        "Learning Research 18(77), 1-36.",
        (("Compare on your data", "Bayesian comparisons of classifiers beside the p-values"),),
    ),
    Reference(
        "boulle-2007",
        "Boullé 2007",
        "Marc Boullé (2007). *Compression-based averaging of selective naive Bayes classifiers.* "
        "Journal of "
        "Machine Learning Research 8, 1659-1685.",
        (("AODE compression weights", "the compression coefficients 001 applies to SPODEs"),),
    ),
)
