#!/usr/bin/env bash
# Start the app on http://127.0.0.1:${PORT:-8501} (creates .venv and installs requirements.txt if needed).
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/_venv.sh
ensure_venv requirements.txt
warm_kernels

exec .venv/bin/streamlit run app.py --server.address 127.0.0.1 --server.port "${PORT:-8501}"
