"""Real-browser test of the page "Classifier selection": `streamlit run` + Playwright + Debian's chromium.

Runs the whole app (``app.py``, page at ``/classifier_selection``).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from _server import chromium_browser, move_slider, open_page, playwright_or_skip, save_screenshot

pytestmark = pytest.mark.browser
sync_api = playwright_or_skip()
ROOT = Path(__file__).resolve().parents[2]


def explain_default_row(k: int):
    """The API's explanation of the page's default instance (Balloons, split 0, test row 4, Euclidean)."""
    import pandas as pd

    from credal_core.resampling import repeated_holdout
    from credal_core.selection.threshold import ThresholdSelector

    X = pd.read_csv(ROOT / "sample_data" / "balloons.csv", dtype=str)
    y = X.pop("inflated").to_numpy()
    train, test = next(repeated_holdout(y, n_repeats=1, test_size=0.3, stratify=False, seed=0))
    sel = ThresholdSelector(features_1=["color", "size", "act", "age"], features_2=["color", "act", "age"],
                            k=k).fit(X.iloc[train], y[train])
    return sel.explain(X.iloc[[test[4]]]).iloc[0]


def k_thumb(page):
    sliders = page.get_by_test_id("stSlider")
    return sliders.filter(has_text="k (nearest training points)").get_by_role("slider")


def test_moving_k_redraws_the_threshold_plane(app_url):
    expect = sync_api.expect
    with chromium_browser() as browser:
        page = open_page(browser, app_url + "classifier_selection?runs=10", "Classifier selection",
                         height=3200)
        expect(page.locator(".katex").first).to_be_visible(timeout=30_000)
        charts = page.get_by_test_id("stPlotlyChart")
        # the accuracy curve is a run in the worker processes: the first one starts them
        expect(charts).to_have_count(2, timeout=180_000)
        plane = charts.nth(0)
        expect(plane.locator(".scatterlayer .trace").first).to_be_attached(timeout=30_000)
        expect(plane).to_contain_text("k nearest (Euclidean), k = 3", timeout=30_000)
        expect(plane).to_contain_text("k nearest (Chebyshev), k = 3")
        decision = page.get_by_test_id("stMarkdown").filter(has_text="The instance")
        expect(decision).to_contain_text("Among its 3 nearest training points")
        markers_before = plane.locator(".scatterlayer .trace .point").count()

        thumb = k_thumb(page)
        expect(thumb).to_have_value("3")
        move_slider(thumb, "ArrowRight", 9, "12")
        expect(plane).to_contain_text("k nearest (Euclidean), k = 12", timeout=30_000)
        expect(plane).to_contain_text("k nearest (Chebyshev), k = 12")
        expect(decision).to_contain_text("Among its 12 nearest training points", timeout=30_000)
        # rows tied at the 12th distance all count: the page says how many rows were used
        used = int(explain_default_row(12)["n_neighbours"])
        assert used > 12
        expect(decision).to_contain_text(f"(Euclidean distance; {used} rows, because")
        expect(page).to_have_url(re.compile(r"[?&]k=12\b"), timeout=10_000)
        # more neighbours cover more distinct points of the plane: more markers drawn
        page.wait_for_timeout(500)
        assert plane.locator(".scatterlayer .trace .point").count() > markers_before

        # the shared link reproduces k in a fresh page (a new session of the app; the same browser
        # context, whose cache spares a software-rendering chromium compiling Streamlit's scripts again)
        other = page.context.new_page()
        other.goto(page.url, wait_until="domcontentloaded")
        expect(k_thumb(other)).to_have_value("12", timeout=60_000)
        expect(other.get_by_test_id("stPlotlyChart").nth(0)).to_contain_text(
            "k nearest (Euclidean), k = 12", timeout=30_000)
        other.close()

        save_screenshot(page, "classifier_selection", settle_ms=1000)


def test_lesson_6_s_count_table_opens_here_with_the_step_s_thresholds(app_url):
    """Lesson 6 step 1's link, clicked after the reveal (1280×800), opens this page on the step's count table:
    section 0 states the two thresholds the step's figure shows; the same link on a phone (390×844) too."""
    from app_support.lessons.catalogue import lesson
    from app_support.lessons.lesson_selection import threshold

    expect = sync_api.expect
    step = lesson("classifier-selection").steps[0]
    params = step.question.generate(5).params
    stated = [f"{threshold(params, (0,)):.3f} for C1 (f1)",
              f"{threshold(params, (0, 1)):.3f} for C2 (f1, f2)"]
    with chromium_browser() as browser:
        page = open_page(browser, app_url + "lessons?lesson=classifier-selection&step=1&seed=5", step.title,
                         width=1280, height=800, exact=True)
        page.get_by_role("button", name="Show the answer").click()
        page.get_by_test_id("stPageLink").filter(has_text="Open Classifier selection at these values").click()
        expect(page).to_have_url(re.compile(r"/classifier_selection\?.*data=counts"), timeout=60_000)
        section = page.get_by_test_id("stMarkdown").filter(has_text="Trained on all")
        for text in stated:
            expect(section).to_contain_text(text, timeout=60_000)
        phone = browser.new_page(viewport={"width": 390, "height": 844})
        phone.goto(page.url, wait_until="domcontentloaded")
        phone_section = phone.get_by_test_id("stMarkdown").filter(has_text="Trained on all")
        for text in stated:
            expect(phone_section).to_contain_text(text, timeout=60_000)
        assert page.get_by_test_id("stException").count() == phone.get_by_test_id("stException").count() == 0
