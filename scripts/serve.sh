#!/usr/bin/env bash
# Serve a class: N Streamlit processes behind HAProxy (sticky sessions, websocket upgrade, health checks).
#
#   bash scripts/serve.sh --workers 4 --port 8501
#
# Options (all optional):
#   --workers N           Streamlit processes (default: the number of cores)
#   --port P              the proxy's port, the one students open (default 8501)
#   --host H              the proxy's address (default 127.0.0.1: this machine only; give the address of
#                         the classroom network's interface, or 0.0.0.0, to serve other machines)
#   --worker-base-port B  worker i listens on B+i (default P+1)
#   --run-dir DIR         where the generated haproxy.cfg and the logs go (default: a new temporary
#                         directory, removed on exit; a given DIR is kept)
#   --                    everything after it is passed to every `streamlit run`
# More than one machine (see docs/serving_a_class.md):
#   --backend HOST:PORT   a worker on another machine, added behind the same proxy (repeatable);
#                         --workers 0 then runs the proxy alone
#   --worker-address A    the address local workers listen on (default 127.0.0.1; a worker machine
#                         gives its address on the network between it and the proxy)
#   --no-proxy            start the workers only (on a worker machine), no HAProxy
#
# Why each piece:
# - One Streamlit process runs every session's script in threads of one interpreter: it never uses much
#   more than one core, and under load the interpreter lock's hand-off burns kernel time. N processes,
#   each pinned to its own core, scale with the cores.
# - A session lives in one process (its websocket, widget state, uploaded files), so every request of a
#   browser must reach the same worker. HAProxy inserts a cookie naming the worker on the first response;
#   the websocket, `/_stcore/upload_file/...` and the static files then follow it. A classroom often sits
#   behind one NAT address, so hashing the source address would put the whole class on one worker.
# - `--runner.postScriptGC false`: Streamlit runs gc.collect(2) after every script run by default; under
#   load that full collection dominated the server's CPU (74 % of the samples on the profile page with 30
#   students; CPU per rerun 0.17 -> 0.08 s without it). Python's ordinary generational GC still runs.
# - Health checks on `/_stcore/health` take a dead or hung worker out of rotation; `option redispatch`
#   sends its students (who then start a new session) to a live one. A worker that exits is restarted.
set -euo pipefail
cd "$(dirname "$0")/.."

workers="$(nproc)"
port=8501
host=127.0.0.1
base_port=""
run_dir=""
worker_address=127.0.0.1
with_proxy=1
backends=()
extra=()
while [ $# -gt 0 ]; do
    case "$1" in
        --workers) workers="$2"; shift 2 ;;
        --port) port="$2"; shift 2 ;;
        --host) host="$2"; shift 2 ;;
        --worker-base-port) base_port="$2"; shift 2 ;;
        --run-dir) run_dir="$2"; shift 2 ;;
        --backend) backends+=("$2"); shift 2 ;;
        --worker-address) worker_address="$2"; shift 2 ;;
        --no-proxy) with_proxy=0; shift ;;
        --) shift; extra=("$@"); break ;;
        -h|--help) sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "serve.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
say() { echo "serve.sh: $*" >&2; }

if ! [[ "$workers" =~ ^[0-9]+$ ]] || ! [[ "$port" =~ ^[0-9]+$ ]] || [ "$port" -lt 1 ]; then
    say "--workers takes a count and --port a port number, not '$workers' / '$port'"
    exit 2
fi
if [ "$workers" -eq 0 ] && { [ "$with_proxy" -eq 0 ] || [ "${#backends[@]}" -eq 0 ]; }; then
    say "nothing to serve: --workers 0 needs --backend HOST:PORT (and the proxy)"
    exit 2
fi
for backend in "${backends[@]}"; do
    if ! [[ "$backend" =~ ^[^:/[:space:]]+:[0-9]+$ ]]; then
        say "--backend takes HOST:PORT, not '$backend'"
        exit 2
    fi
done
base_port="${base_port:-$((port + 1))}"
# where this machine reaches its own workers (health checks, and the proxy when it runs here)
local_worker_host="$worker_address"
case "$worker_address" in 0.0.0.0|"*"|"::"|"[::]") local_worker_host=127.0.0.1 ;; esac

# --- the same .venv as scripts/app.sh
source scripts/_venv.sh
ensure_venv requirements.txt
warm_kernels

# --- HAProxy from Debian, installed like scripts/test.sh installs chromium
if [ "$with_proxy" -eq 1 ] && ! command -v haproxy >/dev/null 2>&1 && [ ! -x /usr/sbin/haproxy ]; then
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then
        SUDO="sudo"
    fi
    $SUDO apt-get update -q
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q haproxy
fi
HAPROXY="$(command -v haproxy || echo /usr/sbin/haproxy)"

# --- run directory (generated config and logs; never inside the repository)
own_run_dir=0
if [ -z "$run_dir" ]; then
    run_dir="$(mktemp -d "${TMPDIR:-/tmp}/credal-serve.XXXXXX")"
    own_run_dir=1
fi
mkdir -p "$run_dir"
run_dir="$(cd "$run_dir" && pwd)"

# --- children: stopped on every way out (Ctrl-C, kill, a failed start)
declare -A worker_pid=()     # worker index -> pid
declare -A worker_restarts=()
proxy_pid=""
cleanup() {
    local status=$?
    trap - EXIT INT TERM
    local pids=("${worker_pid[@]}")
    [ -n "$proxy_pid" ] && pids+=("$proxy_pid")
    if [ "${#pids[@]}" -gt 0 ]; then
        kill -TERM "${pids[@]}" 2>/dev/null || true
        # Streamlit stops its sessions on SIGTERM; give it a few seconds before SIGKILL
        for _ in $(seq 50); do
            local alive=0
            for pid in "${pids[@]}"; do
                if kill -0 "$pid" 2>/dev/null; then alive=1; fi
            done
            [ "$alive" -eq 0 ] && break
            sleep 0.2
        done
        kill -KILL "${pids[@]}" 2>/dev/null || true
        wait 2>/dev/null || true
    fi
    if [ "$own_run_dir" -eq 1 ]; then
        rm -rf "$run_dir"
    fi
    say "stopped"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

port_in_use() { (exec 3<>"/dev/tcp/${2:-127.0.0.1}/$1") 2>/dev/null; }

cores="$(nproc)"
pin_workers=0
if command -v taskset >/dev/null 2>&1; then
    pin_workers=1
fi

start_worker() {
    local i="$1" p=$((base_port + $1))
    local cmd=(.venv/bin/streamlit run app.py
        --server.address "$worker_address" --server.port "$p" --server.headless true
        --browser.gatherUsageStats false --server.fileWatcherType none
        --runner.postScriptGC false "${extra[@]}")
    if [ "$pin_workers" -eq 1 ]; then
        # one core each while there are enough; otherwise round-robin over the cores
        cmd=(taskset -c "$((i % cores))" "${cmd[@]}")
    fi
    # PYTHONUNBUFFERED: the log shows a crash's last words
    PYTHONUNBUFFERED=1 "${cmd[@]}" >>"$run_dir/worker-$i.log" 2>&1 &
    worker_pid[$i]=$!
}

wait_healthy() {   # port, pid, seconds
    local deadline=$((SECONDS + $3))
    while [ "$SECONDS" -lt "$deadline" ]; do
        if ! kill -0 "$2" 2>/dev/null; then
            return 1
        fi
        if .venv/bin/python - "$1" "$local_worker_host" <<'PY' 2>/dev/null
import sys, urllib.request
with urllib.request.urlopen(f"http://{sys.argv[2]}:{sys.argv[1]}/_stcore/health", timeout=2) as r:
    sys.exit(0 if r.status == 200 else 1)
PY
        then
            return 0
        fi
        sleep 0.3
    done
    return 1
}

ports=()
if [ "$with_proxy" -eq 1 ]; then ports+=("$port"); fi
if [ "$workers" -gt 0 ]; then ports+=($(seq "$base_port" $((base_port + workers - 1)))); fi
for p in "${ports[@]}"; do
    if port_in_use "$p" "$local_worker_host" || port_in_use "$p"; then
        say "port $p is already in use (choose --port / --worker-base-port)"
        exit 1
    fi
done

# A cookie secret shared by every worker, so cookies signed by one worker (st.login) stay valid when
# HAProxy redispatches a browser to another. Passed through the environment, not the command line (ps).
STREAMLIT_SERVER_COOKIE_SECRET="$(.venv/bin/python -c 'import secrets; print(secrets.token_hex(32))')"
export STREAMLIT_SERVER_COOKIE_SECRET

for i in $(seq 0 $((workers - 1))); do
    start_worker "$i"
done
for i in $(seq 0 $((workers - 1))); do
    if ! wait_healthy $((base_port + i)) "${worker_pid[$i]}" 180; then
        say "worker $i did not start; its log ($run_dir/worker-$i.log) ends with:"
        tail -n 20 "$run_dir/worker-$i.log" >&2 || true
        exit 1
    fi
done

pinning="each pinned to one core"
if [ "$pin_workers" -eq 0 ]; then
    pinning="not pinned (taskset missing)"
elif [ "$workers" -gt "$cores" ]; then
    pinning="pinned round-robin to $cores cores"
fi
workers_said="$workers Streamlit workers ($worker_address:$base_port-$((base_port + workers - 1)), $pinning)"
[ "$workers" -eq 0 ] && workers_said="no local worker"

if [ "$with_proxy" -eq 0 ]; then
    say "serving $workers_said without a proxy; logs in $run_dir"
else
    # --- HAProxy's configuration
    {
        cat <<EOF
# Generated by scripts/serve.sh; rewritten on every start.
global
    log stdout format raw local0 notice
    maxconn 4096
    stats socket $run_dir/haproxy.sock mode 600 level user

defaults
    mode http
    log global
    option dontlognull
    timeout connect 5s
    # a browser idle before its websocket upgrade; an upload or page request taking long
    timeout client 120s
    timeout server 120s
    timeout http-request 30s
    timeout queue 60s
    # a worker busy with many script runs answers its health check late but is alive: with the default
    # (the check interval, 2 s) a loaded single worker was marked DOWN and new students got 503s
    timeout check 10s
    # an upgraded websocket (Streamlit pings it every 20 s; long runs keep it open meanwhile)
    timeout tunnel 4h
    timeout client-fin 10s

frontend class
    bind $host:$port
    default_backend streamlit

backend streamlit
    # a new browser goes to the worker with the fewest open connections (mostly websockets, one per
    # session); then the cookie keeps it there for the websocket, uploads and static files
    balance leastconn
    cookie CREDAL_WORKER insert indirect nocache httponly attr "SameSite=Lax"
    # a worker marked DOWN keeps the browsers it already has (their sessions live there) while it still
    # answers; one that refuses connections sends them elsewhere
    option persist
    option redispatch
    retries 2
    option httpchk
    http-check send meth GET uri /_stcore/health
    http-check expect status 200
EOF
        for i in $(seq 0 $((workers - 1))); do
            echo "    server w$i $local_worker_host:$((base_port + i)) cookie w$i check inter 3s fall 3 rise 2"
        done
        j=0
        for backend in "${backends[@]}"; do
            echo "    server r$j $backend cookie r$j check inter 3s fall 3 rise 2"
            j=$((j + 1))
        done
    } >"$run_dir/haproxy.cfg"

    "$HAPROXY" -c -q -f "$run_dir/haproxy.cfg"
    "$HAPROXY" -db -f "$run_dir/haproxy.cfg" >>"$run_dir/haproxy.log" 2>&1 &
    proxy_pid=$!
    probe_host="$host"
    case "$host" in 0.0.0.0|"*"|"::"|"[::]") probe_host=127.0.0.1 ;; esac
    deadline=$((SECONDS + 30))
    until port_in_use "$port" "$probe_host"; do
        if ! kill -0 "$proxy_pid" 2>/dev/null || [ "$SECONDS" -ge "$deadline" ]; then
            say "HAProxy did not start; $run_dir/haproxy.log:"
            cat "$run_dir/haproxy.log" >&2 || true
            exit 1
        fi
        sleep 0.1
    done
    remote=""
    [ "${#backends[@]}" -gt 0 ] && remote=" and ${#backends[@]} on other machines (${backends[*]})"
    say "serving http://$host:$port/ : $workers_said$remote behind HAProxy; config and logs in $run_dir"
fi
say "ready"

# --- supervise: restart a worker that exits (HAProxy's health check takes it out meanwhile); stop if the
# proxy exits
while true; do
    exited=""
    wait -n -p exited || true
    [ -z "$exited" ] && continue
    if [ -n "$proxy_pid" ] && [ "$exited" = "$proxy_pid" ]; then
        say "HAProxy exited; stopping ($run_dir/haproxy.log)"
        proxy_pid=""
        exit 1
    fi
    for i in "${!worker_pid[@]}"; do
        if [ "${worker_pid[$i]}" = "$exited" ]; then
            unset "worker_pid[$i]"
            restarts=$(( ${worker_restarts[$i]:-0} + 1 ))
            worker_restarts[$i]=$restarts
            if [ "$restarts" -gt 5 ]; then
                say "worker $i exited $restarts times; leaving it down ($run_dir/worker-$i.log)"
            else
                say "worker $i exited; restarting it ($run_dir/worker-$i.log)"
                sleep 1
                start_worker "$i"
            fi
        fi
    done
done
