#!/usr/bin/env bash
# Run every test, browser tests included (installs Debian's chromium and postgresql and the dev requirements
# if needed), on two worker processes (pytest-xdist; CREDAL_TEST_WORKERS=N for another count). The CPU is busy
# throughout: the browser tests' waits for pages are filled by chromium, the test server and the other
# worker, and a third worker cost more (its own collection, imports, page runtime and job pool; measured
# 705 CPU s and 360 s against 617 CPU s and 325 s). The tests are queued longest first (LONG_FIRST in
# tests/conftest.py) and handed out one at a time (`--maxschedchunk 1`): xdist's default first hands each
# worker a quarter of its share as one block, so one worker got most long tests and ran alone for the
# last ~90 s. `bash scripts/test.sh --fast` is the inner loop: no browser tests, no slow ones, a quarter
# of the random cases and property examples. CREDAL_TEST_DEPTH=3 scales the randomised cross-checks up
# for a deep run (tests/_depth.py). Extra arguments are passed to pytest, e.g.
# `bash scripts/test.sh -k home -x`.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian packages the tests need: chromium (browser tests) and postgresql (the class store's tests run on
# SQLite and on a throwaway PostgreSQL cluster: tests/app_support/class_store/conftest.py).
missing=()
if [ ! -x /usr/bin/chromium ]; then
    missing+=(chromium chromium-driver)
fi
if ! compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null; then
    missing+=(postgresql)
fi
if [ "${#missing[@]}" -gt 0 ]; then
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then
        SUDO="sudo"
    fi
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -q
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
fi

source scripts/_venv.sh
ensure_venv requirements-dev.txt
warm_kernels
# Let Python cache bytecode (and pytest its assertion-rewritten test modules) in __pycache__: some
# environments set PYTHONDONTWRITEBYTECODE, and then every test process recompiles every module it
# imports (~6 s of CPU per xdist worker's collection alone).
unset PYTHONDONTWRITEBYTECODE
# One job worker per app (the pages' long runs; default one per core): every test process that runs a
# page, and every test server, would otherwise spawn two, each importing the computation stack (seconds
# of CPU). The pool's code path is the same with one worker; the engine's parallel runs are tested on
# their own (tests/credal_core/experiments).
export CREDAL_JOB_WORKERS="${CREDAL_JOB_WORKERS:-1}"

if [ "${1:-}" = "--fast" ]; then
    shift
    HYPOTHESIS_PROFILE=fast CREDAL_TEST_DEPTH="${CREDAL_TEST_DEPTH:-0.25}" \
        exec .venv/bin/python -m pytest -q -n 2 -m "not browser and not slow" "$@"
fi

# The shared API contract lives beside the project on the development machine only. A whole run takes it
# in the same pytest run (a run of its own would start and import everything again, seconds in series);
# a run given arguments (a path, -k ...) is followed by it.
PATHS=()
if [ "$#" -eq 0 ] && [ -d ../shared/contract ]; then
    PATHS=(tests ../shared/contract)
fi
.venv/bin/python -m pytest -q -n "${CREDAL_TEST_WORKERS:-2}" --dist load --maxschedchunk 1 ${PATHS[@]+"${PATHS[@]}"} "$@"   # testpaths = ["tests"] (pyproject.toml)

if [ "$#" -ne 0 ] && [ -d ../shared/contract ]; then
    .venv/bin/python -m pytest -q ../shared/contract
fi
