#!/usr/bin/env bash
# Run every test, browser tests included (installs Debian's chromium and the dev requirements if needed).
# Extra arguments are passed to pytest, e.g. `bash scripts/test.sh -k home -x`.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x /usr/bin/chromium ]; then
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then
        SUDO="sudo"
    fi
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -q
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium chromium-driver
fi

if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt

.venv/bin/python -m pytest -q "$@"   # testpaths = ["tests"] (pyproject.toml)

# The shared API contract lives beside the project on the development machine only.
if [ -d ../shared/contract ]; then
    .venv/bin/python -m pytest -q ../shared/contract
fi
