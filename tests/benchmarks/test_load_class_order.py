"""benchmarks/load_class.py's run plan and summary: plain and flooded classes alternate in ABBA order (the
machine's load drifts and later classes run slower, so neither kind may always come first), and the
summary compares medians of the classes of each kind."""
from __future__ import annotations

import statistics

import pytest

from benchmarks.load_class import class_order, flood_summary


@pytest.mark.parametrize("repeat", [1, 2, 3, 4])
@pytest.mark.parametrize("flood_first", [False, True])
def test_each_kind_runs_repeat_times_and_leads_half_the_pairs(repeat, flood_first):
    order = class_order(True, repeat, flood_first)
    assert order.count(True) == repeat and order.count(False) == repeat
    pairs = [order[i:i + 2] for i in range(0, len(order), 2)]
    assert all(sorted(pair) == [False, True] for pair in pairs)
    leads = [pair[0] for pair in pairs]
    assert leads[0] is flood_first
    assert abs(leads.count(True) - leads.count(False)) <= 1          # ABBA: the leader alternates


def test_without_a_flood_only_plain_classes():
    assert class_order(False, 3) == [False, False, False]


def test_the_summary_takes_medians_of_each_kind():
    p95s = {"plain": [0.2, 0.9, 0.4], "flood": [0.3, 0.5, 2.0]}
    cpus = {"plain": [6.0, 7.0, 5.0], "flood": [6.5, 7.5, 6.0]}
    rows = [{"class": kind, "answer": {"p95": p}, "server_cpu_s_answering": c}
            for kind in p95s for p, c in zip(p95s[kind], cpus[kind])]
    summary = flood_summary(rows)
    assert summary["runs_each"] == 3
    assert summary["p95_ratio"] == pytest.approx(statistics.median(p95s["flood"])
                                                 / statistics.median(p95s["plain"]))
    assert summary["cpu_ratio"] == pytest.approx(statistics.median(cpus["flood"])
                                                 / statistics.median(cpus["plain"]))
    assert summary["flood_p95s"] == p95s["flood"]
