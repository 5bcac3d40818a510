"""Slow, literal reference computations for the AODE family (paper 001), for cross-checks only.

Nothing here shares code with credal_core.aode: SPODE probabilities are counted row by row with
dictionaries, BMA-AODE* goes through scipy's linprog on the Charnes-Cooper form (001 appendix A),
COMP-AODE* through multi-start SLSQP on eq. 15 as printed (with the exact constraint of eq. 9).
"""
from __future__ import annotations

import math
from collections import Counter

import numpy as np
from scipy.optimize import linprog, minimize


def spode_posteriors(X_train, y_train, classes, X_test):
    """P(c | a, s_j) for every test row, SPODE and class: list (n_test) of (k, C) arrays."""
    n, k = len(y_train), len(X_train[0])
    values = [sorted({row[j] for row in X_train}) for j in range(k)]
    n_c = Counter(y_train)
    n_cj = Counter((y, j, row[j]) for row, y in zip(X_train, y_train) for j in range(k))
    n_cjl = Counter((y, j, row[j], i, row[i]) for row, y in zip(X_train, y_train)
                    for j in range(k) for i in range(k))
    out = []
    for row in X_test:
        post = np.zeros((k, len(classes)))
        for j in range(k):
            for ci, c in enumerate(classes):
                p = (n_c[c] + 1 / len(classes)) / (n + 1)
                p *= (n_cj[(c, j, row[j])] + 1 / len(values[j])) / (n_c[c] + 1)
                for i in range(k):
                    if i != j:
                        p *= ((n_cjl[(c, j, row[j], i, row[i])] + 1 / len(values[i]))
                              / (n_cj[(c, j, row[j])] + 1))
                post[j, ci] = p
            post[j] /= post[j].sum()
        out.append(post)
    return out


def conditional_log_likelihoods(X, y, classes):
    posts = spode_posteriors(X, y, classes, X)
    return np.array([sum(math.log(p[j, classes.index(c)]) for p, c in zip(posts, y))
                     for j in range(len(X[0]))])


def class_entropy(y):
    n = len(y)
    return -sum(m / n * math.log(m / n) for m in Counter(y).values())


def algorithm1(log_liks):
    """001 Algorithm 1 literally (shift by the minimum); overflows for spreads > ~709."""
    min_val = min(log_liks)
    tmp = [math.exp(v - min_val) for v in log_liks]
    total = sum(tmp)
    return [t / total for t in tmp]


def bma_min_ratio_lp(gamma, delta, epsilon):
    """min sum(gamma x)/sum(delta x) over {x >= eps, sum x = 1} via Charnes-Cooper + linprog.

    Variables (z_1..z_k, t): min gamma.z  s.t.  delta.z = 1, z_j - eps t >= 0, sum z - t = 0, t >= 0.
    """
    k = len(gamma)
    c = np.concatenate([gamma, [0.0]])
    a_eq = np.vstack([np.concatenate([delta, [0.0]]), np.concatenate([np.ones(k), [-1.0]])])
    b_eq = np.array([1.0, 0.0])
    a_ub = np.hstack([-np.eye(k), np.full((k, 1), epsilon)])     # -z_j + eps t <= 0
    res = linprog(c, A_ub=a_ub, b_ub=np.zeros(k), A_eq=a_eq, b_eq=b_eq,
                  bounds=[(0, None)] * (k + 1), method="highs")
    assert res.status == 0, res.message
    return res.fun


def eq15_objective(y, alpha, beta, base):
    """Eq. 15: (sum alpha log y - a) / (sum beta log y - b) with a = -sum alpha base, b likewise."""
    return np.dot(alpha, base + np.log(y)) / np.dot(beta, base + np.log(y))


def comp_min_ratio_slsqp(alpha, beta, base, epsilon, total, equality, *, n_random=20, seed=0):
    """Multi-start SLSQP on eq. 15 over {y >= eps, sum y (=|<=) total}: best value and point."""
    k = len(alpha)
    rng = np.random.default_rng(seed)
    starts = []
    for i in range(k):                                 # the vertices, and the uniform point
        s = np.full(k, epsilon)
        s[i] = total - (k - 1) * epsilon
        starts.append(s)
    starts.append(np.full(k, total / k))
    if not equality:
        starts.append(np.full(k, epsilon))
    for _ in range(n_random):
        share = rng.dirichlet(np.ones(k))
        mass = total if equality else rng.uniform(k * epsilon, total)
        starts.append(epsilon + share * (mass - k * epsilon))
    # exact derivatives (the constraint is linear; the objective's by the quotient rule): finite
    # differences cost most of the time and are less accurate
    cons = {"type": "eq" if equality else "ineq", "fun": (lambda y: total - y.sum()),
            "jac": (lambda y: -np.ones(k))}

    def gradient(y, alpha, beta, base):
        num, den = np.dot(alpha, base + np.log(y)), np.dot(beta, base + np.log(y))
        return (alpha * den - beta * num) / (y * den * den)

    best_val, best_y = np.inf, None
    for s in starts:
        res = minimize(eq15_objective, s, args=(alpha, beta, base), jac=gradient, method="SLSQP",
                       bounds=[(epsilon, 1.0)] * k, constraints=[cons],
                       options={"ftol": 1e-15, "maxiter": 500})
        y = np.clip(res.x, epsilon, None)
        feasible = abs(y.sum() - total) < 1e-9 if equality else y.sum() <= total + 1e-9
        for cand in (y, s):
            val = eq15_objective(cand, alpha, beta, base)
            if (feasible or cand is s) and val < best_val:
                best_val, best_y = val, cand
    return best_val, best_y


def comp_feasible_upper(log_liks, ll0, epsilon):
    """COMP-AODE*'s kept SPODEs (001 §2.5): upper end of eq. 10, prior 1 - k eps, is positive."""
    k = len(log_liks)
    return [1 - (v + math.log(1 - k * epsilon)) / (ll0 + math.log(epsilon)) > 0 for v in log_liks]


def comp_min_difference_eq9(post, log_liks, ll0, epsilon, a, b, *, n_random=12, seed=0, fix_dropped=False):
    """min over eq. 9's credal set of sum_{j kept} (P_j(a) - P_j(b)) pi_j(P(s_j)), by multi-start SLSQP.

    Variables: the whole prior (P(s_0), ..., P(s_k)) (k + 1 of them) with P(s_0) = eps,
    P(s_j) >= eps, sum = 1, exactly as eq. 9 is printed; pi_j is eq. 6 with that prior; kept SPODEs
    are those with a positive upper coefficient (``comp_feasible_upper``).  ``fix_dropped`` adds
    P(s_j) = eps for the dropped SPODEs (001's reduction before eq. 15).  Returns (value, prior).
    """
    k = len(log_liks)
    keep = np.array(comp_feasible_upper(log_liks, ll0, epsilon))
    d = np.where(keep, post[:, a] - post[:, b], 0.0)
    ll = np.asarray(log_liks, dtype=float)
    den = ll0 + math.log(epsilon)

    def objective(p):
        q = np.clip(p[1:], 1e-300, None)
        return float(np.dot(d, 1 - (ll + np.log(q)) / den))

    def gradient(p):
        return np.concatenate([[0.0], -d / (den * np.clip(p[1:], 1e-300, None))])

    rng = np.random.default_rng(seed)
    starts = []
    for i in range(k):                                          # the vertices of eq. 9
        s = np.full(k + 1, epsilon)
        s[i + 1] = 1 - k * epsilon
        starts.append(s)
    for _ in range(n_random):
        s = np.concatenate([[epsilon], epsilon + rng.dirichlet(np.ones(k)) * (1 - (k + 1) * epsilon)])
        starts.append(s)
    # linear constraints with their exact Jacobians (finite differences cost most of the time)
    cons = [{"type": "eq", "fun": lambda p: p.sum() - 1.0, "jac": lambda p: np.ones(k + 1)},
            {"type": "eq", "fun": lambda p: p[0] - epsilon, "jac": lambda p: np.eye(k + 1)[0]}]
    if fix_dropped and not keep.all():
        cons.append({"type": "eq", "fun": lambda p: p[1:][~keep] - epsilon,
                     "jac": lambda p: np.eye(k + 1)[1:][~keep]})
        for s in starts:                                        # move the dropped mass to kept SPODEs
            extra = s[1:][~keep].sum() - epsilon * (~keep).sum()
            s[1:][~keep] = epsilon
            s[1:][keep] += extra / keep.sum()
    best_val, best_p = np.inf, None
    for s in starts:
        res = minimize(objective, s, jac=gradient, method="SLSQP", bounds=[(0.0, 1.0)] + [(epsilon, 1.0)] * k,
                       constraints=cons, options={"ftol": 1e-14, "maxiter": 500})
        for cand in (res.x, s):
            ok = (abs(cand.sum() - 1) < 1e-9 and abs(cand[0] - epsilon) < 1e-9
                  and cand[1:].min() >= epsilon - 1e-12
                  and not (fix_dropped and np.any(np.abs(cand[1:][~keep] - epsilon) > 1e-9)))
            if ok and objective(cand) < best_val:
                best_val, best_p = objective(cand), cand
    return best_val, best_p


# --- missing values, Weka's estimators and Webb's joint average (row by row, dictionaries) --------

def _present(v):
    return v is not None and not (isinstance(v, float) and math.isnan(v))


def spode_joints(X_train, y_train, classes, X_test, *, estimator="paper", m=1.0, values=None,
                 frequency_limit=0):
    """Per test row: (joints (k, C), usable (k,), naive Bayes joint (C,)), missing cells = None / NaN.

    Literal MAR counting: every count runs over the training rows where the values it involves are
    present; a missing test child is left out of the product, a SPODE whose parent is missing (or
    whose parent value occurs fewer than ``frequency_limit`` times) is unusable.  ``values[j]`` are
    the declared values of feature j (default: those seen).  Estimators as Weka 3.6's
    AODE.distributionForInstance / NBconditionalProb ("laplace", "m-estimate") or paper 001 ("paper").
    """
    n, k, C = len(y_train), len(X_train[0]), len(classes)
    if values is None:
        values = [sorted({row[j] for row in X_train if _present(row[j])}) for j in range(k)]
    card = [max(len(v), 1) for v in values]
    rows = list(zip(X_train, y_train))

    def count(cond):
        return sum(1 for row, y in rows if cond(row, y))

    def alpha(q):
        return {"paper": 1 / card[q], "laplace": 1.0, "m-estimate": m / card[q]}[estimator]

    out = []
    for t in X_test:
        joints = np.zeros((k, C))
        usable = np.zeros(k, dtype=bool)
        for j in range(k):
            if not _present(t[j]):
                continue
            freq = count(lambda r, y: _present(r[j]) and r[j] == t[j])
            usable[j] = freq >= frequency_limit
            for ci, c in enumerate(classes):
                n_cp = count(lambda r, y: y == c and _present(r[j]) and r[j] == t[j])
                if estimator == "paper":
                    n_c = count(lambda r, y: y == c)
                    n_jc = count(lambda r, y: y == c and _present(r[j]))
                    p = (n_c + 1 / C) / (n + 1) * (n_cp + 1 / card[j]) / (n_jc + 1)
                else:
                    n_j = count(lambda r, y: _present(r[j]))
                    beta = 1.0 if estimator == "laplace" else m / (C * card[j])
                    p = (n_cp + beta) / (n_j + C * card[j] * beta)
                for ch in range(k):
                    if ch == j or not _present(t[ch]):
                        continue
                    num = count(lambda r, y: y == c and _present(r[j]) and r[j] == t[j]
                                and _present(r[ch]) and r[ch] == t[ch])
                    den = count(lambda r, y: y == c and _present(r[j]) and r[j] == t[j] and _present(r[ch]))
                    p *= (num + alpha(ch)) / (den + card[ch] * alpha(ch))
                joints[j, ci] = p
        nb = np.zeros(C)
        prior_mass = {"paper": 1 / C, "laplace": 1.0, "m-estimate": m / C}[estimator]
        for ci, c in enumerate(classes):
            p = (count(lambda r, y: y == c) + prior_mass) / (n + C * prior_mass)
            for ch in range(k):
                if _present(t[ch]):
                    num = count(lambda r, y: y == c and _present(r[ch]) and r[ch] == t[ch])
                    den = count(lambda r, y: y == c and _present(r[ch]))
                    p *= (num + alpha(ch)) / (den + card[ch] * alpha(ch))
            nb[ci] = p
        out.append((joints, usable, nb))
    return out


def aode_proba(X_train, y_train, classes, X_test, *, combine="posterior", weights=None, **kw):
    """AODE-family pool per test row: Webb's joint average (combine="joint") or the weighted mean
    of SPODE posteriors over the usable SPODEs (weights renormalised); naive Bayes if none."""
    out = []
    for joints, usable, nb in spode_joints(X_train, y_train, classes, X_test, **kw):
        w = np.ones(len(usable)) if weights is None else np.asarray(weights, dtype=float)
        w = np.where(usable, w, 0.0)
        if w.sum() == 0:
            p = nb
        elif combine == "joint":
            p = sum(w[j] * joints[j] for j in range(len(w))) / w.sum()
        else:
            p = sum(w[j] * joints[j] / joints[j].sum() for j in range(len(w)) if w[j] > 0) / w.sum()
        out.append(np.asarray(p) / np.sum(p))
    return np.array(out)
