"""serve.sh's command line (serving.options): defaults, every option, and each refusal."""
from __future__ import annotations

from pathlib import Path

import pytest

from serving.options import Options, UsageError, cores, parse


def test_defaults_follow_the_port_and_the_cores():
    o = parse([])
    assert (o.workers, o.port, o.worker_base_port, o.host) == (cores(), 8501, 8502, "127.0.0.1")
    assert o.with_proxy and o.backends == () and o.extra == () and o.run_dir is None
    assert parse(["--port", "9000"]).worker_base_port == 9001           # P + 1 unless given


def test_every_option_and_the_arguments_after_the_double_dash():
    o = parse(["--workers", "3", "--port", "8600", "--host", "0.0.0.0", "--worker-base-port", "9100",
               "--run-dir", "/tmp/x", "--backend", "10.0.0.12:8502", "--backend", "box:8503",
               "--worker-address", "10.0.0.5", "--", "--theme.base", "dark", "--workers", "9"])
    assert o == Options(workers=3, port=8600, host="0.0.0.0", worker_base_port=9100, run_dir=Path("/tmp/x"),
                        backends=("10.0.0.12:8502", "box:8503"), worker_address="10.0.0.5",
                        with_proxy=True, extra=("--theme.base", "dark", "--workers", "9"))
    assert o.worker_ports() == [9100, 9101, 9102]
    assert o.probe_host == "127.0.0.1" and o.local_worker_host == "10.0.0.5"


@pytest.mark.parametrize("address", ["0.0.0.0", "*", "::", "[::]"])
def test_a_wildcard_worker_address_is_reached_on_the_loopback(address):
    assert parse(["--worker-address", address]).local_worker_host == "127.0.0.1"


def test_worker_machine_and_proxy_only():
    assert parse(["--no-proxy", "--workers", "2"]).with_proxy is False
    proxy_only = parse(["--workers", "0", "--backend", "h:1"])
    assert proxy_only.workers == 0 and proxy_only.worker_ports() == []


@pytest.mark.parametrize("argv, message", [
    (["--workers", "two"], "--workers takes a count"),
    (["--workers", "-1"], "--workers takes a count"),
    (["--port", "0"], "--port a port number"),
    (["--port", "http"], "--port a port number"),
    (["--worker-base-port", "x"], "--worker-base-port takes a port number"),
    (["--port", "65535"], "above 65535"),
    (["--workers", "0"], "nothing to serve"),
    (["--workers", "0", "--no-proxy", "--backend", "h:1"], "nothing to serve"),
    (["--backend", "h"], "HOST:PORT"),
    (["--backend", "http://h:1"], "HOST:PORT"),
    (["--backend", "h:port"], "HOST:PORT"),
    (["--bogus"], "unrecognized arguments: --bogus"),
    (["--workers"], "expected one argument"),
])
def test_a_command_line_it_cannot_run_is_refused_with_the_reason(argv, message):
    with pytest.raises(UsageError, match=message):
        parse(argv)


def test_main_reports_a_usage_error_in_one_line_with_status_2(capsys):
    from serving.supervisor import main

    assert main(["--prog", "serve.sh", "--workers", "two"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("serve.sh: --workers takes a count") and err.count("\n") == 1
