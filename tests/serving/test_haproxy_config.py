"""HAProxy's configuration rendered from serving/haproxy.cfg.template: every setting serve.sh relies on,
one server line per worker, and (when HAProxy is installed) HAProxy's own check that it parses."""
from __future__ import annotations

import re
import subprocess

import pytest

from serving import haproxy
from serving.options import parse


def _servers(config: str) -> list[list[str]]:
    return [line.split() for line in config.splitlines() if line.strip().startswith("server ")]


def test_local_workers_then_remote_backends_each_with_its_cookie_and_health_check(tmp_path):
    o = parse(["--workers", "2", "--port", "8600", "--worker-base-port", "9100",
               "--backend", "10.0.0.12:8502", "--backend", "box:8503"])
    servers = _servers(haproxy.render(o, tmp_path))
    assert [s[1:5] for s in servers] == [["w0", "127.0.0.1:9100", "cookie", "w0"],
                                         ["w1", "127.0.0.1:9101", "cookie", "w1"],
                                         ["r0", "10.0.0.12:8502", "cookie", "r0"],
                                         ["r1", "box:8503", "cookie", "r1"]]
    assert all(s[5:] == ["check", "inter", "3s", "fall", "3", "rise", "2"] for s in servers)


def test_the_settings_the_class_depends_on(tmp_path):
    o = parse(["--workers", "1", "--port", "8600", "--host", "0.0.0.0", "--worker-address", "0.0.0.0"])
    config = haproxy.render(o, tmp_path)
    assert "$" not in config                                           # every placeholder filled
    assert re.search(r"^\s+bind 0\.0\.0\.0:8600$", config, re.M)
    assert f"stats socket {tmp_path}/haproxy.sock mode 600" in config
    for setting in ("balance leastconn", "option persist",
                    'cookie CREDAL_WORKER insert indirect nocache httponly attr "SameSite=Lax"',
                    "option redispatch", "http-check send meth GET uri /_stcore/health",
                    "http-check expect status 200", "timeout tunnel 4h", "timeout check 10s"):
        assert re.search(rf"^\s+{re.escape(setting)}$", config, re.M), setting
    assert _servers(config)[0][2] == "127.0.0.1:8601"                  # a wildcard address: via loopback


def test_the_proxy_alone_lists_only_the_remote_workers(tmp_path):
    servers = _servers(haproxy.render(parse(["--workers", "0", "--backend", "h:1"]), tmp_path))
    assert [s[1] for s in servers] == ["r0"]


@pytest.mark.parametrize("options, bad", [(["--host", "a b"], "--host"), ([], "run directory")])
def test_a_value_haproxy_cannot_take_as_one_token_is_refused(tmp_path, options, bad):
    run_dir = tmp_path / ("with space" if bad == "run directory" else "ok")
    with pytest.raises(ValueError, match=bad):
        haproxy.render(parse(options), run_dir)


@pytest.mark.skipif(haproxy.executable() is None, reason="HAProxy is not installed (serve.sh installs it)")
def test_haproxy_accepts_the_rendered_configuration_and_rejects_a_broken_one(tmp_path):
    config = tmp_path / "haproxy.cfg"
    config.write_text(haproxy.render(parse(["--workers", "2", "--backend", "localhost:8502"]), tmp_path))
    haproxy.check(config, haproxy.executable())
    config.write_text(config.read_text().replace("balance leastconn", "balance nonsense"))
    with pytest.raises(subprocess.CalledProcessError):
        haproxy.check(config, haproxy.executable())
