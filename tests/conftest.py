"""Test-run settings shared by every test directory.

Hypothesis profiles: ``ci`` (the default: the examples each test asks for) and ``fast`` (at most 15
examples per property, for ``bash scripts/test.sh --fast``); chosen by ``HYPOTHESIS_PROFILE``.
"""
from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

from app_support.registry import pages as registered_pages

_SHARED_DIR = pytest.StashKey[str]()

settings.register_profile("ci", deadline=None)
settings.register_profile("fast", deadline=None, max_examples=15)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


# The inner loop (`scripts/test.sh --fast`) leaves out, besides the browser tests, whole families that
# take most of the suite's time: page runs (AppTest), serving and load tests, the brute-force
# cross-check suites and the reference (JNCC2, Weka, UCI) reproductions.  The full run keeps them all.
SLOW_DIRS = ("pages", "benchmarks", "reference")
SLOW_FILES = {
    "test_crosscheck_ncc.py", "test_crosscheck_lncc.py", "test_crosscheck_threshold.py",
    "test_lncc_fast_path.py", "test_aode_dominance.py", "test_aode_dominance_comp.py",
    "test_aode_credal_models.py", "test_aode_estimators.py", "test_aode_missing_and_weka.py",
    "test_aode_properties.py", "test_aode_reference.py", "test_aode_sklearn.py", "test_hard_data.py",
    "test_lncc_missing.py", "test_ncc2.py", "test_missing_values.py", "test_packaging.py", "test_dask.py",
    "test_sweeps.py", "test_cli.py", "test_consolidation.py", "test_paper_004.py", "test_compare.py",
    "test_cma.py", "test_tree.py", "test_reject.py",
    "test_arff.py", "test_csv_loader.py", "test_cache_and_missing.py", "test_sklearn_compat.py",
    "test_properties.py", "test_threshold.py", "test_discretise.py", "test_pairwise.py", "test_schema.py",
    "test_balloons.py", "test_brute_force_self.py", "test_aode_weights_model.py", "test_jobs.py",
    "test_evaluate.py",
    "test_stats.py", "test_sample_datasets.py", "test_preparation.py", "test_counts.py",
}


# The longest tests start first: scripts/test.sh hands the tests out in this order, one at a time
# (`--dist load --maxschedchunk 1`), so the browser and serving tests, which mostly wait for servers and
# browsers, start while the other workers fill those waits with CPU-bound tests, and no worker is left
# running a long test alone at the end. Files not listed keep their order, after these. Tests of one
# module may run in different workers, so a module-scoped fixture can be built once per worker: keep
# such fixtures cheap, or share across processes (the browser tests' one Streamlit server).
# The browser tests come first (the longest measured first, then every other registered page's, in the
# app's order: app_support/registry.py), then the long tests of the other families.
LONG_FIRST = (
    "test_layout_overflow_browser.py", "test_present_mode_browser.py", "test_class_failover_browser.py",
    "test_serve_proxy_browser.py", "test_aode_weights_browser.py", "test_classifier_selection_browser.py",
    "test_profile_likelihood_browser.py",
    *(f"test_{entry.stem}_browser.py" for entry in registered_pages(existing_only=False)),
    "test_compare_stop_browser.py", "test_dask.py", "test_packaging.py",
    "test_load_test.py", "test_cli.py", "test_lncc_missing.py", "test_crosscheck_lncc.py",
    "test_lncc_kernels.py", "test_ncc2.py", "test_crosscheck_ncc.py", "test_profile.py", "test_hard_data.py",
)


def pytest_collection_modifyitems(config, items):
    for item in items:
        path = item.path
        if path.name in SLOW_FILES or any(part in SLOW_DIRS for part in path.parts[-3:-1]):
            item.add_marker(pytest.mark.slow)
        # A browser test that fails is run once more (pytest-rerunfailures; the summary counts each
        # "rerun"): on 2 loaded cores a page's run can outlast a wait, and one such timeout would fail the
        # whole CI run.  A test failing twice fails; a test that needed a rerun is to be made robust (see
        # the waits in tests/browser/test_lessons_browser.settled), not left to the rerun.
        if item.get_closest_marker("browser") is not None and item.get_closest_marker("flaky") is None:
            item.add_marker(pytest.mark.flaky(reruns=1))
    rank = {name: i for i, name in enumerate(dict.fromkeys(LONG_FIRST))}     # first place of each
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))     # stable: the rest keep order


def pytest_configure(config):
    # The controller (or a run without xdist) gives the run a directory for what its test processes
    # share — the one Streamlit server of the browser tests (tests/browser/_server.py); xdist's workers
    # are started after this hook and inherit the variable.
    if hasattr(config, "workerinput") or os.environ.get("CREDAL_TEST_SHARED"):
        return
    shared = tempfile.mkdtemp(prefix="credal-tests-")
    os.environ["CREDAL_TEST_SHARED"] = shared
    config.stash[_SHARED_DIR] = shared


def pytest_unconfigure(config):
    # The pages' job pools (app_support.jobs) started by this test process's page runs: ended here, not
    # by the graceful shutdown at interpreter exit, which waits for each spawned worker to tear down its
    # interpreter (about a second, in series with the end of the run). No test is running any more.
    import multiprocessing

    for child in multiprocessing.active_children():
        try:
            child.kill()
        except AttributeError:      # a child started by another library's Popen class (no kill)
            child.terminate()
    shared = config.stash.get(_SHARED_DIR, None)
    if shared is None:
        return
    sys.path.insert(0, str(Path(__file__).parent / "browser"))
    try:
        from _server import stop_shared_server

        stop_shared_server(Path(shared))
    finally:
        sys.path.pop(0)
        os.environ.pop("CREDAL_TEST_SHARED", None)
        shutil.rmtree(shared, ignore_errors=True)

