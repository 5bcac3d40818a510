"""The one estimator base of every categorical classifier, and the credal decision path.

**Contract.**  A classifier subclasses :class:`CategoricalClassifier` (credal ones also
:class:`CredalClassifierMixin`, listed first) and writes only what is its own:

* ``__init__`` keyword-only, storing its parameters; ``_parameter_constraints`` (scikit-learn's
  constraint language: ``Interval``, ``StrOptions``, types...) — the base runs scikit-learn's own
  ``_validate_params`` at fit time, adds the package's number rules (a bool is not a number; numbers
  are finite unless an Interval bound is ``np.inf``) and checks a ``categories`` parameter
  (:data:`CATEGORIES_CONSTRAINT`).  Checks the constraints cannot express (relations between
  parameters, list contents) go to the hook ``_check_params()``.  Never define ``_validate_params``;
  callers that check parameters without fitting use the public ``check_parameters()``.
* ``_fit_tables(self, tables, codes=None, y_codes=None)``: learn the family's state from the
  :class:`~credal_core.data.CountTables` of the training rows.  ``fit`` has already validated the
  parameters, applied the class rule (``classes=`` declares classes; without it a pandas
  Categorical ``y`` declares its categories), refused a single class, warned about features
  missing in every row and set ``tables_``, ``classes_``, ``n_features_in_``, ``feature_names_in_``,
  ``class_count_``, ``feature_count_``.  A family that needs the training rows themselves (pair
  counts, a tree) sets the class attribute ``_needs_training_codes = True`` and then receives
  ``codes`` (n, m) — exactly ``tables.encode(X)`` — and ``y_codes`` (n,), positions in ``classes_``;
  one that needs the table itself (column dtypes: the threshold selector) also sets
  ``_needs_training_input = True`` and receives the keyword ``X`` as given to ``fit``.
  If the hook raises, the estimator is left unfitted.
* ``_joint_log_likelihood(codes)`` -> (C, n): ``log P(c, x)`` up to a per-row constant; ``predict``
  is its argmax and ``predict_proba`` / ``predict_log_proba`` its normalisation (a family that
  computes normalised posteriors directly may override ``_log_proba(codes)`` -> (n, C) too).  A
  family without probabilities sets ``_has_joint_log_likelihood = False`` (the probability methods
  then do not exist) and overrides ``predict``.
* credal: ``_dominance(codes)`` -> bool (n, C, C), ``[i, a, b]`` iff a dominates b; the mixin
  gives ``dominance``, ``dominance_codes`` and ``predict_set`` (maximality, :func:`maximal_set`).

The base owns every public method (``fit``, ``encode``, ``joint_log_likelihood_codes``,
``predict*``, tags: categorical, string and NaN input), working in blocks of :data:`CHUNK_ROWS`
rows.  :class:`NaiveCountsClassifier` adds ``partial_fit`` and ``fit_counts(tables)`` (adopt
precomputed tables: how resampling engines share counts) for families whose state is the count
tables alone.  A family whose state is richer shares it the same way through its own public method
that hands the precomputed state to its hook as a keyword (``self._set_tables(tables, spodes=...)``
→ ``_fit_tables(..., spodes=...)``: the AODE family's ``fit_spodes``); never through a module-level
cache.  Minimal example (``Interval`` from ``sklearn.utils._param_validation``, ``Real`` from
``numbers``)::

    class MyNB(CategoricalClassifier):
        _parameter_constraints = {"s": [Interval(Real, 0, None, closed="left")],
                                  "categories": CATEGORIES_CONSTRAINT}

        def __init__(self, *, s=1.0, categories="seen"):
            self.s = s
            self.categories = categories

        def _joint_log_likelihood(self, codes):
            return perks_log_joint(self.tables_, codes, float(self.s))

Other modules never call the hooks: they use the public methods, which delegate to them
(``encode``, ``joint_log_likelihood_codes``, ``dominance_codes`` for integer codes already encoded
by the model, as the evaluation engine and the threshold selector hold them).
"""
from __future__ import annotations

import re
import warnings
from numbers import Real

import numpy as np
from scipy.special import logsumexp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils._param_validation import Interval, InvalidParameterError, StrOptions
from sklearn.utils.metaestimators import available_if
from sklearn.utils.validation import check_is_fitted

from ._checks import check_number
from ._compiled import compiled_kernel, numba_enabled
from .data.counts import CountTables, check_categories_policy, lookup_sum

# Log-ratios within this of 0 are ties: sums of logs taken in different orders differ in the last
# bits, and an exact tie must never become a dominance (or a positive threshold) by rounding.
TIE = 1e-12

__all__ = ["TIE", "CHUNK_ROWS", "CATEGORIES_CONSTRAINT", "CategoricalClassifier", "NaiveCountsClassifier",
           "CredalClassifierMixin", "chunked", "maximal_set", "perks_log_joint", "top_cycle", "natural_dtype",
           "check_number", "plain_parameter_message"]

CATEGORIES_CONSTRAINT = [StrOptions({"seen", "declared"}), "array-like"]
"""``_parameter_constraints`` entry of a ``categories`` parameter (its lists are then checked by
:func:`~credal_core.data.counts.check_categories_policy`)."""


def perks_log_joint(tables: CountTables, codes: np.ndarray, s: float) -> np.ndarray:
    r"""Log joint ``log P(c, f)`` (C, n) of the NBC with Perks' prior of strength ``s`` (000 eqs. 1-3).

    .. math::
        \theta_c = \frac{n(c) + s/|C|}{N + s}, \qquad
        \theta_{f_j|c} = \frac{n(c, f_j) + s/(|C||F_j|)}{n_j(c) + s/|C|}

    :math:`n_j(c)` counts the class-``c`` rows where feature ``j`` is present (``n(c)`` with
    complete data): under MAR the posterior of feature ``j``'s conditional is the Dirichlet update
    of the prior by those rows only; a missing test value (code ``MISSING``) is summed out of the
    product.  With ``s = 0`` (maximum likelihood) a class without data on ``j`` gets the uniform
    conditional distribution (paper 003's convention for normalising the zero function) and
    ``log 0 = -inf``.
    """
    n_classes = len(tables.classes)
    den = tables.class_counts + s / n_classes
    conditionals = []
    for ext, present in zip(tables.extended_counts(), tables.present_counts()):
        n_values = max(ext.shape[1] - 1, 1)      # a feature never present has no values (codes MISSING)
        den_j = present + s / n_classes
        safe = np.where(den_j > 0, den_j, 1.0)[:, None]
        p = np.where(den_j[:, None] > 0, (ext + s / (n_classes * n_values)) / safe, 1.0 / n_values)
        conditionals.append(p)
    with np.errstate(divide="ignore"):
        log_prior = np.log(den / (tables.class_counts.sum() + s))
        # logs of the small tables first, then one gather: cheaper than logs of the gathered array
        return log_prior[:, None] + lookup_sum(codes, [np.log(p) for p in conditionals])


CHUNK_ROWS = 65_536
"""Rows per block in the public predict methods: the temporary arrays of one block (codes, gathered
tables) stay a few tens of MB whatever the input's size."""


def _n_rows(X) -> int | None:
    shape = getattr(X, "shape", None)
    if shape is not None and len(shape) == 2:
        return int(shape[0])
    return None


def chunked(X, compute):
    """``compute(part)`` on blocks of at most :data:`CHUNK_ROWS` rows of ``X``, stacked along axis 0.

    The output is allocated once and filled block by block, so the peak extra memory is one
    block's temporaries plus the output.  Inputs without a 2-D ``shape`` (lists) are passed whole.
    """
    n = _n_rows(X)
    if n is None or n <= CHUNK_ROWS:
        return compute(X)
    out = None
    for start in range(0, n, CHUNK_ROWS):
        part = X.iloc[start:start + CHUNK_ROWS] if hasattr(X, "iloc") else X[start:start + CHUNK_ROWS]
        block = compute(part)
        if out is None:
            out = np.empty((n,) + block.shape[1:], dtype=block.dtype)
        out[start:start + block.shape[0]] = block
    return out


_SKLEARN_MESSAGE = re.compile(r"^The '(?P<name>[^']+)' parameter of (?P<who>\S+) must be (?P<what>.*)\. "
                              r"Got (?P<got>.*) instead\.$", re.DOTALL)


def plain_parameter_message(message: str) -> str:
    """scikit-learn's ``The 'x' parameter of C must be ... Got v instead.`` in the package's style,
    ``x must be ...; got v (a parameter of C)`` (other messages unchanged)."""
    match = _SKLEARN_MESSAGE.match(message)
    if match is None:
        return message
    return f"{match['name']} must be {match['what']}; got {match['got']} (a parameter of {match['who']})"


def _check_number_rules(name: str, value, allowed: list, who: str) -> None:
    """The package's rules on top of an ``Interval`` constraint: a bool is not a number (unless
    ``"boolean"`` or ``bool`` is allowed) and a number is finite (unless an Interval bound is
    ``np.inf``).  ``Interval(Real, 0, None)`` thus means every finite number >= 0."""
    intervals = [c for c in allowed if isinstance(c, Interval)]
    if not intervals or isinstance(value, str):
        return
    if isinstance(value, (bool, np.bool_)):
        if not any(c == "boolean" or c is bool for c in allowed if isinstance(c, (str, type))):
            raise InvalidParameterError(f"{name} must be a number, not a bool; got {value!r} "
                                        f"(a parameter of {who})")
        return
    if isinstance(value, Real) and not np.isfinite(value):
        if not any(np.isinf(b) for c in intervals for b in (c.left, c.right) if b is not None):
            raise InvalidParameterError(f"{name} must be a finite number; got {value!r} (a parameter "
                                        f"of {who})")


class CheckedParameters:
    """The package's parameter checks for a scikit-learn estimator (listed before ``BaseEstimator``):
    :meth:`check_parameters` from its ``_parameter_constraints``, then the hook :meth:`_check_params`."""

    _parameter_constraints: dict = {}

    def _check_params(self):
        """Hook: checks of the hyper-parameters that ``_parameter_constraints`` cannot express
        (called after scikit-learn's validation; raise ``ValueError``)."""

    def check_parameters(self):
        """Raise ``ValueError`` if a hyper-parameter is invalid: what ``fit`` checks first.

        scikit-learn's ``_validate_params`` on ``_parameter_constraints`` (messages reworded as
        ``"name must be ...; got ..."``), the package's number rules (no bools, no infinities unless
        an Interval bound is ``np.inf``), the ``categories`` policy, then the hook
        :meth:`_check_params`.  Returns None.
        """
        try:
            self._validate_params()
        except InvalidParameterError as err:
            raise InvalidParameterError(plain_parameter_message(str(err))) from None
        params = self.get_params(deep=False)
        constraints = getattr(self, "_parameter_constraints", {})
        if isinstance(constraints, dict):
            for name, allowed in constraints.items():
                if name in params and isinstance(allowed, list):
                    _check_number_rules(name, params[name], allowed, type(self).__name__)
        if "categories" in params:
            check_categories_policy(params["categories"])
        self._check_params()


def _has_jll(estimator) -> bool:
    return estimator._has_joint_log_likelihood


class CategoricalClassifier(CheckedParameters, ClassifierMixin, BaseEstimator):
    """Base of every categorical classifier: validation, the class rule, encoding, the predict path.

    See the module docstring for the contract (the hooks a family fills).  Subclasses declare
    ``_parameter_constraints`` (scikit-learn's constraint language); checks it cannot express go to
    :meth:`_check_params`.
    """

    _needs_training_codes = False         # True: _fit_tables also receives the encoded training rows
    _needs_training_input = False         # True: ... and ``X`` as given to fit (keyword ``X``)
    _has_joint_log_likelihood = True      # False: no predict_proba / joint_log_likelihood_codes

    # --- parameters (check_parameters and the hook _check_params: CheckedParameters) ------------
    def _categories_policy(self):
        return getattr(self, "categories", "seen")

    # --- fitting ------------------------------------------------------------------------------
    def fit(self, X, y, classes=None):
        """Learn the model from categorical ``X`` and labels ``y``.

        Missing values in ``X`` (NaN / None / pandas NA) are missing at random (counted per feature
        over the rows where it is present).  ``classes`` declares the class labels: a declared class
        with no training row stays a class (JNCC2's convention); without it, a pandas Categorical
        ``y`` declares its categories.  Raises ``ValueError`` on bad hyper-parameters,
        non-categorical ``X``, missing labels, mismatched lengths or a single class.
        """
        self.check_parameters()
        policy = self._categories_policy()
        if self._needs_training_codes:
            tables, codes, y_codes = CountTables.count_and_encode(X, y, classes=classes, categories=policy)
        else:
            tables = CountTables.from_data(X, y, classes=classes, categories=policy)
            codes = y_codes = None
        if len(tables.classes) < 2:
            n = int(tables.class_counts.sum())
            raise ValueError(f"y has only one class ({tables.classes[0]!r}) in {n} sample(s); a "
                             "classifier needs at least two classes")
        shared = {"X": X} if self._needs_training_input else {}
        return self._set_tables(tables, codes, y_codes, **shared)

    def _set_tables(self, tables: CountTables, codes=None, y_codes=None, *, warn: bool = True, **shared):
        """Adopt ``tables`` (warning about features missing everywhere, unless ``warn`` is false),
        set the fitted attributes, then :meth:`_fit_tables` (``shared``: precomputed state a
        family's own sharing method hands to its hook, e.g. ``spodes=``); if that raises, the
        estimator is left unfitted."""
        absent = tables.absent_features()
        if warn and absent.any():
            names = [str(n) for n in tables.feature_names[absent]]
            warnings.warn(f"feature(s) {names} are missing in every training row: they carry no "
                          "information and are left out of every prediction", UserWarning, stacklevel=3)
        self.tables_ = tables
        self.classes_ = natural_dtype(tables.classes)
        self.n_features_in_ = tables.n_features
        self.class_count_ = tables.class_counts
        self.feature_count_ = tables.feature_counts
        if not all(isinstance(c, (int, np.integer)) for c in tables.feature_names):
            self.feature_names_in_ = tables.feature_names.astype(str)
        elif hasattr(self, "feature_names_in_"):
            del self.feature_names_in_
        try:
            self._fit_tables(tables, codes, y_codes, **shared)
        except BaseException:
            for name in [n for n in vars(self) if n.endswith("_") and not n.startswith("_")]:
                delattr(self, name)
            raise
        return self

    def _fit_tables(self, tables: CountTables, codes=None, y_codes=None):
        """Hook: learn the family's state from the count tables (and, with
        ``_needs_training_codes``, the training rows' codes (n, m) and class codes (n,))."""

    # --- encoding -----------------------------------------------------------------------------
    def encode(self, X) -> np.ndarray:
        """The model's integer codes of ``X``: what the ``*_codes`` methods take.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n, m)
            Categorical instances with the training features.

        Returns
        -------
        ndarray of int, shape (n, m)
            ``codes[i, j]`` indexes ``tables_.categories[j]``; :data:`~credal_core.data.counts.UNSEEN`
            marks a value unseen in training, :data:`~credal_core.data.counts.MISSING` a missing one.

        Raises
        ------
        NotFittedError
            Before ``fit``.
        ValueError
            If the model has a single class, or ``X`` does not match the training features.
        """
        return self._encode(X)

    def _encode(self, X) -> np.ndarray:
        check_is_fitted(self, "tables_")
        if len(self.classes_) < 2:
            raise ValueError(f"the model has seen only one class ({self.classes_[0]!r}) so far; "
                             "add data of another class or declare it with partial_fit(classes=...)")
        return self.tables_.encode(X, who=type(self).__name__)

    # --- precise path -------------------------------------------------------------------------
    def _joint_log_likelihood(self, codes: np.ndarray) -> np.ndarray:
        """Hook: log P(c, x) up to a constant, shape (C, n)."""
        raise NotImplementedError

    @available_if(_has_jll)
    def joint_log_likelihood_codes(self, codes: np.ndarray) -> np.ndarray:
        """Joint log-likelihood ``log P(c, x)`` (up to a constant) of instances already encoded.

        The precise path's scores: ``predict`` is their argmax over classes.

        Parameters
        ----------
        codes : ndarray of int, shape (n, m)
            Integer codes in this model's tables (:meth:`encode`, or
            :meth:`CountTables.from_codes`'s coding for a model fitted with ``fit_counts``).

        Returns
        -------
        ndarray of float, shape (C, n)
            Classes in ``classes_`` order along axis 0.
        """
        check_is_fitted(self, "tables_")
        return self._joint_log_likelihood(codes)

    def _log_proba(self, codes: np.ndarray) -> np.ndarray:
        """Hook with a default: log posteriors (n, C), the joint normalised in log space.  A family
        that computes normalised posteriors directly (the AODE pool) returns them here."""
        jll = self._joint_log_likelihood(codes).T
        with np.errstate(invalid="ignore"):
            out = jll - logsumexp(jll, axis=1, keepdims=True)
        # Every class impossible (only with s = 0): the posterior is undefined; use the uniform
        # distribution, the paper's convention for normalising the zero function.
        dead = ~np.isfinite(jll).any(axis=1)
        out[dead] = -np.log(jll.shape[1])
        return out

    @available_if(_has_jll)
    def predict_log_proba(self, X) -> np.ndarray:
        """Log posterior class probabilities (n, C), computed stably in log space."""
        return chunked(X, lambda part: self._log_proba(self._encode(part)))

    @available_if(_has_jll)
    def predict_proba(self, X) -> np.ndarray:
        """Posterior class probabilities (n, C) in ``classes_`` order."""
        return chunked(X, lambda part: np.exp(self._log_proba(self._encode(part))))

    def predict(self, X) -> np.ndarray:
        """Most probable class (ties: the first in ``classes_`` order)."""
        best = chunked(X, lambda part: np.argmax(self._joint_log_likelihood(self._encode(part)), axis=0))
        return self.classes_[best]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.categorical = True
        tags.input_tags.string = True
        tags.input_tags.allow_nan = True      # missing values are missing at random
        return tags


class NaiveCountsClassifier(CategoricalClassifier):
    """Base of the naive classifiers: everything is in the count tables, so they also learn by
    chunks (:meth:`partial_fit`) and adopt precomputed tables (:meth:`fit_counts`)."""

    def partial_fit(self, X, y, classes=None):
        """Add the counts of one more chunk; the result equals one ``fit`` on all chunks.

        ``classes`` may declare labels absent from the data seen so far (they get zero counts).
        """
        self.check_parameters()
        chunk = CountTables.from_data(X, y, classes=classes, categories=self._categories_policy())
        if hasattr(self, "tables_") and chunk.n_features != self.n_features_in_:
            raise ValueError(f"X has {chunk.n_features} features, but {type(self).__name__} is "
                             f"expecting {self.n_features_in_} features as input")
        tables = chunk if not hasattr(self, "tables_") else self.tables_.merge(chunk)
        return self._set_tables(tables)

    def fit_counts(self, tables: CountTables):
        """Adopt precomputed count tables (sufficient statistics) instead of counting data.

        What a resampling engine does when it builds each training fold's tables by adding chunks
        (:meth:`CountTables.merge`) or by counting integer codes (:meth:`CountTables.from_codes`,
        with :meth:`CountTables.restrict_to_seen` for the "values seen in training" policy).
        """
        self.check_parameters()
        if len(tables.classes) < 2:
            raise ValueError("the count tables hold fewer than two classes; a classifier needs two")
        return self._set_tables(tables)


class CredalClassifierMixin:
    """The credal decision path shared by every credal classifier: dominance → maximality → sets."""

    def _dominance(self, codes: np.ndarray) -> np.ndarray:
        """Hook: bool (n, C, C), ``[i, a, b]`` true iff class a dominates class b."""
        raise NotImplementedError

    def _set_dominance(self, codes: np.ndarray) -> np.ndarray:
        """Hook for :meth:`predict_set`: a dominance array with the same maximal set as
        :meth:`_dominance` (by default, that array itself).

        Pairs may be left false where the set does not depend on them: (i) if dominance implies a
        strictly higher value of some score (no cycle: the maximal classes are the non-dominated
        ones), a pair (a, b) once b is known to be dominated by another class — every dominated
        class keeps one dominating class marked (COMP-AODE*); (ii) once one class is proven to
        dominate every other and to be dominated by none, every pair not involving it — the set is
        that class, whatever the other pairs (top cycle included) say (the LNCC).  So
        :func:`maximal_set` gives the same sets with fewer pairs computed."""
        return self._dominance(codes)

    def dominance_codes(self, codes: np.ndarray) -> np.ndarray:
        """Pairwise dominance (n, C, C) of instances already encoded by this model.

        :meth:`dominance` without the encoding (and without blocks of rows): for callers that hold
        integer codes, such as the evaluation engine.

        Parameters
        ----------
        codes : ndarray of int, shape (n, m)
            Integer codes in this model's tables (:meth:`encode`).

        Returns
        -------
        ndarray of bool, shape (n, C, C)
            ``[i, a, b]`` is true iff class ``a`` dominates class ``b``; the diagonal is false.
        """
        check_is_fitted(self)
        return without_self_dominance(self._dominance(codes))

    def _dominance_of(self, X) -> np.ndarray:
        return self.dominance_codes(self._encode(X))

    def dominance(self, X) -> np.ndarray:
        """Pairwise dominance (n, C, C): ``[i, a, b]`` is true iff class ``a`` dominates ``b``.

        Computed in blocks of rows (see :func:`chunked`), so memory stays bounded on large inputs.
        """
        return chunked(X, self._dominance_of)

    def predict_set(self, X) -> np.ndarray:
        """Maximal classes (n, C): those no other class dominates (maximality); never empty.

        For the NCC, and whenever dominance is a strict partial order, this is exactly
        ``~dominance(X).any(axis=1)``.  The LNCC's pairwise likelihoods (000 §4) make each pair's
        test use its own likelihood, so dominance could in principle form a cycle, which would leave
        no maximal class; the set is then the top cycle (the classes not beaten, through chains of
        dominance, by a class they do not beat back), which equals the maximal set otherwise.
        """
        return chunked(X, lambda part: maximal_set(self._set_dominance(self._encode(part))))


def without_self_dominance(dom: np.ndarray) -> np.ndarray:
    """``dom`` with its diagonal cleared in place (no class dominates itself)."""
    idx = np.arange(dom.shape[1])
    dom[:, idx, idx] = False
    return dom


def maximal_set(dominance: np.ndarray) -> np.ndarray:
    """The credal decision from pairwise dominance (n, C, C) → sets (n, C): the one decision path of
    every credal classifier's ``predict_set`` and of the evaluation engine.

    The maximal (non-dominated) classes; if dominance has a cycle (possible only with the LNCC's
    pairwise likelihoods), the top cycle — see :func:`top_cycle`.  Never empty.
    """
    return top_cycle(without_self_dominance(np.array(dominance, dtype=bool)))


def top_cycle(dom: np.ndarray) -> np.ndarray:
    """Classes not reachable by a dominance chain from a class they cannot reach back: (n, C) bool.

    Equal to the maximal (non-dominated) classes when ``dom`` is acyclic, and never empty.
    With numba (see :mod:`credal_core._compiled`) one compiled pass over the rows.
    """
    if numba_enabled() and dom.ndim == 3 and dom.shape[0] > 0:
        out = np.empty(dom.shape[:2], dtype=bool)
        _top_cycle_rows(np.ascontiguousarray(dom, dtype=np.bool_), out)
        return out
    reach = dom.copy()
    for k in range(dom.shape[1]):                      # transitive closure (Floyd-Warshall)
        reach |= reach[:, :, k, None] & reach[:, None, k, :]
    beaten = reach & ~np.swapaxes(reach, 1, 2)         # b reaches a, a does not reach b
    return ~beaten.any(axis=1)


@compiled_kernel
def _top_cycle_rows(dom, out):
    n, C, _ = dom.shape
    reach = np.zeros((C, C), dtype=np.bool_)
    for i in range(n):
        for a in range(C):
            for b in range(C):
                reach[a, b] = dom[i, a, b]
        for k in range(C):                              # transitive closure (Floyd-Warshall)
            for a in range(C):
                if reach[a, k]:
                    for b in range(C):
                        if reach[k, b]:
                            reach[a, b] = True
        for b in range(C):
            free = True
            for a in range(C):
                if reach[a, b] and not reach[b, a]:
                    free = False
                    break
            out[i, b] = free


def warn_once(flag: list, message: str, stacklevel: int = 2) -> None:
    """Warn ``message`` (a ``RuntimeWarning``) once per process: ``flag``, a module's list, records that it
    was given (a test resets it with a new list).  ``stacklevel`` as for the caller's own warning."""
    if flag:
        return
    flag.append(True)
    warnings.warn(message, RuntimeWarning, stacklevel=stacklevel + 1)


def natural_dtype(values: np.ndarray) -> np.ndarray:
    """Labels as a plain numpy array (int, float, bool, str) when they share one type, else object.

    Keeps ``predict``'s output comparable with ``y`` (scikit-learn's metrics reject object arrays
    of numbers).
    """
    converted = np.asarray(values.tolist())
    if converted.dtype.kind in "iufbU" and converted.tolist() == values.tolist():
        return converted
    return values
