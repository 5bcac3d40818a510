"""HAProxy for serve.sh: the configuration rendered from ``haproxy.cfg.template``, and Debian's package.

Why each setting is there is said in the template itself; the rendering only fills in the run
directory, the proxy's address and one ``server`` line per worker (``w<i>`` on this machine, ``r<j>``
on others), each with its own cookie value and health check.
"""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from string import Template

from .options import Options

TEMPLATE = Path(__file__).with_name("haproxy.cfg.template")
CHECK = "check inter 3s fall 3 rise 2"


def server_lines(options: Options) -> list[str]:
    """One ``server`` line per local worker, then per remote backend."""
    lines = [f"    server w{i} {options.local_worker_host}:{p} cookie w{i} {CHECK}"
             for i, p in enumerate(options.worker_ports())]
    lines += [f"    server r{j} {backend} cookie r{j} {CHECK}" for j, backend in enumerate(options.backends)]
    return lines


def render(options: Options, run_dir: Path) -> str:
    """HAProxy's configuration for these options, its stats socket in ``run_dir``."""
    for name, value in (("run directory", str(run_dir)), ("--host", options.host)):
        if any(c.isspace() for c in value) or "#" in value:   # one token each in HAProxy's syntax
            raise ValueError(f"the {name} {value!r} holds a space or '#': HAProxy cannot take it")
    return Template(TEMPLATE.read_text()).substitute(
        run_dir=run_dir, host=options.host, port=options.port, servers="\n".join(server_lines(options)))


def executable() -> str | None:
    """HAProxy's path, or None when it is not installed."""
    found = shutil.which("haproxy")
    if found:
        return found
    return "/usr/sbin/haproxy" if os.access("/usr/sbin/haproxy", os.X_OK) else None


def ensure_installed() -> str:
    """HAProxy's path, installing Debian's package first when missing (with sudo when not root), as
    scripts/test.sh installs chromium."""
    found = executable()
    if found:
        return found
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run([*sudo, "apt-get", "update", "-q"], check=True, env=env)
    subprocess.run([*sudo, "env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "install", "-y", "-q",
                    "haproxy"], check=True, env=env)
    found = executable()
    if not found:
        raise RuntimeError("apt-get installed haproxy but no haproxy executable was found")
    return found


def check(config_path: Path, haproxy: str) -> None:
    """``haproxy -c``: raises ``CalledProcessError`` (HAProxy's own message on stderr) for a bad config."""
    subprocess.run([haproxy, "-c", "-q", "-f", str(config_path)], check=True)
