"""First render and re-runs of the page "Profile likelihood", timed with AppTest in one run.

    .venv/bin/python benchmarks/bench_page_profile_likelihood.py [--repeat 5]

Targets (issue 3): first render <= 2 s, slider re-run <= 0.3 s.  Every timing is an AppTest run (the
script executed headless, elements collected); the baseline, measured first in the same run, is
AppTest on a trivial script with a title and one slider, so the ratios show what the page itself
costs on top of AppTest's own overhead.

AppTest runs the whole script on every re-run: a slider inside an ``st.fragment`` re-runs only its
fragment in the app. For the server CPU of a real (fragment) re-run use
``benchmarks/load_test.py cpu-per-rerun --start app --no-post-script-gc --pages <page>``.

Rows:
- *first render, fresh process*: the page's first run in this process: its imports (plotly, scipy,
  credal_core) and every cached computation are cold, as for the first visitor of a new server.
- *first render, cold cache*: a new session after clearing ``st.cache_data`` and ``st.cache_resource``
  (imports warm), best of ``--repeat``: the first visit with parameters nobody has used yet.
- *first render, warm cache*: a new session with the default view already computed.
- *re-run after moving α*: one slider step to a value not seen before (the view and its figure are
  a cache miss; the α-cut is read from the slider's whole grid, computed in one pass with the first
  render; profile and cloud are cached), best and median of ``--repeat``; "(cached)" returns to a
  value already computed.
- *re-run after moving the sample size*: a new Monte Carlo cloud each time (cache miss).
- *re-run after toggling the instance*, *re-run after moving β* (003 Example 1 view), *switching
  preset*: the other controls, cold.
"""
from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _apptest_timing import FIRST_RENDER_TARGET, RERUN_TARGET, ROOT, baseline_times, checked, render, timed  # noqa: E402

PAGE = str(ROOT / "pages" / "profile_likelihood.py")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    repeat = max(args.repeat, 1)
    import streamlit as st

    base_first, base_rerun = baseline_times(repeat)

    rows: list[tuple[str, float, float, float]] = []  # label, seconds, baseline, target

    def first(label: str, seconds: float) -> None:
        rows.append((label, seconds, base_first, FIRST_RENDER_TARGET))

    def rerun(label: str, seconds: float) -> None:
        rows.append((label, seconds, base_rerun, RERUN_TARGET))

    first("first render, fresh process", timed(lambda: render(PAGE)))

    def cold() -> None:
        st.cache_data.clear()
        st.cache_resource.clear()   # the views and figures shared by all sessions
        render(PAGE)
    first("first render, cold cache (best)", min(timed(cold) for _ in range(repeat)))
    render(PAGE)
    first("first render, warm cache (best)", min(timed(lambda: render(PAGE)) for _ in range(repeat)))

    # α: fresh values one step apart (0.49, 0.48, ...), then back to a value already computed
    st.cache_data.clear()
    st.cache_resource.clear()   # the views and figures shared by all sessions
    at = render(PAGE)
    values = [round(0.49 - 0.01 * i, 2) for i in range(repeat)]
    times = [timed(lambda v=v: checked(at.slider(key="pl_alpha").set_value(v).run())) for v in values]
    rerun("re-run after moving α (best)", min(times))
    rerun("re-run after moving α (median)", statistics.median(times))
    rerun("re-run after moving α (cached)",
          timed(lambda: checked(at.slider(key="pl_alpha").set_value(values[0]).run())))

    # sample size: a new cloud every time (3,500, 4,000, ...)
    values = [3_500 + 500 * i for i in range(repeat)]
    times = [timed(lambda v=v: checked(at.slider(key="pl_samples").set_value(v).run())) for v in values]
    rerun("re-run after moving the sample size (best)", min(times))
    rerun("re-run after moving the sample size (median)", statistics.median(times))

    # the toggle (000 Example 3: the profile without the instance is the comparison curve, so cached)
    st.cache_data.clear()
    st.cache_resource.clear()   # the views and figures shared by all sessions
    at = render(PAGE, {"preset": "000-ex3"})
    rerun("re-run after toggling the instance (ex. 3)",
          timed(lambda: checked(at.toggle(key="pl_include_instance").set_value(False).run())))

    st.cache_data.clear()
    st.cache_resource.clear()   # the views and figures shared by all sessions
    at = render(PAGE)
    rerun("re-run switching preset to 000 Example 3 (cold)",
          timed(lambda: checked(at.selectbox(key="pl_preset").set_value("000-ex3").run())))
    rerun("re-run switching preset to 003 Example 1 (cold)",
          timed(lambda: checked(at.selectbox(key="pl_preset").set_value("003-ex1").run())))
    values = [round(0.16 + 0.01 * i, 2) for i in range(repeat)]
    times = [timed(lambda v=v: checked(at.slider(key="pl_beta").set_value(v).run())) for v in values]
    rerun("re-run after moving β (003 Ex. 1, best)", min(times))
    rerun("re-run after moving β (003 Ex. 1, median)", statistics.median(times))

    print(f"AppTest baseline (trivial script): first render {base_first:.3f} s, re-run {base_rerun:.3f} s")
    print(f"{'page: Profile likelihood':<48}{'seconds':>9}{'ratio':>8}{'target':>9}")
    for label, seconds, base, target in rows:
        verdict = "ok" if seconds <= target else "OVER"
        print(f"{label:<48}{seconds:>9.3f}{seconds / base:>8.1f}{'≤ ' + format(target, 'g'):>7} {verdict}")


if __name__ == "__main__":
    main()
