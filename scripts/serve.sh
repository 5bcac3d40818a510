#!/usr/bin/env bash
# Serve a class: N Streamlit processes behind HAProxy (sticky sessions, websocket upgrade, health checks).
#
#   bash scripts/serve.sh --workers 4 --port 8501
#
# Options (all optional; `bash scripts/serve.sh --help` lists them):
#   --workers N           Streamlit processes (default: the number of cores)
#   --port P              the proxy's port, the one students open (default 8501)
#   --host H              the proxy's address (default 127.0.0.1: this machine only; 0.0.0.0 for others)
#   --worker-base-port B  worker i listens on B+i (default P+1)
#   --run-dir DIR         where the generated haproxy.cfg and the logs go (default: a temporary directory)
#   --backend HOST:PORT   a worker on another machine behind the same proxy (repeatable)
#   --worker-address A    the address local workers listen on (default 127.0.0.1)
#   --no-proxy            start the workers only (on a worker machine), no HAProxy
#   --                    everything after it is passed to every `streamlit run`
#
# This script only prepares the same .venv as scripts/app.sh (and the compiled kernels); the work is done
# by the Python package serving/ (options, HAProxy's configuration from serving/haproxy.cfg.template,
# installing HAProxy with apt-get when missing, starting, restarting and stopping the processes). See
# docs/serving_a_class.md. `exec`: signals (Ctrl-C, kill) reach the supervisor directly.
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/_venv.sh
ensure_venv requirements.txt
warm_kernels
exec .venv/bin/python -m serving --prog serve.sh "$@"
