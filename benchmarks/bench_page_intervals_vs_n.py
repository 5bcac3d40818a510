"""First render and slider re-runs of the page "Intervals vs N", timed with AppTest in one run.

    .venv/bin/python benchmarks/bench_page_intervals_vs_n.py [--repeat 5]

Targets (issue 3): first render <= 2 s, slider re-run <= 0.3 s.  Every timing is an AppTest run (the
script executed headless, elements collected); the baseline, measured first in the same run, is
AppTest on a trivial script with a title and one slider, so the ratios show what the page itself
costs on top of AppTest's own overhead.

AppTest runs the whole script on every re-run: a slider inside an ``st.fragment`` re-runs only its
fragment in the app. For the server CPU of a real (fragment) re-run use
``benchmarks/load_test.py cpu-per-rerun --start app --no-post-script-gc --pages <page>``.

Rows:
- *first render, fresh process*: the page's first run in this process: its imports (plotly, scipy,
  credal_core) and every cached computation are cold, as for the first visitor of a new server
  ("of which": ``import credal_core.likelihood`` alone, timed in a fresh interpreter that has
  imported streamlit; in the app, the home page has usually paid for it already).
- *first render, cold cache*: a new session after clearing ``st.cache_data`` and ``st.cache_resource``
  (imports warm), best of ``--repeat``: the first visit with parameters nobody has used yet.
- *first render, warm cache*: a new session with the default parameters already computed.
- *re-run after moving <slider>*: one slider step to a value not seen before (cache miss), best and
  median of ``--repeat``; "(cached)" moves back to a value already computed.
"""
from __future__ import annotations

import statistics
import subprocess
import sys

from _apptest_timing import FIRST_RENDER_TARGET, RERUN_TARGET, ROOT, baseline_times, render, timed
from _common import clear_caches, parser, print_page_table, slider_times

PAGE = str(ROOT / "pages" / "intervals_vs_n.py")


def import_seconds(module: str) -> float:
    """Time of ``import module`` in a fresh interpreter that has already imported streamlit."""
    code = (f"import streamlit, time; t = time.perf_counter(); import {module}; "
            "print(time.perf_counter() - t)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def main(argv=None) -> None:
    args = parser(__doc__, repeat=5).parse_args(argv)

    base_first, base_rerun = baseline_times(max(args.repeat, 1))

    rows: list[tuple[str, float, float, float | None]] = []  # label, seconds, baseline, target

    fresh = timed(lambda: render(PAGE))
    rows.append(("first render, fresh process", fresh, base_first, FIRST_RENDER_TARGET))
    rows.append(("  of which: import credal_core.likelihood", import_seconds("credal_core.likelihood"),
                 base_first, None))

    def cold() -> None:
        clear_caches()
        render(PAGE)
    rows.append(("first render, cold cache (best)", min(timed(cold) for _ in range(args.repeat)),
                 base_first, FIRST_RENDER_TARGET))
    render(PAGE)
    warm = min(timed(lambda: render(PAGE)) for _ in range(args.repeat))
    rows.append(("first render, warm cache (best)", warm, base_first, FIRST_RENDER_TARGET))

    sliders = {  # key -> fresh values, one step apart
        "iv_alpha": [round(0.84 - 0.01 * i, 2) for i in range(args.repeat)],
        "iv_s": [round(2.1 + 0.1 * i, 1) for i in range(args.repeat)],
        "iv_ratio": [round(0.49 - 0.01 * i, 2) for i in range(args.repeat)],
        "iv_beta": [round(0.16 + 0.01 * i, 2) for i in range(args.repeat)],
        "iv_p": [round(0.51 + 0.01 * i, 2) for i in range(args.repeat)],
    }
    for key, values in sliders.items():
        clear_caches()
        at = render(PAGE)
        times = slider_times(at, key, values)
        rows.append((f"re-run after moving {key[3:]} (best)", min(times), base_rerun, RERUN_TARGET))
        rows.append((f"re-run after moving {key[3:]} (median)", statistics.median(times), base_rerun,
                     RERUN_TARGET))
        cached = timed(lambda: at.slider(key=key).set_value(values[0]).run())
        rows.append((f"re-run after moving {key[3:]} (cached)", cached, base_rerun, RERUN_TARGET))

    print_page_table("Intervals vs N", rows, base_first, base_rerun)


if __name__ == "__main__":
    main()
