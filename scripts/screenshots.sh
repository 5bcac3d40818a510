#!/usr/bin/env bash
# Refresh the README's screenshots: run the browser tests (they save every page), then crop them.
set -euo pipefail
cd "$(dirname "$0")/.."
CREDAL_SCREENSHOTS=1 .venv/bin/python -m pytest -q tests/browser
.venv/bin/python scripts/screenshots.py
