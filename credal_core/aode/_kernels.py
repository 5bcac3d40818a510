r"""Compiled loops of the AODE family (numba through :mod:`credal_core._compiled`), numpy kept.

Each kernel computes, row by row on small cache-resident tables, what the numpy code of
:mod:`~credal_core.aode._spode`, :mod:`~credal_core.aode._ensemble` and
:mod:`~credal_core.aode._dominance` computes on whole blocks, **with the same operations in the same
order**: every SPODE joint is the sum of its k log-table cells in feature order (0.0 + the first
cell, then the others; a missing child adds nothing), every log-sum-exp takes the largest class
term as its shift and adds the exponentials in class order.  So on a platform where numpy's
``exp`` / ``log`` are the C library's (the kernels call those) both paths give the same floats, and
the same verdicts even at exact ties; elsewhere they differ by the ulps of the two ``exp``
implementations.  One exception: the in-sample log-likelihoods (:func:`training_log_likelihoods`,
which set the BMA / COMP weights) multiply probabilities instead, ~1e-14 relative from the numpy path
(so those ensembles' verdicts agree between the paths except at margins below that size).
``tests/credal_core/aode/test_aode_kernels.py`` runs both paths.

The callers choose the path with :func:`credal_core._compiled.numba_enabled`.  Counting (the pair
counts of :mod:`credal_core.data.pairs`) writes into the count table itself, whatever its size; the
kernels here read a class-minor copy of the log table, ``tt[p, q, c] = T[c, p, q]`` (the classes of one cell
adjacent), made only for tables of at most :data:`KERNEL_MAX_TABLE_BYTES` (larger ones: numpy).

Slot arrays ``idx`` are feature-major (k, n): slot of instance i's value of feature j in the
concatenated value space, or -1 where the value is missing.
"""
from __future__ import annotations

import math

import numpy as np

from .._compiled import HELPER_OPTIONS, compiled_kernel

__all__ = ["KERNEL_MAX_TABLE_BYTES", "PRODUCT_FLOOR", "row_joints", "log_joint_ckn",
           "training_log_likelihoods", "log_pooled", "bma_dominance_rows", "comp_dominance_rows"]

# The kernels read a class-minor copy of the log table: only made for tables up to this size.
KERNEL_MAX_TABLE_BYTES = 64 * 2 ** 20


@compiled_kernel(**HELPER_OPTIONS)
def row_joints(tt, idx, i, slots, parent, acc):
    """Row ``i``'s SPODE log joints: ``acc[j, c]`` (k, C) = log P(c, a_i | s_j), the one per-row loop
    of every kernel below.

    ``slots`` (k,) receives the row's slots and ``parent`` (k,) each SPODE's parent slot (0 where
    missing: that SPODE's values then mean nothing).  Each joint is 0.0 plus its log cells
    ``tt[parent_j, q_m]`` added over the children m in feature order (a missing child adds nothing),
    every SPODE at once: the numpy path's operations in its order (see the module doc)."""
    k = idx.shape[0]
    n_classes = tt.shape[2]
    for j in range(k):
        slots[j] = idx[j, i]
    for j in range(k):
        parent[j] = slots[j] if slots[j] >= 0 else 0
        for c in range(n_classes):
            acc[j, c] = 0.0
    for m in range(k):                  # children in feature order, every SPODE at once
        q = slots[m]
        if q >= 0:
            for j in range(k):
                p = parent[j]
                for c in range(n_classes):
                    acc[j, c] += tt[p, q, c]


@compiled_kernel
def log_joint_ckn(tt, idx, out):
    """``SpodeTables.log_joint_ckn``: out (C, k, n) = log P(c, a_i | s_j)."""
    k, n = idx.shape
    n_classes = tt.shape[2]
    slots = np.empty(k, dtype=np.int64)
    acc = np.empty((k, n_classes))
    parent = np.empty(k, dtype=np.int64)
    for i in range(n):
        row_joints(tt, idx, i, slots, parent, acc)      # acc[j, c]: SPODE j's log joint
        for c in range(n_classes):
            for j in range(k):
                out[c, j, i] = acc[j, c]


# The in-sample pass multiplies probabilities while every class's product of a SPODE stays at or
# above this (the factors are probabilities, at most 1, so no partial product is then subnormal);
# below it (underflow on very wide data, or a zero probability) the SPODE is evaluated on that row
# in log space.
PRODUCT_FLOOR = 1e-250


@compiled_kernel(**HELPER_OPTIONS)
def _log_posterior_of(tt, slots, j, yi, acc):
    """SPODE j's log posterior of class ``yi`` on one row in log space, with the numpy path's
    operations: the joint is 0.0 plus the log cells in feature order, the log-sum-exp shifted by the
    largest class term."""
    k = slots.shape[0]
    n_classes = acc.shape[0]
    p = slots[j]
    for c in range(n_classes):
        acc[c] = 0.0
    for m in range(k):
        q = slots[m]
        if q >= 0:
            for c in range(n_classes):
                acc[c] += tt[p, q, c]
    top = acc[0]
    for c in range(1, n_classes):
        if acc[c] > top:
            top = acc[c]
    total = 0.0
    for c in range(n_classes):
        shifted = acc[c] - top
        total += 1.0 if shifted == 0.0 else math.exp(shifted)     # exp(0) = 1 exactly
    return (acc[yi] - top) - math.log(total)


@compiled_kernel
def training_log_likelihoods(tp, tt, idx, y, null, ll, logs_only):
    r"""Add :math:`\log P(y_i \mid \mathbf a_i, s_j)` over the rows i into ``ll`` (k,).

    Unlike the other kernels this one multiplies probabilities, ``tp = exp(tt)``: each SPODE's joint
    is the product of its cells in feature order (a missing child multiplies nothing) and the row's
    term is :math:`-\log(1 + r)` with :math:`r = \sum_{c \ne y_i} P(c, \mathbf a_i \mid s_j) /
    P(y_i, \mathbf a_i \mid s_j)`: ``log1p`` where r < 0.01 (near-certain rows keep their relative
    precision) or r is huge, else multiplied into a running product per SPODE whose log is taken
    when it passes 1e200 and at the end.  That replaces C ``exp`` and one ``log`` per row and SPODE
    (most of the pass's time).  Each row's term differs from the numpy path's log-space term by a few
    ulps of the joints (either is that far from the exact value; near-certain rows are more precise
    here), so :math:`LL_j` differs by ~1e-15 per row (8e-11 measured on 20,000 rows, ~1e-14
    relative).  The log-likelihoods set the weights (:math:`\exp(LL_j - \max_l LL_l)`, COMP's
    feasibility and :math:`\pi_j`): a BMA / COMP label, set or pruning can differ between the paths
    only where its margin is below that relative size.  Where a class's product is below
    :data:`PRODUCT_FLOOR` the row's SPODE is evaluated in log space (:func:`_log_posterior_of`).  A
    SPODE whose parent is missing on a row adds ``null[y_i]`` (:math:`\log(n_c/n)`), as
    ``SpodeTables.training_log_posteriors``.  ``logs_only``: every row in log space (``tp`` unread),
    for tables whose exponential would cost more than the pass (many values, few rows).
    """
    k, n = idx.shape
    width = tp.shape[1]
    n_classes = tt.shape[2]
    flat = tp.reshape(-1)
    slots = np.empty(k, dtype=np.int64)
    base = np.empty(k * n_classes, dtype=np.int64)
    prod = np.empty(k * n_classes)          # prod[j * C + c]: SPODE j's joint of class c
    acc = np.empty(n_classes)
    grow = np.ones(k)                       # running products of (1 + r), one per SPODE
    for i in range(n):
        for j in range(k):
            slots[j] = idx[j, i]
        if logs_only:
            for j in range(k):
                ll[j] += null[y[i]] if slots[j] < 0 else _log_posterior_of(tt, slots, j, y[i], acc)
            continue
        for j in range(k):
            p = slots[j] if slots[j] >= 0 else 0
            for c in range(n_classes):
                base[j * n_classes + c] = p * width * n_classes + c
        for t in range(k * n_classes):
            prod[t] = 1.0
        for m in range(k):                  # children in feature order, every SPODE and class at once
            q = slots[m]
            if q >= 0:
                off = q * n_classes
                for t in range(k * n_classes):
                    prod[t] *= flat[base[t] + off]
        yi = y[i]
        for j in range(k):
            if slots[j] < 0:
                ll[j] += null[yi]
                continue
            low = prod[j * n_classes]
            others = 0.0
            for c in range(n_classes):
                v = prod[j * n_classes + c]
                if v < low:
                    low = v
                if c != yi:
                    others += v
            if not low >= PRODUCT_FLOOR:
                ll[j] += _log_posterior_of(tt, slots, j, yi, acc)
                continue
            r = others / prod[j * n_classes + yi]
            if r < 0.01 or r > 1e50:
                ll[j] -= math.log1p(r)
            else:
                grow[j] *= 1.0 + r
                if grow[j] > 1e200:
                    ll[j] -= math.log(grow[j])
                    grow[j] = 1.0
    for j in range(k):
        ll[j] -= math.log(grow[j])


@compiled_kernel
def log_pooled(tt, idx, weights, usable, joint, out, flag):
    """``SpodeEnsemble._log_pooled`` row by row: out (n, C) the normalised log pool.

    ``weights`` (k,), ``usable`` (k, n) bool.  ``flag[i]`` = 1 where a class's pooled value
    underflows to 0 (the caller recomputes those rows in log space), 2 where no SPODE can speak
    (naive Bayes fallback); ``out`` is left unset on flagged rows.
    """
    k, n = idx.shape
    n_classes = tt.shape[2]
    slots = np.empty(k, dtype=np.int64)
    acc = np.empty((k, n_classes))
    parent = np.empty(k, dtype=np.int64)
    w = np.empty(k)
    pooled = np.empty(n_classes)
    for i in range(n):
        row_joints(tt, idx, i, slots, parent, acc)      # acc[j, c]: SPODE j's log joint
        wsum = 0.0
        for j in range(k):
            w[j] = weights[j] * (1.0 if usable[j, i] else 0.0)
            wsum += w[j]
        if wsum == 0.0:
            flag[i] = 2
            continue
        if joint:            # one shift: the largest joint of a usable SPODE
            top = -np.inf
            for j in range(k):
                if usable[j, i]:
                    for c in range(n_classes):
                        if acc[j, c] > top:
                            top = acc[j, c]
            if not np.isfinite(top):
                top = 0.0
            for j in range(k):
                for c in range(n_classes):
                    acc[j, c] = math.exp(acc[j, c] - top)
        else:                # SPODE posteriors
            for j in range(k):
                top = acc[j, 0]
                for c in range(1, n_classes):
                    if acc[j, c] > top:
                        top = acc[j, c]
                total = 0.0
                for c in range(n_classes):
                    acc[j, c] = math.exp(acc[j, c] - top)
                    total += acc[j, c]
                for c in range(n_classes):
                    acc[j, c] /= total
        bad = False
        for c in range(n_classes):
            s = 0.0
            for j in range(k):
                s += w[j] * acc[j, c]
            if not s > 0.0:          # 0 (underflow) or NaN (0 x inf from an unusable SPODE)
                bad = True
            pooled[c] = math.log(s) if s > 0.0 else -np.inf
        if bad:
            flag[i] = 1
            continue
        flag[i] = 0
        top = pooled[0]
        for c in range(1, n_classes):
            if pooled[c] > top:
                top = pooled[c]
        total = 0.0
        for c in range(n_classes):
            total += math.exp(pooled[c] - top)
        lse = math.log(total)
        for c in range(n_classes):
            out[i, c] = (pooled[c] - top) - lse


@compiled_kernel(**HELPER_OPTIONS)
def _kept_posteriors(acc, keep, usable, i, post):
    """Row ``i``'s posteriors of the kept SPODEs from their log joints ``acc`` (k, C), as the numpy
    path's ``_kept_posteriors``: ``post[c, t]`` (C, k̃), zero for a SPODE not usable on the row; returns
    how many kept SPODEs are usable.  Each softmax shifts by the largest class term and adds the
    exponentials in class order."""
    n_classes = acc.shape[1]
    used = 0
    for t in range(keep.shape[0]):
        j = keep[t]
        top = acc[j, 0]
        for c in range(1, n_classes):
            if acc[j, c] > top:
                top = acc[j, c]
        total_e = 0.0                   # exp of the shifted joints, then divided by their sum
        for c in range(n_classes):
            e = math.exp(acc[j, c] - top)
            post[c, t] = e
            total_e += e
        for c in range(n_classes):
            post[c, t] = post[c, t] / total_e if usable[j, i] else 0.0
        if usable[j, i]:
            used += 1
    return used


@compiled_kernel
def bma_dominance_rows(tt, idx, keep, usable, weights, epsilon, rel_tie, out):
    """``bma_dominance`` on the kept SPODEs' posteriors, row by row: out (n, C, C) bool.

    ``keep`` (k̃,) SPODE indices, ``weights`` (k̃,), ``usable`` (k, n) bool."""
    k, n = idx.shape
    n_classes = tt.shape[2]
    kk = keep.shape[0]
    slots = np.empty(k, dtype=np.int64)
    acc = np.empty((k, n_classes))
    parent = np.empty(k, dtype=np.int64)
    post = np.empty((n_classes, kk))
    for i in range(n):
        row_joints(tt, idx, i, slots, parent, acc)      # acc[j, c]: SPODE j's log joint
        used = _kept_posteriors(acc, keep, usable, i, post)       # post[c, t]; used: how many usable
        for c in range(n_classes):
            for t in range(kk):
                post[c, t] *= weights[t]
        for a in range(n_classes):
            for b in range(n_classes):
                total = 0.0
                low = np.inf
                scale = 0.0
                for t in range(kk):
                    d = post[a, t] - post[b, t]
                    total += d
                    if usable[keep[t], i] and d < low:
                        low = d
                    scale += post[a, t] + post[b, t]
                if used == 0:
                    value = 0.0
                else:
                    value = epsilon * total + (1.0 - used * epsilon) * low
                out[i, a, b] = value > rel_tie * scale


@compiled_kernel
def comp_dominance_rows(tt, idx, keep, usable, base, shift, epsilon, total, equality, rel_tie, sets_only,
                        out):
    """``comp_dominance`` on the kept SPODEs' posteriors (unusable ones zeroed), row by row.

    ``shift`` (k̃,) = base + log(total / k̃): the centre scores; ``out`` (n, C, C) bool.  Dominance
    needs a strictly higher centre score, so it has no cycle; the rival classes a are tried in
    decreasing centre score, and with ``sets_only`` a pair (a, b) is left false once b is known to
    be dominated (the maximal set is unchanged: see ``CredalClassifierMixin._set_dominance``)."""
    k, n = idx.shape
    n_classes = tt.shape[2]
    kk = keep.shape[0]
    slots = np.empty(k, dtype=np.int64)
    acc = np.empty((k, n_classes))
    parent = np.empty(k, dtype=np.int64)
    post = np.empty((n_classes, kk))
    score = np.empty(n_classes)
    c_ = np.empty(kk)
    w = np.empty(kk)
    order = np.empty(kk)
    y = np.empty(kk)
    lams = np.empty(kk)
    log_eps = math.log(epsilon)                     # most priors sit at epsilon
    rank = np.empty(n_classes, dtype=np.int64)
    beaten = np.empty(n_classes, dtype=np.bool_)
    for i in range(n):
        row_joints(tt, idx, i, slots, parent, acc)      # acc[j, c]: SPODE j's log joint
        _kept_posteriors(acc, keep, usable, i, post)       # post[c, t]: kept SPODEs' posteriors
        for c in range(n_classes):
            s = 0.0
            for t in range(kk):
                s += post[c, t] * shift[t]
            score[c] = s
        for c in range(n_classes):          # classes by decreasing centre score (insertion sort)
            beaten[c] = False
            u = c - 1
            while u >= 0 and score[rank[u]] < score[c]:
                rank[u + 1] = rank[u]
                u -= 1
            rank[u + 1] = c
        for ra in range(n_classes):
            a = rank[ra]
            for b in range(n_classes):
                out[i, a, b] = False
                if not score[a] > score[b] or (sets_only and beaten[b]):
                    continue
                has_neg = False
                for t in range(kk):
                    c_[t] = post[a, t] - post[b, t]
                    if c_[t] < 0.0:
                        has_neg = True
                if has_neg:                         # water-filling (see _water_fill)
                    for t in range(kk):
                        w[t] = -c_[t] if -c_[t] > 0.0 else 0.0
                        order[t] = w[t]
                    for t in range(1, kk):          # insertion sort, descending
                        v = order[t]
                        u = t - 1
                        while u >= 0 and order[u] < v:
                            order[u + 1] = order[u]
                            u -= 1
                        order[u + 1] = v
                    cum = 0.0
                    m_star = 0
                    for t in range(kk):
                        cum += order[t]
                        lams[t] = cum / (total - epsilon * (kk - (t + 1)))
                        if order[t] > epsilon * lams[t] and order[t] > 0.0:
                            m_star += 1
                    if m_star > 0:
                        lam_star = lams[m_star - 1]
                        for t in range(kk):
                            if w[t] > 0.0:
                                v = w[t] / lam_star
                                y[t] = v if v > epsilon else epsilon
                            else:                   # 0 / lambda < epsilon
                                y[t] = epsilon
                    else:
                        for t in range(kk):
                            y[t] = epsilon
                else:                               # vertex (see _vertex)
                    for t in range(kk):
                        y[t] = epsilon
                    if equality:
                        arg = 0
                        for t in range(1, kk):
                            if c_[t] < c_[arg]:
                                arg = t
                        y[arg] = total - epsilon * (kk - 1)
                value = 0.0
                scale = 0.0
                for t in range(kk):
                    lg = (log_eps if y[t] == epsilon else math.log(y[t])) + base[t]
                    value += c_[t] * lg
                    scale += abs(lg) * (post[a, t] + post[b, t])
                out[i, a, b] = value > rel_tie * scale
                if out[i, a, b]:
                    beaten[b] = True
