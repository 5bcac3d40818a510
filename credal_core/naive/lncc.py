"""Likelihood-based naive credal classifier (paper 000 §4; paper 003 §4)."""
from __future__ import annotations

import numpy as np
from scipy.special import xlogy

from .._base import CredalClassifierMixin, NaiveCountsClassifier, check_number, perks_log_joint
from ..data.counts import lookup
from ..likelihood.pairwise import (
    PairCounts,
    class_terms_max,
    critical_alpha_pairs,
    dominance_pairs,
    log_lik,
    ratio_root,
)

__all__ = ["LNCC"]


class LNCC(CredalClassifierMixin, NaiveCountsClassifier):
    r"""Likelihood-based naive credal classifier: the NBCs whose normalised likelihood is at least α.

    Class ``a`` dominates ``b`` on :math:`\tilde f` iff (000 eq. 8)

    .. math:: \inf_{\theta:\ \mathrm{lik}(\theta) \ge \alpha}
              \frac{P_\theta(a, \tilde f)}{P_\theta(b, \tilde f)} > 1 .

    With ``include_instance=True`` the likelihood is that of the data times the probability of the
    instance with its class missing, restricted to ``a`` or ``b`` (000 eq. 9 and the pairwise
    simplification of §4); with ``include_instance=False`` it is the likelihood of the data alone —
    the naive hierarchical classifier of 003 (Corollary 1) with cutoff β = α.

    Dominance holds iff ``alpha > critical_alpha``: the largest normalised profile likelihood
    among the θ with ratio ≤ 1.  It is computed exactly from the profile likelihood of Theorems 1-2
    (see :mod:`credal_core.likelihood.pairwise`): no grid (the paper used 250 points).

    Parameters
    ----------
    alpha : float, default=0.75
        Likelihood threshold in [0, 1].
    include_instance : bool, default=True
        Put the instance to classify in the likelihood.

    Notes
    -----
    ``predict`` returns the label of the Perks NBC with ``s = 1``, the precise classifier the paper
    compares against (000 §5).  Unlike the NCC, the LNCC's set is not guaranteed to contain it.

    A class declared with ``partial_fit(classes=...)`` but absent from the data has entirely free
    feature probabilities, so with the instance in the likelihood the best fit may assign an
    unlikely instance to it — with many features such a class can even dominate.  That is the
    model of 000 §4 taken literally; fit on data where every class occurs to avoid it.

    Examples
    --------
    >>> import pandas as pd
    >>> from credal_core import LNCC
    >>> X = pd.DataFrame({"f": ["x"] * 6 + ["y"] * 2})
    >>> y = ["c", "c", "c", "c", "c", "d", "c", "d"]   # 000 Example 2's counts
    >>> crit = LNCC().fit(X, y).critical_alpha(pd.DataFrame({"f": ["x"]}))
    >>> round(float(crit[0, 0, 1]), 4)  # c dominates d for alpha above this
    0.2334
    """

    def __init__(self, *, alpha: float = 0.75, include_instance: bool = True):
        self.alpha = alpha
        self.include_instance = include_instance

    def _validate_params(self):
        check_number("alpha", self.alpha, 0.0, 1.0)
        if not isinstance(self.include_instance, (bool, np.bool_)):
            raise ValueError(f"include_instance must be True or False; got {self.include_instance!r}")

    def _joint_log_likelihood(self, codes):
        return perks_log_joint(self.tables_, codes, 1.0)

    def critical_alpha(self, X) -> np.ndarray:
        """Critical levels (n, C, C): ``a`` dominates ``b`` iff ``alpha > critical_alpha[i, a, b]``.

        1.0 on the diagonal and wherever ``a`` can never dominate ``b``.
        """
        return self._critical_alpha(self._encode(X))

    def _critical_alpha(self, codes):
        tables = self.tables_
        n_classes = len(tables.classes)
        counts = lookup(codes, tables.extended_counts())               # (C, m, n)
        n = codes.shape[0]
        crit = np.ones((n, n_classes, n_classes))
        nc = tables.class_counts
        for a in range(n_classes):
            for b in range(a + 1, n_classes):
                pc = PairCounts(np.full(n, nc[a]), counts[a].T, np.full(n, nc[b]), counts[b].T)
                crit[:, a, b], crit[:, b, a] = critical_alpha_pairs(pc, bool(self.include_instance))
        return crit

    def _dominance(self, codes):
        """Certified verdicts, equal to ``alpha > critical_alpha`` without computing it.

        For each pair, a few cheap probes of the profile likelihood, bracketed from per-row sums
        over the features (one lookup per block of features, see :class:`_BlockSums`), prove
        most verdicts (:func:`_probe_sums`); the rows they leave open are settled from the exact
        root u0 of r = 1 (:func:`_settle_at_root`) and, if still open, by the exact search, which
        with the instance stops as soon as the verdicts are proven
        (:func:`~credal_core.likelihood.pairwise.dominance_pairs`).  Every shortcut keeps a rounding margin,
        so a verdict within rounding of ``critical_alpha`` is left to the exact route.
        """
        shift = 1.0 if self.include_instance else 0.0
        tables = self.tables_
        n_classes = len(tables.classes)
        n = codes.shape[0]
        dom = np.zeros((n, n_classes, n_classes), dtype=bool)
        if self.alpha == 0 or n == 0:           # critical levels are >= 0: nothing dominates
            return dom
        log_alpha = np.log(self.alpha)
        nc = tables.class_counts
        stats = _class_stats(tables, codes, shift)
        sides = [_end_values(stats, c, nc[c], shift) for c in range(n_classes)]
        extended = None
        for a in range(n_classes):
            for b in range(a + 1, n_classes):
                ends = _pair_ends(sides[a], sides[b], shift)
                decided = np.zeros(n, dtype=bool)
                # log r(0) >= 0 for (a, b) means u0 <= 0: b never dominates a (the likelihood's
                # maximum lies in [0, 1], where r >= 1) and only a over b needs a verdict.
                # log r(0) >= 0 for (b, a) is the mirror case r(1) <= 1.  Within the rounding
                # margin of 0 the side of u0 is unsure: those rows take the exact route.
                for hi, lo, lr0 in ((a, b, ends["lr_ab"]), (b, a, ends["lr_ba"])):
                    rows = np.flatnonzero(lr0 >= ends["margin"])
                    verdict, known = _probe_sums(stats, hi, lo, nc, rows, lr0[rows], ends, log_alpha,
                                                 shift)
                    dom[rows[known], hi, lo] = verdict[known]
                    decided[rows[known]] = True
                if not shift:
                    # both classes give the instance probability 0 at the maximum-likelihood
                    # estimate (log r(0) = NaN): the curve of 003 Cor. 1 shrinks to that point
                    # (u_min = 0 = u_max - 1), both critical levels are 1: neither dominates
                    decided |= (sides[a]["lp0"] == -np.inf) & (sides[b]["lp0"] == -np.inf)
                else:
                    # u0 inside (0, 1): the set {r <= 1} contains u = 0 and {r >= 1} contains
                    # u = 1, so neither class dominates if L(0) and L(1) reach α times max L.
                    cut = log_alpha + ends["m_up"] + ends["margin"]
                    decided |= ((ends["lr_ab"] < -ends["margin"]) & (ends["lr_ba"] < -ends["margin"])
                                & (ends["ll0"] >= cut) & (ends["ll1"] >= cut))
                todo = np.flatnonzero(~decided)
                if todo.size == 0:
                    continue
                if extended is None:
                    extended = tables.extended_counts()
                # only this pair's two classes: the other rows of the tables are not needed here
                counts = lookup(codes[todo], [e[[a, b]] for e in extended])     # (2, m, k)
                pc = PairCounts(np.full(todo.size, nc[a]), counts[0].T, np.full(todo.size, nc[b]),
                                counts[1].T)
                sub_ends = {key: val[todo] for key, val in ends.items()}
                ab, ba, known, u0 = _settle_at_root(pc, sub_ends, log_alpha, shift)
                dom[todo, a, b], dom[todo, b, a] = ab, ba
                left = np.flatnonzero(~known)
                if left.size and shift:
                    dom[todo[left], a, b], dom[todo[left], b, a] = dominance_pairs(
                        pc.take(left), self.alpha, sub_ends["margin"][left], u0[left])
                elif left.size:
                    crit_ab, crit_ba = critical_alpha_pairs(pc.take(left), False)
                    dom[todo[left], a, b] = self.alpha > crit_ab
                    dom[todo[left], b, a] = self.alpha > crit_ba
        return dom


# Relative size of the rounding margin: a certificate must hold by this times the sum of the
# absolute values of the terms it adds up (float sums of a few hundred terms err by far less).
_ROUNDING = 1e-11


class _BlockSums:
    """Per-row sums (or minima) over the features of per-(class, feature, value) tables.

    Features are grouped into consecutive blocks with at most ``limit`` value combinations; a
    table over a block's combinations holds the block's sum, so each row needs one lookup per
    block instead of one per feature (the tables are tiny next to the rows they serve).  Code -1
    (a value unseen in training) selects the extra last column of each extended table.
    """

    def __init__(self, codes: np.ndarray, widths, limit: int):
        widths = [int(w) for w in widths]
        self.blocks, start, size = [], 0, 1
        for j, w in enumerate(widths):
            if j > start and size * w > limit:
                self.blocks.append((start, j))
                start, size = j, 1
            size *= w
        self.blocks.append((start, len(widths)))
        strides = np.zeros((len(widths), len(self.blocks)), dtype=np.int64)
        base = np.zeros(len(self.blocks), dtype=np.int64)
        total = 0
        for k, (lo, hi) in enumerate(self.blocks):
            stride = 1
            for j in range(hi - 1, lo - 1, -1):      # the block's last feature varies fastest
                strides[j, k] = stride
                stride *= widths[j]
            base[k] = total
            total += stride
        # Tables store each feature's unseen column first, so the row index of a combination is
        # sum_j (code_j + 1) * stride_j: code -1 needs no special case.
        self.idx = np.ascontiguousarray((codes @ strides).T) + (base + strides.sum(axis=0))[:, None]

    def reduce(self, per_feature: list, combine=np.add) -> np.ndarray:
        """``combine`` over j of ``per_feature[j][..., code[i, j]]``: an array (..., n).

        ``per_feature[j]`` has any leading shape (e.g. statistics × classes) and one last axis
        over the feature's values (the extended table, unseen value last).
        """
        tables = []
        for lo, hi in self.blocks:
            table = np.roll(per_feature[lo], 1, axis=-1)
            for j in range(lo + 1, hi):
                nxt = np.roll(per_feature[j], 1, axis=-1)
                table = combine(table[..., :, None], nxt[..., None, :]).reshape(*table.shape[:-1], -1)
            tables.append(table)
        flat = np.concatenate(tables, axis=-1)
        lead = flat.shape[:-1]
        out = np.empty((*lead, self.idx.shape[1]))
        rows = int(np.prod(lead))
        for row, acc in zip(flat.reshape(rows, -1), out.reshape(rows, self.idx.shape[1])):
            parts = row.take(self.idx)
            acc[:] = parts[0]
            for part in parts[1:]:
                combine(acc, part, out=acc)
        return out


def _class_stats(tables, codes, shift):
    r"""Per class (C, n): sums over the features ``j`` with :math:`c_j = n(c, f_j) < n(c)`.

    ``m`` (how many), ``k0`` (how many with :math:`c_j = 0`), and over those with :math:`c_j > 0`
    the sums of :math:`\log c_j,\ 1/c_j,\ 1/c_j^2,\ c_j \log c_j` (``l0 i0 q0 w0``).  With the
    instance (``shift = 1``) also the sums of :math:`\log(c_j+1),\ 1/(c_j+1),\ 1/(c_j+1)^2,
    \ c_j\log(c_j+1)` (``l1 i1 q1 w1``).  ``cmin``: the least c_j with the instance, the least
    positive c_j without it (+inf when there is none).
    """
    nc = tables.class_counts[:, None]
    names = ["m", "k0", "l0", "i0", "q0", "w0"] + (["l1", "i1", "q1", "w1"] if shift else [])
    sums, mins = [], []
    for t in tables.extended_counts():
        inside = t < nc
        pos = inside & (t > 0)
        safe = np.where(pos, t, 1.0)
        log_t = np.log(safe)
        entry = {"m": inside, "k0": inside & (t == 0), "l0": np.where(pos, log_t, 0.0),
                 "i0": np.where(pos, 1 / safe, 0.0), "q0": np.where(pos, 1 / safe ** 2, 0.0),
                 "w0": np.where(pos, t * log_t, 0.0)}
        if shift:
            entry.update(l1=np.where(inside, np.log(t + 1), 0.0), i1=np.where(inside, 1 / (t + 1), 0.0),
                         q1=np.where(inside, 1 / (t + 1) ** 2, 0.0),
                         w1=np.where(inside, t * np.log(t + 1), 0.0))
        sums.append(np.stack([np.asarray(entry[k], float) for k in names]))   # (P, C, V + 1)
        # least count (without the instance: least positive count); +inf when there is none
        mins.append(np.where(inside if shift else pos, t, np.inf))
    n = codes.shape[0]
    widths = [len(c) + 1 for c in tables.categories]
    # a block's table should stay small next to the rows it serves (and fit in the cache)
    blocks = _BlockSums(codes, widths, limit=max(1, min(4096, n // 4)))
    stats = dict(zip(names, blocks.reduce(sums)))
    stats["cmin"] = blocks.reduce(mins, np.minimum)
    return stats


def _end_values(stats, c, n_c, shift):
    """Exact log p and log Λ of class ``c`` at the arguments 0 and 1 (rows), and their scale.

    ``t0``, ``t1`` are the scalar terms n(c)(1 - m) log(n(c) + 0 or 1) of log Λ.
    """
    m, k0 = stats["m"][c], stats["k0"][c]
    with np.errstate(divide="ignore", invalid="ignore"):
        log_n = np.log(n_c) if n_c > 0 else -np.inf
        out = {"lp0": np.where(k0 > 0, -np.inf, (1 - m) * log_n + stats["l0"][c])}
        out["t0"] = (1 - m) * xlogy(n_c, n_c)
        out["lam0"] = out["t0"] + stats["w0"][c]
        scale = np.abs(out["t0"]) + stats["w0"][c] + np.abs(stats["l0"][c]) + (n_c + 2) * (m + 1)
        if shift:
            out["lp1"] = (1 - m) * np.log(n_c + 1) + stats["l1"][c]
            out["t1"] = (1 - m) * n_c * np.log(n_c + 1)
            out["lam1"] = out["t1"] + stats["w1"][c]
            scale = scale + np.abs(out["t1"]) + stats["w1"][c] + np.abs(stats["l1"][c])
    out["scale"] = scale
    out["n"] = float(n_c)
    return out


def _pair_ends(sa, sb, shift):
    """For the pair (a, b): log r(0) for (a, b) and for (b, a), bounds on log max L, log L at the
    parameter values 0 and 1, and the rounding margin (rows).

    With the instance (``shift = 1``) ``b``'s argument is ``v = 1 - u``; the maximum of the
    (unnormalised) log profile likelihood lies in [0, 1] and is at least
    ``m_lo = max(log L(0), log L(1))`` and at most ``m_up``, the one-cell bound of ``_profile`` on
    [0, 1].  Without it (``shift = 0``, 003 Corollary 1) the maximum is exactly at 0.
    """
    margin = _ROUNDING * (sa["scale"] + sb["scale"])
    with np.errstate(invalid="ignore"):
        if not shift:
            lr = sa["lp0"] - sb["lp0"]
            ll0 = sa["lam0"] + sb["lam0"]
            return {"lr_ab": lr, "lr_ba": -lr, "m_lo": ll0, "m_up": ll0, "ll0": ll0, "margin": margin}
        ll0 = sa["lam0"] + sb["lam1"] + np.logaddexp(sa["lp0"], sb["lp1"])
        ll1 = sa["lam1"] + sb["lam0"] + np.logaddexp(sa["lp1"], sb["lp0"])
    # On [0, 1]: G_a = log Λ_a - n_a log(n_a + u) decreases, G_b (at 1 - u) increases, p_a and
    # p_b(1 - u) move apart, and the class terms' sum is at most its value at n_a / (n_a + n_b)
    # (see ``_profile._cell_ends``).
    na, nb = sa["n"], sb["n"]
    upper = (sa["lam0"] - xlogy(na, na) + sb["lam0"] - xlogy(nb, nb)
             + class_terms_max(na, nb, 0.0, 1.0) + np.logaddexp(sa["lp1"], sb["lp1"]))
    m_lo = np.maximum(ll0, ll1)
    return {"lr_ab": sa["lp0"] - sb["lp1"], "lr_ba": sb["lp0"] - sa["lp1"], "m_lo": m_lo,
            "m_up": np.maximum(upper, m_lo), "ll0": ll0, "ll1": ll1, "margin": margin}


def _probe_sums(stats, hi, lo, nc, rows, lr0, ends, log_alpha, shift, tries=4):
    r"""Certified verdicts on "``hi`` dominates ``lo``" where log r(0) > 0 (u0 < 0), from sums only.

    ``hi`` dominates ``lo`` iff L(u0) < α max L, and L increases on u <= 0.  A probe u' in
    [u0, 0] (r(u') >= 1) bounds L(u0) <= L(u'); a probe u' < u0 (r(u') < 1) bounds L(u0) >= L(u').
    At a probe u' < 0 every feature term is bracketed by second-order Taylor bounds around 0
    (for ``hi``, x = u'/c in [X, 0] with X = u'/min c) or around ``shift`` (for ``lo``,
    y = -u'/(c + shift) in [0, Y]):

    .. math:: x - \frac{x^2}{2(1+X)} \le \log(1+x) \le x - \frac{x^2}{2}, \qquad
              y - \frac{y^2}{2} \le \log(1+y) \le y - \frac{y^2}{2(1+Y)},

    so log r(u') and log L(u') are bracketed by the per-row sums of ``_class_stats``: no
    per-feature work.  A verdict is issued only when it holds for the whole bracket with a
    rounding margin.  Returns (verdict, known) boolean arrays over ``rows``.
    """
    k = rows.size
    verdict = np.zeros(k, dtype=bool)
    known = np.zeros(k, dtype=bool)
    if k == 0:
        return verdict, known
    n1, n2 = nc[hi], nc[lo]
    ma, mb = stats["m"][hi][rows], stats["m"][lo][rows]
    l0a, i0a, q0a, w0a = (stats[s][hi][rows] for s in ("l0", "i0", "q0", "w0"))
    k0b = stats["k0"][lo][rows]
    if shift:
        lsb, isb, qsb, wsb = (stats[s][lo][rows] for s in ("l1", "i1", "q1", "w1"))
        wib, wqb = mb - isb, isb - qsb              # sums of c/(c+1) and c/(c+1)^2
        cb = stats["cmin"][lo][rows] + 1
    else:
        lsb, isb, qsb, wsb = (stats[s][lo][rows] for s in ("l0", "i0", "q0", "w0"))
        wib, wqb = mb - k0b, isb                    # sums of c/c and c/c^2 over c > 0
        cb = stats["cmin"][lo][rows]
    ca = np.minimum(stats["cmin"][hi][rows], n1)    # least count of hi (all positive: r(0) > 0)
    m_lo, m_up, margin = ends["m_lo"][rows], ends["m_up"][rows], ends["margin"][rows]
    with np.errstate(divide="ignore", invalid="ignore"):
        slope0 = (1 - ma) / n1 + i0a + (1 - mb) / (n2 + shift) + isb
        if not shift:                                    # zero counts of lo: log v, slope +inf
            slope0 = np.where(k0b > 0, np.inf, slope0)
        u_floor = -0.5 * ca
        u = np.maximum(-0.5 * lr0 / slope0, u_floor)     # half a Newton step from 0 towards u0
    # r(0) = +inf (a zero count on lo's side) or no usable slope: start halfway to the end point
    u = np.where(np.isfinite(u) & (u < 0), u, u_floor)
    live = np.flatnonzero(np.isfinite(u) & (u < 0) & (stats["k0"][hi][rows] == 0))
    for _ in range(tries):
        if live.size == 0:
            break
        up = u[live]
        sq = 0.5 * up * up
        va = 1 / (1 + up / ca[live])                    # 1 / (1 + X)
        ta = (1 - ma[live]) * np.log(n1 + up)          # exact scalar terms
        base_a = l0a[live] + up * i0a[live]
        lpa_hi = ta + base_a - sq * q0a[live]
        lpa_lo = ta + base_a - sq * q0a[live] * va
        wbase_a = n1 * ta + w0a[live] + up * ma[live]
        lam_a_hi = wbase_a - sq * i0a[live]
        lam_a_lo = wbase_a - sq * i0a[live] * va
        v = shift - up
        vb = 1 / (1 - up / cb[live])                    # 1 / (1 + Y)
        tb = (1 - mb[live]) * np.log(n2 + v)
        lam_b_t = n2 * tb
        if not shift:
            tb = tb + np.where(k0b[live] > 0, k0b[live] * np.log(v), 0.0)
        base_b = lsb[live] - up * isb[live]
        lpb_lo = tb + base_b - sq * qsb[live]
        lpb_hi = tb + base_b - sq * qsb[live] * vb
        wbase_b = lam_b_t + wsb[live] - up * wib[live]
        lam_b_lo = wbase_b - sq * wqb[live]
        lam_b_hi = wbase_b - sq * wqb[live] * vb
        log_l_hi = lam_a_hi + lam_b_hi
        log_l_lo = lam_a_lo + lam_b_lo
        if shift:
            log_l_hi = log_l_hi + np.logaddexp(lpa_hi, lpb_hi)
            log_l_lo = log_l_lo + np.logaddexp(lpa_lo, lpb_lo)
        # rounding: the probe's own terms on top of the end values' margin (which covers the sums)
        marg = margin[live] + _ROUNDING * (
            (n1 + 1) * np.abs(ta) + (n2 + 1) * np.abs(tb)
            + np.abs(up) * (ma[live] + i0a[live] + mb[live] + isb[live] + wib[live])
            + 2 * sq * (q0a[live] + i0a[live] + qsb[live] + wqb[live]))
        right = lpa_lo - lpb_hi >= marg                  # r(u') >= 1: u' lies in [u0, 0]
        wrong = lpa_hi - lpb_lo < -marg                  # r(u') < 1: u' lies left of u0
        yes = right & (log_l_hi < log_alpha + m_lo[live] - marg)
        no = wrong & (log_l_lo >= log_alpha + m_up[live] + marg)
        verdict[live[yes]] = True
        known[live[yes | no]] = True
        # undecided: go further left if still right of u0, halfway back if past it; give up
        # where the bracket cannot tell or the floor is reached
        at_floor = up <= u_floor[live]
        u[live] = np.where(right, np.maximum(2 * up, u_floor[live]), 0.5 * up)
        live = live[~(yes | no) & ((right & ~at_floor) | wrong)]
    return verdict, known


def _settle_at_root(pc, ends, log_alpha, shift):
    """Verdicts for the rows the sums left open, from u0 (r(u0) = 1) and L(u0) computed exactly.

    The set {r <= 1} is {u <= u0}.  If u0 <= 0, L increases up to u0, so ``a`` dominates ``b`` iff
    L(u0) < α max L, and ``b`` never dominates ``a``; u0 >= 1 is the mirror case.  If u0 lies in
    (0, 1), both sets contain u0, so neither class dominates when L(u0) >= α max L.  The maximum
    is bracketed by ``m_lo`` and ``m_up`` (exact without the instance); rows the bracket or the
    rounding margin leave open are not ``known`` and need the exact search.
    Returns (a over b, b over a, known, u0) over the rows of ``pc`` (u0 is NaN where the sign of
    log r(0) or log r(1) is within the margin of 0: not computed).
    """
    margin = ends["margin"]
    left = ends["lr_ab"] >= margin                               # u0 < 0: only a over b
    right = ends["lr_ba"] >= margin                              # u0 > 1 (u0 > 0 without it)
    middle = (ends["lr_ab"] < -margin) & (ends["lr_ba"] < -margin) if shift else np.zeros_like(left)
    rows = np.flatnonzero(left | right | middle)
    log_l = np.full(left.size, np.nan)
    u0 = np.full(left.size, np.nan)
    if rows.size:
        sub = pc.take(rows)
        u0[rows] = ratio_root(sub, shift)
        log_l[rows] = log_lik(sub, np.arange(rows.size), u0[rows], include_instance=bool(shift))
    with np.errstate(invalid="ignore"):
        low = log_l < log_alpha + ends["m_lo"] - margin          # L(u0) < α max L for sure
        high = log_l >= log_alpha + ends["m_up"] + margin        # L(u0) >= α max L for sure
    known = ((left | right) & (low | high)) | (middle & high)
    return left & low, right & low, known, u0
