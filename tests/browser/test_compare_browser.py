"""Real-browser test of the page "Compare on your data": upload via the file input, run, read, download."""

from __future__ import annotations

import csv
import io
import os
from pathlib import Path

import pytest
from _server import CLIPPED_TITLES, chromium_browser, playwright_or_skip, save_screenshot, streamlit_app

pytestmark = pytest.mark.browser
sync_api = playwright_or_skip()

DATA = ("patient,fever,cough,age,diagnosis\n" + "\n".join(
    f"p{i},{'yes' if i % 3 else 'no'},{'dry' if i % 4 else 'wet'},{20 + (i * 7) % 50},"
    f"{'flu' if (i % 3 and i % 4) else 'cold'}" for i in range(60)) + "\n=2+3,no,wet,33,cold\n").encode()


@pytest.fixture(scope="module")
def base_url():
    with streamlit_app("streamlit_compare.log") as url:
        yield url


def test_upload_compare_and_download_in_chromium(base_url, tmp_path):
    expect = sync_api.expect
    with chromium_browser() as browser:
        page = browser.new_page(viewport={"width": 1400, "height": 3200}, accept_downloads=True)
        page.goto(base_url + "compare?samples=&folds=3&repeats=1&clf=NBC,NCC,LNCC_α%3D0.75",
                  wait_until="domcontentloaded")
        expect(page.get_by_role("heading", name="Compare on your data")).to_be_visible(timeout=60_000)
        prompt = page.get_by_text("Upload a CSV file or pick a sample data set")
        expect(prompt).to_be_visible(timeout=30_000)

        page.locator("input[type=file]").set_input_files(
            files=[{"name": "clinic.csv", "mimeType": "text/csv", "buffer": DATA}])
        expect(page.get_by_text("clinic.csv: 61 rows × 5 columns")).to_be_visible(timeout=60_000)
        table = page.get_by_test_id("stDataFrame").first
        expect(table).to_be_visible(timeout=120_000)
        expect(page.get_by_test_id("stPlotlyChart")).to_have_count(2, timeout=60_000)
        expect(page.get_by_role("checkbox", name="Drop ID-like columns")).to_be_checked()

        # the file is made by the server when asked (a deferred download): a click that lands while the
        # page is still rerunning asks for a file the newer run has replaced, so wait for the run to end
        # and ask again if no file comes. The button stays disabled while the server answers a request
        # (in a thread of its own, slow when the machine is loaded): wait for it before each click; a
        # download that starts and is then canceled is asked for again too.
        button = page.get_by_role("button", name="Per-fold results (CSV)")
        for attempt in range(3):
            expect(page.get_by_test_id("stStatusWidget")).to_have_count(0, timeout=60_000)
            expect(button).to_be_enabled(timeout=120_000)
            path = tmp_path / "folds.csv"
            try:
                with page.expect_download(timeout=60_000) as info:
                    button.click()
                info.value.save_as(path)     # "canceled" when a newer run replaced the file meanwhile
                break
            except sync_api.Error:           # TimeoutError included
                if attempt == 2:
                    raise
        rows = list(csv.DictReader(io.StringIO(path.read_text())))
        assert {r["classifier"] for r in rows} == {"NBC", "NCC", "LNCC_α=0.75"}
        assert len(rows) == 3 * 3
        assert all(0 <= float(r["accuracy"]) <= 1 for r in rows)
        save_screenshot(page, "compare", settle_ms=1000)


def _shots(page, name: str) -> None:
    """The first screen and each chart, to CREDAL_SHOT_DIR when set (to look at them)."""
    folder = os.environ.get("CREDAL_SHOT_DIR")
    if folder:
        page.screenshot(path=str(Path(folder) / f"{name}.png"))
        shown = [e for kind in ("stPlotlyChart", "stDataFrame") for e in page.get_by_test_id(kind).all()
                 if e.is_visible()]                         # the other tabs' charts are hidden
        for i, element in enumerate(shown):
            element.screenshot(path=str(Path(folder) / f"{name}_{i}.png"))


@pytest.mark.parametrize("width, height", [(1280, 720), (390, 844)])
def test_titles_inside_their_charts_and_wide_tables_announce_their_scroll(base_url, width, height):
    expect = sync_api.expect
    with chromium_browser() as browser:
        page = browser.new_page(viewport={"width": width, "height": height})
        page.goto(base_url + "compare?samples=weather,balloons&folds=2&repeats=1&clf=NBC,NCC,CMA,CDT"
                  "&bayes=1&fig001=1", wait_until="domcontentloaded")
        expect(page.get_by_role("heading", name="Compare on your data")).to_be_visible(timeout=60_000)
        # two per data set's tab (one tab shown), the CD diagram, the simplex, Figs. 5, 6 and 7 (u65, u80)
        expect(page.get_by_test_id("stPlotlyChart")).to_have_count(2 + 2 + 1 + 1 + 4, timeout=240_000)
        expect(page.get_by_text("the table scrolls sideways").first).to_be_visible()
        expect(page.get_by_text("the verdict first")).to_have_count(1)
        expect(page.get_by_test_id("stStatusWidget")).to_have_count(0, timeout=120_000)
        page.wait_for_timeout(1000)
        assert page.evaluate(CLIPPED_TITLES) == []
        _shots(page, f"compare_{width}x{height}")
