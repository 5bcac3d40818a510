"""The processes of serve.sh: N Streamlit workers and HAProxy, started, watched and stopped together.

Why each piece (measured; see docs/serving_a_class.md):

- One Streamlit process runs every session's script in threads of one interpreter: it never uses much
  more than one core, and under load the interpreter lock's hand-off burns kernel time. N processes,
  each pinned to its own core (``taskset``), scale with the cores.
- A session lives in one process (its websocket, widget state, uploaded files), so every request of a
  browser must reach the same worker: HAProxy's cookie does that (``haproxy.cfg.template``).
- ``--runner.postScriptGC false``: Streamlit's ``gc.collect(2)`` after every script run dominated the
  server's CPU under load (CPU per rerun 0.17 -> 0.08 s without it).
- Health checks take a dead or hung worker out of rotation; a worker that exits is restarted (up to
  :data:`MAX_RESTARTS` times); when HAProxy exits, everything stops.
- Workers start through :mod:`serving.worker` (Streamlit's command line with its legacy pages-directory
  mode off): a fresh or restarted worker's first link, e.g. a student's ``/class?code=…``, lands in
  app.py's navigation instead of popping up "Page not found".
- Every worker gets the same cookie secret (through the environment, not the command line), so cookies
  signed by one worker stay valid when HAProxy redispatches a browser to another.
"""
from __future__ import annotations

import http.client
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from . import haproxy
from .options import Options, UsageError, cores, parse

ROOT = Path(__file__).resolve().parents[1]
MAX_RESTARTS = 5
WORKER_START_S = 180
PROXY_START_S = 30


class Stop(Exception):
    """Leave the supervisor with this exit status (a signal, or a start that failed)."""

    def __init__(self, status: int):
        super().__init__(status)
        self.status = status


def port_in_use(port: int, host: str = "127.0.0.1") -> bool:
    """Something accepts connections on ``host:port``."""
    try:
        with socket.create_connection((host, port), timeout=1):
            return True
    except OSError:
        return False


def healthy(host: str, port: int) -> bool:
    """Streamlit's ``/_stcore/health`` answers 200.  Anything else is "not (yet) healthy": a refused or
    reset connection, a time-out, or a reply that is not HTTP (a worker still starting, or another
    program on the port: http.client's BadStatusLine is no OSError)."""
    try:
        with urllib.request.urlopen(f"http://{host}:{port}/_stcore/health", timeout=2) as response:
            return response.status == 200
    except (OSError, http.client.HTTPException):
        return False


class Supervisor:
    """The children of one serve.sh.  ``command(i, port)`` gives worker ``i``'s command (default:
    ``streamlit run app.py`` headless through :mod:`serving.worker`, on ``options.worker_address:port``);
    ``say`` reports progress."""

    def __init__(self, options: Options, run_dir: Path, *, command=None, say=None, cwd: Path = ROOT):
        self.options, self.run_dir, self.cwd = options, run_dir, cwd
        self.command = command or self.streamlit_command
        self.say = say or (lambda text: print(f"serve.sh: {text}", file=sys.stderr, flush=True))
        self.workers: dict[int, subprocess.Popen] = {}
        self.restarts: dict[int, int] = {}
        self.proxy: subprocess.Popen | None = None
        self.pin = shutil.which("taskset") is not None
        self.cores = cores()
        # CREDAL_WARM=1: a page may compute its sliders' steps in the background once a class opens it
        # (app_support/earlier_credal/model.py); CREDAL_WARM=0 in serve.sh's environment turns it off
        self.env = {**os.environ, "PYTHONUNBUFFERED": "1", "CREDAL_WARM": os.environ.get("CREDAL_WARM", "1"),
                    "STREAMLIT_SERVER_COOKIE_SECRET": os.environ.get("STREAMLIT_SERVER_COOKIE_SECRET")
                    or secrets.token_hex(32)}

    def streamlit_command(self, i: int, port: int) -> list[str]:
        # serving.worker: Streamlit's command line with the legacy pages mode off (app_support.routing)
        return [sys.executable, "-m", "serving.worker", "run", "app.py",
                "--server.address", self.options.worker_address, "--server.port", str(port),
                "--server.headless", "true", "--browser.gatherUsageStats", "false",
                "--server.fileWatcherType", "none", "--runner.postScriptGC", "false", *self.options.extra]

    def check_ports(self) -> None:
        ports = ([self.options.port] if self.options.with_proxy else []) + self.options.worker_ports()
        for p in ports:
            if port_in_use(p, self.options.local_worker_host) or port_in_use(p):
                self.say(f"port {p} is already in use (choose --port / --worker-base-port)")
                raise Stop(1)

    def start_worker(self, i: int) -> None:
        cmd = self.command(i, self.options.worker_base_port + i)
        if self.pin:   # one core each while there are enough; otherwise round-robin over the cores
            cmd = ["taskset", "-c", str(i % self.cores), *cmd]
        with open(self.run_dir / f"worker-{i}.log", "ab") as log:
            self.workers[i] = subprocess.Popen(cmd, cwd=self.cwd, env=self.env, stdout=log,
                                               stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)

    def wait_healthy(self, i: int, seconds: float = WORKER_START_S) -> bool:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.workers[i].poll() is not None:
                return False
            if healthy(self.options.local_worker_host, self.options.worker_base_port + i):
                return True
            time.sleep(0.3)
        return False

    def start_workers(self) -> None:
        for i in range(self.options.workers):
            self.start_worker(i)
        for i in range(self.options.workers):
            if not self.wait_healthy(i):
                log = self.run_dir / f"worker-{i}.log"
                tail = "\n".join(log.read_text(errors="replace").splitlines()[-20:]) if log.exists() else ""
                self.say(f"worker {i} did not start; its log ({log}) ends with:\n{tail}")
                raise Stop(1)

    def describe_workers(self) -> str:
        o = self.options
        if o.workers == 0:
            return "no local worker"
        pinning = "each pinned to one core"
        if not self.pin:
            pinning = "not pinned (taskset missing)"
        elif o.workers > self.cores:
            pinning = f"pinned round-robin to {self.cores} cores"
        last = o.worker_base_port + o.workers - 1
        return f"{o.workers} Streamlit workers ({o.worker_address}:{o.worker_base_port}-{last}, {pinning})"

    def start_proxy(self, executable: str) -> None:
        config = self.run_dir / "haproxy.cfg"
        config.write_text(haproxy.render(self.options, self.run_dir))
        haproxy.check(config, executable)
        with open(self.run_dir / "haproxy.log", "ab") as log:
            self.proxy = subprocess.Popen([executable, "-db", "-f", str(config)], stdout=log,
                                          stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + PROXY_START_S
        while not port_in_use(self.options.port, self.options.probe_host):
            if self.proxy.poll() is not None or time.monotonic() > deadline:
                self.say(f"HAProxy did not start; {self.run_dir}/haproxy.log:\n"
                         + (self.run_dir / "haproxy.log").read_text(errors="replace"))
                raise Stop(1)
            time.sleep(0.1)

    def step(self) -> None:
        """One look at the children: a worker that exited is restarted; raises Stop(1) if HAProxy exited."""
        if self.proxy is not None and self.proxy.poll() is not None:
            self.say(f"HAProxy exited; stopping ({self.run_dir}/haproxy.log)")
            raise Stop(1)
        for i, proc in list(self.workers.items()):
            if proc.poll() is None:
                continue
            del self.workers[i]
            self.restarts[i] = self.restarts.get(i, 0) + 1
            log = self.run_dir / f"worker-{i}.log"
            if self.restarts[i] > MAX_RESTARTS:
                self.say(f"worker {i} exited {self.restarts[i]} times; leaving it down ({log})")
            else:
                self.say(f"worker {i} exited; restarting it ({log})")
                time.sleep(1)
                self.start_worker(i)

    def stop(self, grace_s: float = 10.0) -> None:
        """SIGTERM to every child (Streamlit stops its sessions), SIGKILL to those alive after ``grace_s``."""
        children = [*self.workers.values(), *([self.proxy] if self.proxy else [])]
        for proc in children:
            if proc.poll() is None:
                proc.terminate()
        deadline = time.monotonic() + grace_s
        for proc in children:
            try:
                proc.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        self.workers.clear()
        self.proxy = None


def _raise_stop(signum, _frame):
    raise Stop(128 + signum)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    prog = "serving"
    if argv[:1] == ["--prog"] and len(argv) > 1:
        prog, argv = argv[1], argv[2:]
    say = lambda text: print(f"{prog}: {text}", file=sys.stderr, flush=True)  # noqa: E731
    try:
        options = parse(argv, prog)
    except UsageError as exc:
        say(str(exc))
        return 2
    executable = haproxy.ensure_installed() if options.with_proxy else None
    own_run_dir = options.run_dir is None
    run_dir = Path(tempfile.mkdtemp(prefix="credal-serve.")) if own_run_dir else options.run_dir
    run_dir.mkdir(parents=True, exist_ok=True)
    run_dir = run_dir.resolve()
    supervisor = Supervisor(options, run_dir, say=say)
    signal.signal(signal.SIGTERM, _raise_stop)
    signal.signal(signal.SIGINT, _raise_stop)
    status = 0
    try:
        supervisor.check_ports()
        supervisor.start_workers()
        said = supervisor.describe_workers()
        if executable is None:
            say(f"serving {said} without a proxy; logs in {run_dir}")
        else:
            supervisor.start_proxy(executable)
            remote = (f" and {len(options.backends)} on other machines ({' '.join(options.backends)})"
                      if options.backends else "")
            say(f"serving http://{options.host}:{options.port}/ : {said}{remote} behind HAProxy; "
                f"config and logs in {run_dir}")
        say("ready")
        while True:
            supervisor.step()
            time.sleep(0.3)
    except Stop as stop:
        status = stop.status
    except subprocess.CalledProcessError as exc:
        say(f"{exc.cmd[0]} failed (status {exc.returncode})")
        status = 1
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)     # one stop at a time
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        supervisor.stop()
        if own_run_dir:
            shutil.rmtree(run_dir, ignore_errors=True)
        say("stopped")
    return status
