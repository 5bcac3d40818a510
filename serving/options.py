"""serve.sh's command line, parsed and checked (bad input: a clear message and exit status 2)."""
from __future__ import annotations

import argparse
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

ANY_ADDRESS = ("0.0.0.0", "*", "::", "[::]")
_BACKEND = re.compile(r"^[^:/\s]+:[0-9]+$")

DESCRIPTION = """Serve a class: N Streamlit processes behind HAProxy (sticky sessions, websocket upgrade,
health checks). Everything after `--` is passed to every `streamlit run`. More than one machine: see
docs/serving_a_class.md."""


@dataclass(frozen=True)
class Options:
    """The checked command line.  ``extra``: arguments for every ``streamlit run``."""

    workers: int
    port: int = 8501
    host: str = "127.0.0.1"
    worker_base_port: int = 8502
    run_dir: Path | None = None
    backends: tuple[str, ...] = ()
    worker_address: str = "127.0.0.1"
    with_proxy: bool = True
    extra: tuple[str, ...] = field(default=())

    @property
    def local_worker_host(self) -> str:
        """Where this machine reaches its own workers (health checks, and the proxy when it runs here)."""
        return "127.0.0.1" if self.worker_address in ANY_ADDRESS else self.worker_address

    @property
    def probe_host(self) -> str:
        """Where this machine reaches the proxy's port."""
        return "127.0.0.1" if self.host in ANY_ADDRESS else self.host

    def worker_ports(self) -> list[int]:
        return [self.worker_base_port + i for i in range(self.workers)]


class UsageError(Exception):
    """A command line serve.sh cannot run with (reported as ``PROG: message``, exit status 2)."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse's own errors: the same one-line form as ours
        raise UsageError(f"{message} (see --help)")


def cores() -> int:
    """The cores this process may run on (``nproc``)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def parser(prog: str = "serve.sh") -> argparse.ArgumentParser:
    p = _Parser(prog=prog, description=DESCRIPTION)
    p.add_argument("--workers", default=str(cores()),
                   help="Streamlit processes (default: the number of cores)")
    p.add_argument("--port", default="8501", help="the proxy's port, the one students open (default 8501)")
    p.add_argument("--host", default="127.0.0.1",
                   help="the proxy's address (default 127.0.0.1: this machine only; give the address of the "
                        "classroom network's interface, or 0.0.0.0, to serve other machines)")
    p.add_argument("--worker-base-port", default=None, help="worker i listens on B+i (default P+1)")
    p.add_argument("--run-dir", default=None,
                   help="where the generated haproxy.cfg and the logs go (default: a new temporary "
                        "directory, removed on exit; a given DIR is kept)")
    p.add_argument("--backend", action="append", default=[], metavar="HOST:PORT",
                   help="a worker on another machine, added behind the same proxy (repeatable); --workers 0 "
                        "then runs the proxy alone")
    p.add_argument("--worker-address", default="127.0.0.1",
                   help="the address local workers listen on (default 127.0.0.1; a worker machine gives its "
                        "address on the network between it and the proxy)")
    p.add_argument("--no-proxy", action="store_true", help="start the workers only (on a worker machine)")
    return p


def parse(argv: list[str], prog: str = "serve.sh") -> Options:
    """Options from serve.sh's arguments; raises :class:`UsageError` for a command line it cannot run."""
    argv = list(argv)
    extra: list[str] = []
    if "--" in argv:
        cut = argv.index("--")
        argv, extra = argv[:cut], argv[cut + 1:]
    ns = parser(prog).parse_args(argv)
    if not ns.workers.isdigit() or not ns.port.isdigit() or int(ns.port) < 1:
        raise UsageError(f"--workers takes a count and --port a port number, not '{ns.workers}' / "
                         f"'{ns.port}'")
    workers, port = int(ns.workers), int(ns.port)
    given_base = ns.worker_base_port
    if given_base is not None and (not given_base.isdigit() or int(given_base) < 1):
        raise UsageError(f"--worker-base-port takes a port number, not '{ns.worker_base_port}'")
    base = int(ns.worker_base_port) if ns.worker_base_port is not None else port + 1
    if max([port, base + max(workers - 1, 0)]) > 65535:
        raise UsageError("a port above 65535: choose a lower --port / --worker-base-port")
    with_proxy = not ns.no_proxy
    if workers == 0 and (not with_proxy or not ns.backend):
        raise UsageError("nothing to serve: --workers 0 needs --backend HOST:PORT (and the proxy)")
    for backend in ns.backend:
        if not _BACKEND.match(backend):
            raise UsageError(f"--backend takes HOST:PORT, not '{backend}'")
    return Options(workers=workers, port=port, host=ns.host, worker_base_port=base,
                   run_dir=Path(ns.run_dir) if ns.run_dir else None, backends=tuple(ns.backend),
                   worker_address=ns.worker_address, with_proxy=with_proxy, extra=tuple(extra))
