#!/usr/bin/env bash
# Start the app on http://127.0.0.1:${PORT:-8501} (creates .venv and installs requirements.txt if needed).
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/_venv.sh
ensure_venv requirements.txt
warm_kernels

# serving.worker: Streamlit with its legacy pages mode off, so a first link to /class?code=… opens the class
# (not a "Page not found" dialog: the URL path differs from the page file name)
exec .venv/bin/python -m serving.worker run app.py --server.address 127.0.0.1 --server.port "${PORT:-8501}"
