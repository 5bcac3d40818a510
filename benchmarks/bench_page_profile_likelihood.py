"""First render and re-runs of the page "Profile likelihood", timed with AppTest in one run.

    .venv/bin/python benchmarks/bench_page_profile_likelihood.py [--repeat 5]

Targets, the AppTest baseline (a trivial script timed in the same run), the fragment caveat and the
three first-render rows as in ``bench_page_intervals_vs_n.py``.  The other rows:
- *re-run after moving α*: one slider step to a value not seen before (the view and its figure are
  a cache miss; the α-cut is read from the slider's whole grid, computed in one pass with the first
  render; profile and cloud are cached), best and median of ``--repeat``; "(cached)" returns to a
  value already computed.
- *re-run after moving the sample size*: a new Monte Carlo cloud each time (cache miss).
- *re-run after toggling the instance*, *re-run after moving β* (003 Example 1 view), *switching
  preset*: the other controls, cold.
"""
from __future__ import annotations

import statistics

from _apptest_timing import FIRST_RENDER_TARGET, RERUN_TARGET, ROOT, baseline_times, checked, render, timed
from _common import clear_caches, parser, print_page_table, slider_times

PAGE = str(ROOT / "pages" / "profile_likelihood.py")


def main(argv=None) -> None:
    repeat = max(parser(__doc__, repeat=5).parse_args(argv).repeat, 1)

    base_first, base_rerun = baseline_times(repeat)

    rows: list[tuple[str, float, float, float]] = []  # label, seconds, baseline, target

    def first(label: str, seconds: float) -> None:
        rows.append((label, seconds, base_first, FIRST_RENDER_TARGET))

    def rerun(label: str, seconds: float) -> None:
        rows.append((label, seconds, base_rerun, RERUN_TARGET))

    first("first render, fresh process", timed(lambda: render(PAGE)))

    def cold() -> None:
        clear_caches()
        render(PAGE)
    first("first render, cold cache (best)", min(timed(cold) for _ in range(repeat)))
    render(PAGE)
    first("first render, warm cache (best)", min(timed(lambda: render(PAGE)) for _ in range(repeat)))

    # α: fresh values one step apart (0.49, 0.48, ...), then back to a value already computed
    clear_caches()
    at = render(PAGE)
    values = [round(0.49 - 0.01 * i, 2) for i in range(repeat)]
    times = slider_times(at, "pl_alpha", values)
    rerun("re-run after moving α (best)", min(times))
    rerun("re-run after moving α (median)", statistics.median(times))
    rerun("re-run after moving α (cached)",
          timed(lambda: checked(at.slider(key="pl_alpha").set_value(values[0]).run())))

    # sample size: a new cloud every time (3,500, 4,000, ...)
    values = [3_500 + 500 * i for i in range(repeat)]
    times = slider_times(at, "pl_samples", values)
    rerun("re-run after moving the sample size (best)", min(times))
    rerun("re-run after moving the sample size (median)", statistics.median(times))

    # the toggle (000 Example 3: the profile without the instance is the comparison curve, so cached)
    clear_caches()
    at = render(PAGE, {"preset": "000-ex3"})
    rerun("re-run after toggling the instance (ex. 3)",
          timed(lambda: checked(at.toggle(key="pl_include_instance").set_value(False).run())))

    clear_caches()
    at = render(PAGE)
    rerun("re-run switching preset to 000 Example 3 (cold)",
          timed(lambda: checked(at.selectbox(key="pl_preset").set_value("000-ex3").run())))
    rerun("re-run switching preset to 003 Example 1 (cold)",
          timed(lambda: checked(at.selectbox(key="pl_preset").set_value("003-ex1").run())))
    values = [round(0.16 + 0.01 * i, 2) for i in range(repeat)]
    times = slider_times(at, "pl_beta", values)
    rerun("re-run after moving β (003 Ex. 1, best)", min(times))
    rerun("re-run after moving β (003 Ex. 1, median)", statistics.median(times))

    print_page_table("Profile likelihood", rows, base_first, base_rerun, width=48)


if __name__ == "__main__":
    main()
