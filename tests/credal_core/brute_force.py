"""Slow, generic brute-force references for the credal classifiers.

Every quantity here is computed straight from its *definition*, by a generic
optimiser over the raw model parameters (scipy's SLSQP with many starts) or by
exhaustive enumeration of vertices, and never from the closed forms that the
fast package in ``credal_core`` implements.  The functions are deliberately
slow and plain: they take count arrays, not fitted estimators.

Count-array conventions (used by every function below)
------------------------------------------------------
n_c : int array, shape (K,)
    ``n_c[c]`` = n(c), the number of training rows of class ``c``.
n_cf : list of m int arrays, the j-th of shape (K, V_j)
    ``n_cf[j][c, f]`` = n(c, F_j = f).  The V_j columns are the values of
    feature j that the model knows about (see :func:`encode_instance`).
inst : tuple of m ints
    The test instance: ``inst[j]`` is the column of its value in ``n_cf[j]``.
n_values : tuple of m ints, optional
    The cardinality |F_j| that enters the Perks prior 1/(K |F_j|) and the
    Laplace denominators n(c) + |F_j|.  Defaults to V_j; it differs from V_j
    only for the "slot" convention for unseen test values (see
    :func:`encode_instance`).

References
----------
000: Antonucci, Cattaneo, Corani, "Likelihood-based naive credal classifier".
004: Li, De Bock, de Cooman, "Dynamic classifier selection based on imprecise
probabilities: a case study for the naive Bayes classifier".
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pandas as pd
from scipy.optimize._slsqplib import slsqp as _slsqp_core

try:  # scikit-learn's dependency; optional here
    from threadpoolctl import ThreadpoolController

    _THREADS = ThreadpoolController()  # scans the loaded BLAS libraries once
except ImportError:  # pragma: no cover
    _THREADS = None

# Lower bound on every raw parameter handed to SLSQP.  Infima and suprema of
# the definitions are taken over open sets (or are reached only in the limit on
# the boundary, where 0/0 and log 0 appear); optimising over {x >= FLOOR}
# keeps every logarithm finite and every evaluated point strictly inside the
# parameter set, so an evaluated objective value is always *attained* by a
# genuine parameter.  The price is a perturbation of order FLOOR * s / n in
# the optimum, far below every tolerance used in the tests; where a factor
# with zero count is pushed to the floor the ratio collapses to ~FLOOR, which
# is the (correct) limit 0 for all practical purposes.  (The LNCC reference
# scores its candidates in log form and may go far below FLOOR: see
# _LNCCProblem.)
FLOOR = 1e-11

_SLSQP = {"ftol": 1e-13, "maxiter": 600}


# ---------------------------------------------------------------------------
# Generic helpers: products of simplices
# ---------------------------------------------------------------------------


def _block_sum_matrix(blocks, dim):
    """Rows that sum each block of coordinates (one row per block)."""
    rows = np.zeros((len(blocks), dim))
    for r, blk in enumerate(blocks):
        rows[r, blk] = 1.0
    return rows


def _slsqp(fun, x0, constraints, dim, bounds=(FLOOR, 1.0)):
    """Run SLSQP on the box ``bounds``^dim; return the (possibly infeasible) end point."""
    if _THREADS is not None:
        # SLSQP does tiny BLAS calls; a multi-threaded OpenBLAS makes each one
        # ~10x slower than single-threaded on this kind of machine.
        with _THREADS.limit(limits=1, user_api="blas"):
            return _slsqp_run(fun, x0, constraints, dim, bounds)
    return _slsqp_run(fun, x0, constraints, dim, bounds)


def _slsqp_run(fun, x0, constraints, dim, bounds):
    """``minimize(fun, x0, jac=True, method="SLSQP", bounds=[bounds] * dim, ...).x``, without the wrappers.

    The same calls to scipy's SLSQP core (``scipy.optimize._slsqplib.slsqp``) with the same
    arguments, state and workspace as ``scipy.optimize._slsqp_py._minimize_slsqp``, so the same
    steps and the same end point, bit for bit; only scipy's per-call and per-iteration Python
    layers (ScalarFunction, MemoizeJac, bound and constraint triage, copies and equality checks)
    are left out, which were ~80 % of the cost of these small problems.  The objective is
    evaluated only where x changed since the last evaluation, as scipy's caches do.
    ``test_brute_force_self`` checks the end points against ``minimize`` itself.  Needs box
    bounds, a ``(value, gradient array)`` objective that leaves its argument unchanged, and dict
    constraints with a ``jac``.
    """
    lo, hi = bounds
    x = np.clip(np.array(x0, dtype=float).reshape(-1), lo, hi)
    n = x.size
    if n != dim:
        raise ValueError("x0 does not have the dimension of the bounds")
    eqs = [(c["fun"], c["jac"]) for c in constraints if c["type"] == "eq"]
    ineqs = [(c["fun"], c["jac"]) for c in constraints if c["type"] == "ineq"]
    meq = sum(np.atleast_1d(f(x)).size for f, _ in eqs)
    mieq = sum(np.atleast_1d(f(x)).size for f, _ in ineqs)
    m = meq + mieq
    cons = eqs + ineqs
    xl = np.full(n, float(lo))
    xu = np.full(n, float(hi))
    acc = _SLSQP["ftol"]
    state = {
        "acc": acc, "alpha": 0.0, "f0": 0.0, "gs": 0.0, "h1": 0.0, "h2": 0.0, "h3": 0.0, "h4": 0.0,
        "t": 0.0, "t0": 0.0, "tol": 10.0 * acc, "exact": 0, "inconsistent": 0, "reset": 0, "iter": 0,
        "itermax": int(_SLSQP["maxiter"]), "line": 0, "m": m, "meq": meq, "mode": 0, "n": n,
    }
    indices = np.zeros([max(m + 2 * n + 2, 1)], dtype=np.int32)
    size = n * (n + 1) // 2 + 3 * m * n - (m + 5 * n + 7) * meq + 9 * m + 8 * n * n + 35 * n + meq * meq + 28
    if mieq == 0:
        size += 2 * n * (n + 1)
    buffer = np.zeros(max(size, 1), dtype=np.float64)
    mult = np.zeros([max(1, m + 2 * n + 2)], dtype=np.float64)
    C = np.zeros([max(1, m), n], dtype=np.float64, order="F")
    d = np.zeros([max(1, m)], dtype=np.float64)

    rows, row = [], 0  # the rows of d and C that each constraint fills
    for f, j in cons:
        k = np.atleast_1d(f(x)).size
        rows.append((f, j, row, row + k))
        row += k

    def constraint_values():
        for f, _, r0, r1 in rows:
            d[r0:r1] = f(x)

    def constraint_normals():
        for _, j, r0, r1 in rows:
            C[r0:r1, :] = j(x)

    at = x.copy()  # the last point evaluated, its value and gradient (scipy's caches)
    f_at, g_at = fun(at)
    fx, g = f_at, g_at
    constraint_normals()
    constraint_values()
    while True:
        _slsqp_core(state, fx, g, C, d, x, mult, xl, xu, buffer, indices)
        mode = state["mode"]
        if abs(mode) != 1:
            return x
        if not (x == at).all():
            at = x.copy()
            f_at, g_at = fun(at)
        if mode == 1:
            fx = f_at
            constraint_values()
        else:
            g = g_at
            constraint_normals()


# ---------------------------------------------------------------------------
# (1) Zaffalon's NCC with epsilon-contamination (paper 000, eqs. 2-5, §2.2)
# ---------------------------------------------------------------------------


class _NCCSpace:
    """Raw IDM parameter vector u for the NCC, with its linear constraints.

    Layout of ``x``: first u(c) for all K classes, then, class by class and
    feature by feature, u(c, F_j = f) for every value f of feature j.
    Constraints: sum_c u(c) = 1 and sum_f u(c, F_j = f) = u(c) for every c, j;
    all entries in [0, 1] (we use [FLOOR, 1], see FLOOR).
    """

    def __init__(self, K, V):
        self.K, self.V = K, list(V)
        self.sum_v = sum(self.V)
        self.dim = K + K * self.sum_v
        rows = []
        top = np.zeros(self.dim)
        top[:K] = 1.0
        rows.append(top)
        for c in range(K):
            for j in range(len(self.V)):
                r = np.zeros(self.dim)
                r[self.block(c, j)] = 1.0
                r[c] = -1.0
                rows.append(r)
        self.a_eq = np.array(rows)
        self.b_eq = np.zeros(len(rows))
        self.b_eq[0] = 1.0

    def index(self, c, j, f):
        """Position of u(c, F_j = f) in x."""
        return self.K + c * self.sum_v + sum(self.V[:j]) + f

    def block(self, c, j):
        """Slice of the values of u(c, F_j = .) in x."""
        start = self.index(c, j, 0)
        return slice(start, start + self.V[j])

    def constraints(self):
        """Linear equality constraints in scipy's dict form."""
        a, b = self.a_eq, self.b_eq
        return [{"type": "eq", "fun": lambda x: a @ x - b, "jac": lambda x: a}]

    def project(self, x):
        """Map any vector to a strictly positive feasible u (renormalise blocks)."""
        x = np.clip(np.asarray(x, float), FLOOR, 1.0)
        out = np.empty_like(x)
        out[: self.K] = x[: self.K] / x[: self.K].sum()
        for c in range(self.K):
            for j in range(len(self.V)):
                blk = self.block(c, j)
                out[blk] = x[blk] / x[blk].sum() * out[c]
        return out

    def random(self, rng, concentration):
        """A random feasible u: Dirichlet class masses split by Dirichlet tables."""
        x = np.empty(self.dim)
        x[: self.K] = rng.dirichlet(np.full(self.K, concentration))
        for c in range(self.K):
            for j, v in enumerate(self.V):
                x[self.block(c, j)] = x[c] * rng.dirichlet(np.full(v, concentration))
        return self.project(x)

    def vertices(self):
        """All vertices of the u-polytope: one class gets mass 1, one value per feature."""
        for c in range(self.K):
            for values in itertools.product(*[range(v) for v in self.V]):
                x = np.zeros(self.dim)
                x[c] = 1.0
                for j, f in enumerate(values):
                    x[self.index(c, j, f)] = 1.0
                yield x


def ncc_log_joint(u, space, n_c, n_cf, inst, s, epsilon, n_values, c, n_jc=None):
    """log P_t(c, f~) and its gradient with respect to the raw vector u.

    Straight from eqs. (1)-(3) of paper 000 with t = (1-eps) u + eps t_Perks::

        theta_c     = (n(c) + s t(c)) / (N + s)
        theta_{f|c} = (n(c, f) + s t(c, f)) / (n_j(c) + s t(c))
        P_t(c, f~)  = theta_c * prod_j theta_{f~_j | c}

    With missing values (MAR), ``n_jc[j][c]`` = n_j(c) counts the class-c rows where feature j is
    present (default: n(c), complete data) and ``inst[j] is None`` leaves feature j out.
    """
    K = space.K
    N = float(np.sum(n_c))
    t_c = (1.0 - epsilon) * u[c] + epsilon / K
    grad = np.zeros_like(u)
    d_t = s * (1.0 - epsilon)  # d(s t)/du for every entry of u
    den_class = n_c[c] + s * t_c
    val = np.log(den_class) - np.log(N + s)
    grad[c] += d_t / den_class
    for j, f in enumerate(inst):
        if f is None:
            continue
        den_c = (n_c[c] if n_jc is None else n_jc[j][c]) + s * t_c
        k = space.index(c, j, f)
        t_cf = (1.0 - epsilon) * u[k] + epsilon / (K * n_values[j])
        num = n_cf[j][c, f] + s * t_cf
        val += np.log(num) - np.log(den_c)
        grad[k] += d_t / num
        grad[c] -= d_t / den_c
    return val, grad


def ncc_min_ratio(
    n_c, n_cf, inst, a, b, *, s, epsilon, n_values=None, n_random=6, seed=0, stop_below=None, n_jc=None
):
    """Brute-force inf over T_eps of P_t(a, f~) / P_t(b, f~) (paper 000, eq. 5).

    Parameters
    ----------
    n_c, n_cf, inst, n_values
        Counts and instance, see the module docstring.
    a, b : int
        Class indices; the result is < 1, = 1 or > 1, and a dominates b iff > 1.
    s : float
        IDM equivalent sample size, > 0.
    epsilon : float
        Contamination with the Perks prior, in [0, 1].
    n_random : int
        Number of random multistarts on top of the Perks point and the three
        best vertices of the u-polytope.
    seed : int
        Seed of the random starts (results are reproducible).
    stop_below : float, optional
        Return as soon as an attained ratio below this value is found.  Enough
        to certify "a does not dominate b" (an attained ratio < 1 is a witness)
        and much faster; the returned value is then only an upper bound on the
        infimum, still below ``stop_below``.

    Returns
    -------
    float
        The smallest ratio found.  Every candidate is evaluated at a strictly
        feasible u, so the value is always >= the true infimum (it is an
        *attained* ratio); the optimiser is responsible for it not being larger.
        The closure of the set is handled by letting u approach 0 (FLOOR).
    n_jc : list of arrays (K,), optional
        Missing values: ``n_jc[j][c]`` = n_j(c) (see :func:`ncc_log_joint`); ``inst[j]`` may be None.
    """
    n_c = np.asarray(n_c, float)
    V = [arr.shape[1] for arr in n_cf]
    n_values = tuple(V) if n_values is None else tuple(n_values)
    space = _NCCSpace(len(n_c), V)

    def fun(u):
        la, ga = ncc_log_joint(u, space, n_c, n_cf, inst, s, epsilon, n_values, a, n_jc)
        lb, gb = ncc_log_joint(u, space, n_c, n_cf, inst, s, epsilon, n_values, b, n_jc)
        return la - lb, ga - gb

    def value(u):
        return fun(u)[0]

    rng = np.random.default_rng(seed)
    perks = space.project(np.ones(space.dim))  # u = Perks itself
    # The vertices are the boundary points where ratios like t(c, f)/t(c)
    # degenerate; evaluate them (pushed inside by a hair) and start from the
    # best few, so boundary infima are not missed.
    inside = [space.project((1 - 1e-9) * v + 1e-9 * perks) for v in space.vertices()]
    inside.sort(key=value)
    starts = [perks] + inside[:3]
    starts += [space.random(rng, conc) for conc in np.resize([1.0, 0.3], n_random)]
    best = min(value(x) for x in inside + [perks])
    stop = -np.inf if stop_below is None else np.log(stop_below)
    cons = space.constraints()
    for x0 in starts:
        if best < stop:
            break
        x = space.project(_slsqp(fun, x0, cons, space.dim))
        best = min(best, value(x))
    return float(np.exp(best))


def ncc_min_ratio_matrix(n_c, n_cf, inst, *, s, epsilon, n_values=None, **kw):
    """All pairwise brute-force infima; ``out[a, b]`` = inf P(a, f~)/P(b, f~), NaN on the diagonal."""
    K = len(n_c)
    out = np.full((K, K), np.nan)
    for a in range(K):
        for b in range(K):
            if a != b:
                out[a, b] = ncc_min_ratio(
                    n_c, n_cf, inst, a, b, s=s, epsilon=epsilon, n_values=n_values, **kw
                )
    return out


# ---------------------------------------------------------------------------
# (2) LNCC: likelihood-based NCC (paper 000, §4, eq. 8, Theorems 1-2)
# ---------------------------------------------------------------------------


class _LNCCProblem:
    """NBC parameters theta for a set of classes, as a product of simplices.

    Layout: the class block (theta_c for the classes in ``used``), then for each
    used class and each feature j the block theta_{.|c} over the V_j values.
    Every block sums to 1.

    SLSQP runs on theta in [FLOOR, 1] with the linear block-sum constraints
    (zero-count entries simply sit on their bound).  Candidates are then held
    and scored as phi = log(theta), which allows entries far below FLOOR: that
    matters for the constrained problem where, at the unconstrained maximum,
    P(a, f~) and P(b, f~) both vanish (0/0): the closure point has
    P(a) = P(b) = 0, which is feasible, and it is approached by pushing a
    zero-count factor of P(a) towards 0 faster than those of P(b) — at no cost
    in likelihood, but far below any floor SLSQP can handle (the constraint
    gradient is 1/theta).  See :meth:`repairs`.

    Why other classes may be dropped (``used = [a, b]``): write
    theta_c = w * q_c for c in {a, b} (w = theta_a + theta_b, q on the 2-simplex)
    and theta_c = (1 - w) * rho_c otherwise.  The data likelihood l_d then
    factorises as
        [w^(n(a)+n(b)) (1-w)^(N-n(a)-n(b))] * [prod_{c not a,b} rho_c^n(c) * tables of c]
        * [q_a^n(a) q_b^n(b) * tables of a and b],
    and the instance factor P(a, f~) + P(b, f~) = w * (q_a pi_a + q_b pi_b), where
    pi_c = prod_j theta_{f~_j|c}.  The dominance constraint
    P(a, f~) <= P(b, f~) reads q_a pi_a <= q_b pi_b: it involves only the last
    bracket.  Hence the first two brackets (and the extra factor w) are
    maximised independently of the constraint, take the same maximal value in
    the constrained and unconstrained suprema, and cancel in their ratio.  What
    remains is exactly the NBC likelihood restricted to classes a and b with
    (q_a, q_b) as class block.  ``test_brute_force_self`` checks this against
    the full parametrisation with all classes.
    """

    def __init__(self, n_c, n_cf, inst, a, b, include_instance, used):
        self.used = list(used)
        self.ia, self.ib = self.used.index(a), self.used.index(b)
        self.include = include_instance
        k = len(self.used)
        V = [arr.shape[1] for arr in n_cf]
        self.blocks = [np.arange(k)]
        self.counts = [np.asarray(n_c, float)[self.used]]
        table = {}
        pos = k
        for ci, c in enumerate(self.used):
            for j, v in enumerate(V):
                idx = np.arange(pos, pos + v)
                self.blocks.append(idx)
                self.counts.append(np.asarray(n_cf[j], float)[c])
                table[ci, j] = idx
                pos += v
        self.dim = pos
        # Full count vector; 0 * log(0) = 0 (0^0 = 1): a zero count contributes
        # nothing whatever its theta, which the dot products below respect
        # as long as phi stays finite.
        self.count = np.zeros(self.dim)
        self.block_of = np.zeros(self.dim, int)
        for r, (blk, cnt) in enumerate(zip(self.blocks, self.counts)):
            self.count[blk] = cnt
            self.block_of[blk] = r
        # pick[c] @ phi = log P(c, f~) = log theta_c + sum_j log theta_{f~_j|c}.
        self.pick, self.inst_entries = {}, {}
        for ci in (self.ia, self.ib):
            entries = [ci] + [int(table[ci, j][f]) for j, f in enumerate(inst)]
            vec = np.zeros(self.dim)
            np.add.at(vec, entries, 1.0)
            self.pick[ci] = vec
            self.inst_entries[ci] = entries
        self.ratio_vec = self.pick[self.ia] - self.pick[self.ib]
        sums = _block_sum_matrix(self.blocks, self.dim)
        self.eq = {"type": "eq", "fun": lambda th: sums @ th - 1.0, "jac": lambda th: sums}

    # -- the definitions, on phi = log(theta) ---------------------------------

    def loglik(self, phi):
        """log lik(theta) (unnormalised) and its gradient with respect to phi.

        log l_d = sum over rows of log P_theta(c_i, f_i)
                = sum_c n(c) log theta_c + sum_{c,j,f} n(c,f) log theta_{f|c};
        with the instance, add log(P(a, f~) + P(b, f~)) (the paper's pairwise
        restriction of eq. 9).
        """
        val = float(self.count @ phi)
        grad = self.count.copy()
        if self.include:
            la, lb = self.pick[self.ia] @ phi, self.pick[self.ib] @ phi
            lse = np.logaddexp(la, lb)
            val += lse
            grad += np.exp(la - lse) * self.pick[self.ia] + np.exp(lb - lse) * self.pick[self.ib]
        return val, grad

    def log_ratio(self, phi):
        """log P(a, f~) - log P(b, f~)."""
        return float(self.ratio_vec @ phi)

    # -- points ---------------------------------------------------------------

    def to_phi(self, theta):
        """Clip to [FLOOR, 1], renormalise every block, return log(theta)."""
        theta = np.clip(np.asarray(theta, float), FLOOR, 1.0)
        for blk in self.blocks:
            theta[blk] = theta[blk] / theta[blk].sum()
        return np.log(theta)

    def random(self, rng, concentration):
        """A random theta, every block Dirichlet-distributed."""
        theta = np.empty(self.dim)
        for blk in self.blocks:
            theta[blk] = rng.dirichlet(np.full(len(blk), concentration))
        return np.clip(theta, FLOOR, 1.0)

    def smoothed_frequencies(self):
        """A start point: (count + 1/2) frequencies in every block (a start only)."""
        theta = np.empty(self.dim)
        for blk, cnt in zip(self.blocks, self.counts):
            theta[blk] = (cnt + 0.5) / (cnt + 0.5).sum()
        return theta

    def repairs(self, phi, excess):
        """Feasible variants of ``phi`` whose log ratio is lower by exactly ``excess``.

        Each moves one entry e of log P(a, f~) down by ``excess`` (or one entry
        of log P(b, f~) up by it), rescaling the other entries of e's block so
        that it still sums to 1; only e among them enters the ratio, so the log
        ratio changes by exactly ``excess``.  For the class block, where a and b
        share the block, theta_a is scaled by exp(-excess) and the whole block
        renormalised (the common factor cancels in the ratio).  The caller
        scores all variants and keeps the best: a coordinate-wise projection
        onto the constraint surface, needed because SLSQP end points violate
        the constraint by a hair, and because of the 0/0 case (class doc).
        """
        out = []
        cls = self.blocks[0]
        v = phi.copy()
        v[self.ia] -= excess
        v[cls] -= np.logaddexp.reduce(v[cls])
        out.append(v)
        for ci, sign in ((self.ia, -1.0), (self.ib, 1.0)):
            for e in self.inst_entries[ci][1:]:
                new = phi[e] + sign * excess
                if new >= 0.0 or phi[e] >= 0.0:
                    # theta_e' > 1, or theta_e = 1 (nothing to rescale: a
                    # one-value feature); neither is a probability vector.
                    continue
                blk = self.blocks[self.block_of[e]]
                # log((1 - theta_e') / (1 - theta_e)), computed stably
                scale = np.log(-np.expm1(new)) - np.log(-np.expm1(phi[e]))
                v = phi.copy()
                v[blk] += scale
                v[e] = new
                out.append(v)
        return out

    # -- optimisation -----------------------------------------------------------

    def maximise(self, starts, mode=None, bound=0.0):
        """Best log-likelihood over SLSQP runs from ``starts`` (theta vectors).

        Parameters
        ----------
        starts : list of arrays
            Start points theta (clipped and renormalised first).
        mode : {None, "le", "eq"}
            No constraint, log P(a) - log P(b) <= bound, or = bound.
        bound : float
            The bound on the log ratio.

        Returns
        -------
        (float, array)
            The best value and its phi = log(theta); every candidate (end
            points and start points) is made exactly feasible before it is
            scored (see :meth:`repairs`).
        """

        def neg(theta):
            v, g = self.loglik(np.log(theta))
            return -v, -g / theta

        cons = [self.eq]
        if mode is not None:
            cons.append(
                {
                    "type": "ineq" if mode == "le" else "eq",
                    "fun": lambda th: bound - self.log_ratio(np.log(th)),
                    "jac": lambda th: -self.ratio_vec / th,
                }
            )
        best, arg = -np.inf, None
        for x0 in starts:
            x0 = np.exp(self.to_phi(x0))
            for theta in (_slsqp(neg, x0, cons, self.dim), x0):
                phi = self.to_phi(theta)
                cands = [phi]
                if mode is not None:
                    excess = self.log_ratio(phi) - bound
                    cands = self.repairs(phi, excess) if (mode == "eq" or excess > 0) else [phi]
                for cand in cands:
                    v = self.loglik(cand)[0]
                    if v > best:
                        best, arg = v, cand
        return best, arg


def _lncc_problem(n_c, n_cf, inst, a, b, include_instance, reduce):
    # Sorted, so that (a, b) and (b, a) share one layout (and one supremum).
    used = sorted([a, b]) if reduce else list(range(len(n_c)))
    return _LNCCProblem(n_c, n_cf, inst, a, b, include_instance, used)


def _starts(prob, rng, n_random):
    out = [np.ones(prob.dim), prob.smoothed_frequencies()]
    out += [prob.random(rng, conc) for conc in np.resize([1.0, 0.3], n_random)]
    return out


def lncc_log_sup(n_c, n_cf, inst, a, b, *, include_instance, reduce=True, n_random=4, seed=0):
    """log sup_theta lik(theta) for the pair (a, b) by multistart SLSQP.

    Returns ``(value, argmax)``; symmetric in a and b.
    """
    prob = _lncc_problem(n_c, n_cf, inst, a, b, include_instance, reduce)
    rng = np.random.default_rng(seed)
    return prob.maximise(_starts(prob, rng, n_random))


def lncc_critical_alpha(
    n_c, n_cf, inst, a, b, *, include_instance, reduce=True, n_random=4, seed=0, tol=1e-9, sup=None
):
    """Brute-force critical alpha for "a dominates b" (paper 000, eq. 8).

    critical_alpha = sup{ lik(theta) : P_theta(a, f~) <= P_theta(b, f~) } / sup lik,
    so that a dominates b at level alpha iff alpha > critical_alpha.

    Parameters
    ----------
    n_c, n_cf, inst
        Counts and instance, see the module docstring.
    a, b : int
        Class indices.
    include_instance : bool
        Multiply the data likelihood by P(a, f~) + P(b, f~).
    reduce : bool
        Optimise over the parameters of classes a and b only (see
        ``_LNCCProblem`` for why this is exact); False keeps all classes.
    n_random : int
        Random multistarts per optimisation, on top of two fixed starts.
    seed : int
        Seed for the random starts.
    tol : float
        If the global maximiser has log P(a) - log P(b) <= tol, the result is
        1 (the constrained supremum is the global one, up to ~tol).
    sup : tuple, optional
        ``(log sup lik, argmax)`` from :func:`lncc_log_sup` for the same pair
        (in either order: the pairwise likelihood is symmetric in a and b), to
        save recomputing it.

    Returns
    -------
    float
        Estimate of critical_alpha in [0, 1].
    """
    prob = _lncc_problem(n_c, n_cf, inst, a, b, include_instance, reduce)
    rng = np.random.default_rng(seed)
    starts = _starts(prob, rng, n_random)
    if sup is None:
        sup_all, arg = prob.maximise(starts)
    else:
        sup_all, arg = sup
        if arg.shape != (prob.dim,):
            raise ValueError("sup comes from another parametrisation")

    if prob.log_ratio(arg) <= tol:
        # A global maximiser already satisfies P(a) <= P(b): the constrained
        # supremum equals the unconstrained one (no optimisation needed).
        return 1.0
    sup_con, _ = prob.maximise(starts + [np.exp(arg)], mode="le", bound=0.0)
    # The constrained set is a subset: if the constrained run beat the global
    # one, the latter was under-optimised; the larger value is the better sup.
    sup_all = max(sup_all, sup_con)
    return float(np.exp(sup_con - sup_all))


def lncc_critical_alpha_matrix(n_c, n_cf, inst, *, include_instance, **kw):
    """All pairwise brute-force critical alphas; NaN on the diagonal."""
    K = len(n_c)
    out = np.full((K, K), np.nan)
    for a, b in itertools.combinations(range(K), 2):
        # One unconstrained supremum per unordered pair.
        sup = lncc_log_sup(n_c, n_cf, inst, a, b, include_instance=include_instance, **kw)
        out[a, b] = lncc_critical_alpha(
            n_c, n_cf, inst, a, b, include_instance=include_instance, sup=sup, **kw
        )
        out[b, a] = lncc_critical_alpha(
            n_c, n_cf, inst, b, a, include_instance=include_instance, sup=sup, **kw
        )
    return out


def lncc_profile(n_c, n_cf, inst, a, b, log_ratios, *, include_instance, n_random=4, seed=0):
    """Normalised profile likelihood of the ratio P(a, f~)/P(b, f~).

    For each r in ``exp(log_ratios)``: sup{ lik(theta) : P(a)/P(b) = r } / sup lik,
    by SLSQP with the equality constraint log P(a) - log P(b) = log r.
    """
    prob = _lncc_problem(n_c, n_cf, inst, a, b, include_instance, True)
    rng = np.random.default_rng(seed)
    starts = _starts(prob, rng, n_random)
    sup_all, _ = prob.maximise(starts)
    out = []
    for lr in log_ratios:
        val, _ = prob.maximise(starts, mode="eq", bound=float(lr))
        out.append(np.exp(val - sup_all))
    return np.array(out)


# ---------------------------------------------------------------------------
# (3) Critical perturbation threshold of the Laplace-IDM NCC (paper 004, §2-3)
# ---------------------------------------------------------------------------


def laplace_scores_exact(n_c, n_cf, inst, n_values=None, n_jc=None):
    """Exact (Fraction) Laplace NBC joints P(c) prod_j P(f~_j | c) for every class.

    P(c) = (n(c)+1)/(N+K) and P(f|c) = (n(c,f)+1)/(n_j(c)+|F_j|) (paper 004, §2; JNCC2's NBC
    with missing values: ``n_jc`` as in :func:`ncc_log_joint`, ``inst[j] is None`` skips j).
    Exact rationals make ties exact.
    """
    K = len(n_c)
    N = int(np.sum(n_c))
    V = [arr.shape[1] for arr in n_cf]
    n_values = tuple(V) if n_values is None else tuple(n_values)
    out = []
    for c in range(K):
        p = Fraction(int(n_c[c]) + 1, N + K)
        for j, f in enumerate(inst):
            if f is None:
                continue
            den = int(n_c[c] if n_jc is None else n_jc[j][c])
            p *= Fraction(int(n_cf[j][c, f]) + 1, den + n_values[j])
        out.append(p)
    return out


def laplace_idm_min_log_ratio(n_c, n_cf, inst, top, b, s, n_values=None, n_jc=None):
    """min over ALL vertex combinations of log[P(top) prod P(f~|top) / (P(b) prod P(f~|b))].

    The Laplace-IDM NCC (paper 004, §3):
        P(c)   = (n(c) + 1 + s t(c)) / (N + K + s),          t a pmf on the classes,
        P(f|c) = (n(c,f) + 1 + s t_{j,c}(f)) / (n(c) + |F_j| + s), t_{j,c} a pmf on F_j,
    separately specified.  The ratio is a product of positive factors, each a
    linear-fractional function of one local pmf (t for the class factor,
    t_{j,top} and t_{j,b} for feature j), and the local pmfs vary
    independently; a linear-fractional function on a simplex attains its
    minimum at a vertex, so the infimum is the minimum over the finite product
    of vertex sets, which we enumerate completely (K * prod_j V_j^2 points).  Missing values:
    ``n_jc[j][c]`` = n_j(c) replaces n(c) in feature j's denominators and ``inst[j] is None`` skips j.
    """
    K = len(n_c)
    N = float(np.sum(n_c))
    V = [arr.shape[1] for arr in n_cf]
    n_values = tuple(V) if n_values is None else tuple(n_values)
    grid = np.zeros(1)
    # Class factor: vertex k of t puts all prior mass s on class k.
    cls = []
    for k in range(K):
        p_top = (n_c[top] + 1 + s * (k == top)) / (N + K + s)
        p_b = (n_c[b] + 1 + s * (k == b)) / (N + K + s)
        cls.append(np.log(p_top) - np.log(p_b))
    grid = np.add.outer(grid, np.array(cls)).ravel()
    for j, f in enumerate(inst):
        if f is None:
            continue
        d_top, d_b = (n_c[top], n_c[b]) if n_jc is None else (n_jc[j][top], n_jc[j][b])
        # Vertex g of t_{j,top} and vertex h of t_{j,b}, all combinations.
        p_top = np.array(
            [(n_cf[j][top, f] + 1 + s * (g == f)) / (d_top + n_values[j] + s) for g in range(V[j])]
        )
        p_b = np.array(
            [(n_cf[j][b, f] + 1 + s * (h == f)) / (d_b + n_values[j] + s) for h in range(V[j])]
        )
        pair = np.subtract.outer(np.log(p_top), np.log(p_b)).ravel()
        grid = np.add.outer(grid, pair).ravel()
    return float(grid.min())


def perturbation_threshold(n_c, n_cf, inst, n_values=None, tol=1e-10, n_jc=None):
    """Brute-force critical perturbation threshold (paper 004, §3).

    sup{ s >= 0 : the Laplace NBC class c^ dominates every other class under the
    Laplace-IDM NCC with parameter s }, found by bisection on s with the
    dominance test done by full vertex enumeration
    (:func:`laplace_idm_min_log_ratio`).  The sets grow with s (they are
    L + lambda (simplex - L) with L the Laplace estimate and
    lambda = s/(n + |.| + s) increasing), so dominance is monotone in s and
    bisection is valid.  Returns 0.0 when the Laplace NBC has a tie (checked
    exactly with rationals): then no s >= 0 gives a single class.
    """
    scores = laplace_scores_exact(n_c, n_cf, inst, n_values, n_jc=n_jc)
    best = max(scores)
    if scores.count(best) > 1:
        return 0.0
    top = scores.index(best)
    others = [b for b in range(len(n_c)) if b != top]

    def dominates(s):
        return all(laplace_idm_min_log_ratio(n_c, n_cf, inst, top, b, s, n_values, n_jc) > 0 for b in others)

    lo, hi = 0.0, 1.0
    while dominates(hi):
        lo, hi = hi, 2.0 * hi
        if hi > 1e12:  # cannot happen (the ratio tends to 0 as s grows); guard anyway
            raise RuntimeError("no upper bracket for the threshold")
    while hi - lo > tol * max(1.0, hi):
        mid = 0.5 * (lo + hi)
        if dominates(mid):
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


# ---------------------------------------------------------------------------
# Data: random small cases and their encoding as counts
# ---------------------------------------------------------------------------

# How a test value never seen in training enters the model.  "slot" (default):
# it becomes one more column of zero counts (so the imprecise parts u, t_{j,c}
# may put mass on it), while |F_j| in the Perks prior 1/(K|F_j|) and in the
# Laplace denominators n(c)+|F_j| stays the number of values seen in training,
# exactly as the api_sketch formulas read with "unseen values are zero counts".
# "extend": the unseen value is a genuine extra value, |F_j| grows by one.
# The two differ only for NCC with epsilon > 0 and for the Laplace quantities.
UNSEEN_CONVENTION = "slot"


def encode_instance(X_train, y_train, classes, row, unseen=None):
    """Counts of a training set and the column indices of one test row.

    Parameters
    ----------
    X_train : pandas.DataFrame
        Categorical training features.
    y_train : array-like
        Training labels.
    classes : sequence
        Class labels in the order the results should use (e.g. ``classes_``).
    row : sequence
        One test instance, one value per column of ``X_train``.
    unseen : {"slot", "extend"}, optional
        Convention for test values not seen in training (default
        ``UNSEEN_CONVENTION``).

    Returns
    -------
    n_c, n_cf, inst, n_values
        See the module docstring.
    """
    unseen = UNSEEN_CONVENTION if unseen is None else unseen
    y = np.asarray(y_train)
    n_c = np.array([int(np.sum(y == c)) for c in classes])
    n_cf, inst, n_values = [], [], []
    for j, col in enumerate(X_train.columns):
        col_vals = X_train[col].to_numpy()
        seen = sorted(set(col_vals.tolist()))
        value = row[j]
        cols = seen + ([value] if value not in seen else [])
        table = np.array([[int(np.sum((y == c) & (col_vals == v))) for v in cols] for c in classes])
        n_cf.append(table)
        inst.append(cols.index(value))
        n_values.append(len(seen) if unseen == "slot" else len(cols))
    return n_c, n_cf, tuple(inst), tuple(n_values)


def random_case(
    seed,
    *,
    n_classes=None,
    absent_class=False,
    unseen=False,
    n_test=2,
    max_rows=15,
    max_features=3,
):
    """A small reproducible random data set with string values.

    Parameters
    ----------
    seed : int
        numpy seed; the same seed always gives the same case.
    n_classes : int, optional
        K (2 or 3); random if None.
    absent_class : bool
        Declare K = 3 classes of which one never occurs in the data (to be fitted
        with ``partial_fit(..., classes=classes)``).
    unseen : bool
        Every test row gets at least one value never seen in training
        (otherwise test values are drawn among the values seen in training).
    n_test : int
        Number of test rows.

    Returns
    -------
    X, y, classes, X_test
        DataFrame of 'v0', 'v1', ... strings, array of 'c0', 'c1', ... labels,
        the declared class labels (sorted) and a DataFrame of test rows.
    """
    rng = np.random.default_rng(seed)
    K = 3 if absent_class else int(n_classes or rng.integers(2, 4))
    m = int(rng.integers(1, max_features + 1))
    sizes = rng.integers(2, 4, size=m)
    present = list(range(K))
    if absent_class:
        present.remove(int(rng.integers(K)))
    rows = int(rng.integers(len(present), max_rows + 1))
    # Class-conditional tables from a sparse Dirichlet: many zero counts and a
    # good mix of dominated and non-dominated pairs.
    prior = rng.dirichlet(np.ones(len(present)))
    labels = np.array(present)[rng.choice(len(present), size=rows, p=prior)]
    labels[: len(present)] = present  # every present class occurs at least once
    rng.shuffle(labels)
    tables = [[rng.dirichlet(np.full(v, 0.5)) for v in sizes] for _ in range(K)]
    data = {
        f"x{j}": [f"v{rng.choice(sizes[j], p=tables[c][j])}" for c in labels] for j in range(m)
    }
    X = pd.DataFrame(data)
    y = np.array([f"c{c}" for c in labels], dtype=object)
    test = {f"x{j}": [] for j in range(m)}
    for _ in range(n_test):
        forced = int(rng.integers(m)) if unseen else -1
        for j in range(m):
            seen = sorted(set(X[f"x{j}"]))
            if j == forced or (unseen and rng.random() < 0.25):
                test[f"x{j}"].append("new")
            else:
                test[f"x{j}"].append(seen[int(rng.integers(len(seen)))])
    classes = [f"c{c}" for c in range(K)]
    return X, y, classes, pd.DataFrame(test)


# ---------------------------------------------------------------------------
# Missing values: MAR counts from raw rows, and NCC2's conservative inference rule by enumeration
# ---------------------------------------------------------------------------


def is_missing(v) -> bool:
    """None, float NaN or pandas NA."""
    return v is None or (isinstance(v, float) and v != v) or v is pd.NA


def encode_instance_missing(X_train, y_train, classes, row):
    """Counts of a training set with missing cells, straight from the rows (MAR, JNCC2's convention).

    A training cell that is missing is not counted in n(c, f) (it still counts in n(c));
    n_j(c) counts the class-c rows whose feature j is present.  Test values unseen in training use
    the "slot" convention of :func:`encode_instance`; a missing test value gives ``inst[j] = None``.

    Returns
    -------
    n_c, n_cf, n_jc, inst, n_values
    """
    y = np.asarray(y_train, dtype=object)
    n_c = np.array([sum(1 for v in y if v == c) for c in classes])
    n_cf, n_jc, inst, n_values = [], [], [], []
    for j, col in enumerate(X_train.columns):
        col_vals = list(X_train[col])
        seen = sorted({v for v in col_vals if not is_missing(v)})
        value = row[j]
        cols = seen + ([value] if not is_missing(value) and value not in seen else [])
        table = np.array([[sum(1 for yy, xx in zip(y, col_vals) if yy == c and not is_missing(xx) and xx == v)
                           for v in cols] for c in classes]).reshape(len(classes), len(cols))
        n_cf.append(table)
        n_jc.append(np.array([sum(1 for yy, xx in zip(y, col_vals) if yy == c and not is_missing(xx))
                              for c in classes]))
        inst.append(None if is_missing(value) else cols.index(value))
        n_values.append(len(seen))
    return n_c, n_cf, n_jc, tuple(inst), tuple(n_values)


def with_missing(X, rng, p_missing, keep_one=True):
    """A copy of ``X`` with each cell missing (None) with probability ``p_missing``."""
    out = X.astype(object).copy()
    mask = rng.random(out.shape) < p_missing
    if keep_one:      # every column keeps at least one present value
        for j in range(out.shape[1]):
            if mask[:, j].all():
                mask[int(rng.integers(out.shape[0])), j] = False
    out = out.mask(mask, None)
    return out


def ncc_line_min_ratio(n_c, n_cf, inst, a, b, *, s, epsilon, n_values=None, n_jc=None, grid=801):
    """min over the IDM's least favourable one-parameter family of P_t(a, f~)/P_t(b, f~).

    Evaluates :func:`ncc_log_joint` (the raw definitions) at the priors u(a) = 1 - x, u(b) = x,
    u(a, f~_j) = 0, u(b, f~_j) = x (the other values of a feature share the rest), on a grid of x
    refined by a bounded scalar search: Zaffalon's reduction, which the SLSQP reference
    :func:`ncc_min_ratio` checks on its own; used where enumerating completions multiplies the
    number of problems.  The value is attained, hence an upper bound on the infimum.
    """
    from scipy.optimize import minimize_scalar

    n_c = np.asarray(n_c, float)
    V = [arr.shape[1] for arr in n_cf]
    n_values = tuple(V) if n_values is None else tuple(n_values)
    space = _NCCSpace(len(n_c), V)

    def prior(x):
        u = np.full(space.dim, FLOOR)
        u[a], u[b] = max(1 - x, FLOOR), max(x, FLOOR)
        for c, mass in ((a, u[a]), (b, u[b])):
            for j in range(len(V)):
                blk = space.block(c, j)
                f = inst[j]
                if c == b and f is not None:
                    u[space.index(c, j, f)] = mass
                else:      # a keeps no mass on the instance's value; the rest is spread out
                    others = [k for k in range(V[j]) if k != f] or [0]
                    for k in others:
                        u[blk.start + k] = mass / len(others)
        return u

    def value(x):
        u = prior(float(x))
        la = ncc_log_joint(u, space, n_c, n_cf, inst, s, epsilon, n_values, a, n_jc)[0]
        lb = ncc_log_joint(u, space, n_c, n_cf, inst, s, epsilon, n_values, b, n_jc)[0]
        return la - lb

    xs = np.linspace(0, 1, grid)
    vals = np.array([value(x) for x in xs])
    k = int(np.argmin(vals))
    res = minimize_scalar(value, bounds=(xs[max(k - 1, 0)], xs[min(k + 1, grid - 1)]), method="bounded",
                          options={"xatol": 1e-12})
    return float(np.exp(min(vals[k], res.fun)))


def ncc2_min_ratio(X_train, y_train, classes, row, a, b, *, s, epsilon, non_mar_training=(),
                   non_mar_testing=(), inner="line"):
    """NCC2's conservative inference rule by explicit enumeration of the completions.

    Every missing training cell of a feature in ``non_mar_training`` and every missing test value
    of a feature in ``non_mar_testing`` may hide any value of the feature (values seen in training);
    each completion gives a data set with only MAR gaps, counted by
    :func:`encode_instance_missing`, whose infimum ratio is found by :func:`ncc_line_min_ratio`
    (``inner="line"``) or the SLSQP search :func:`ncc_min_ratio` (``inner="slsqp"``).  Returns the
    smallest ratio over all completions (a dominates b iff > 1).
    """
    X_train = X_train.astype(object)
    cells = []                                  # (row index or None for the test row, column)
    for j, name in enumerate(X_train.columns):
        if name in non_mar_training:
            cells += [(i, j) for i in range(len(X_train)) if is_missing(X_train.iat[i, j])]
        if name in non_mar_testing and is_missing(row[j]):
            cells.append((None, j))
    domains = [sorted({v for v in X_train.iloc[:, j] if not is_missing(v)}) for _, j in cells]
    best = np.inf
    for values in itertools.product(*domains):
        X, r = X_train.copy(), list(row)
        for (i, j), v in zip(cells, values):
            if i is None:
                r[j] = v
            else:
                X.iat[i, j] = v
        n_c, n_cf, n_jc, inst, n_values = encode_instance_missing(X, y_train, classes, r)
        if inner == "line":
            ratio = ncc_line_min_ratio(n_c, n_cf, inst, a, b, s=s, epsilon=epsilon, n_values=n_values,
                                       n_jc=n_jc)
        else:
            ratio = ncc_min_ratio(n_c, n_cf, inst, a, b, s=s, epsilon=epsilon, n_values=n_values, n_jc=n_jc,
                                  stop_below=1 - 1e-6)
        best = min(best, ratio)
        if best < 1 - 1e-6:                     # a completion already breaks dominance
            break
    return best
