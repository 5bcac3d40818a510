"""serving.supervisor with stand-in workers (a tiny HTTP server answering /_stcore/health): start and
health checks, HAProxy in front (when installed), a worker that dies is restarted and one that keeps
dying is left down, a dead proxy stops everything, a busy port is refused, and stop() leaves nothing."""
from __future__ import annotations

import socket
import sys
import urllib.request

import pytest

from benchmarks.load_test import free_port, free_port_block
from serving import haproxy
from serving.options import parse
from serving.supervisor import MAX_RESTARTS, Stop, Supervisor, healthy

FAKE_WORKER = """
import http.server, sys
class Health(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200); self.send_header("Content-Length", "2"); self.end_headers()
        self.wfile.write(b"ok")
    def log_message(self, *args):
        pass
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Health).serve_forever()
"""


@pytest.fixture
def supervisor(tmp_path):
    fake = tmp_path / "fake_worker.py"
    fake.write_text(FAKE_WORKER)
    options = parse(["--workers", "2", "--port", str(free_port()),
                     "--worker-base-port", str(free_port_block(2))])
    messages: list[str] = []
    sup = Supervisor(options, tmp_path, command=lambda i, port: [sys.executable, str(fake), str(port)],
                     say=messages.append)
    sup.messages = messages
    yield sup
    sup.stop(grace_s=5)


def test_workers_start_restart_and_stop(supervisor, monkeypatch):
    monkeypatch.setattr("serving.supervisor.time.sleep", lambda s: None)   # the 1-s pause before a restart
    supervisor.check_ports()
    supervisor.start_workers()
    ports = supervisor.options.worker_ports()
    assert all(healthy("127.0.0.1", p) for p in ports)
    assert supervisor.cores >= 1 and "Streamlit workers" in supervisor.describe_workers()

    first = supervisor.workers[0]
    first.kill()
    first.wait()
    supervisor.step()
    assert supervisor.workers[0].pid != first.pid and supervisor.restarts == {0: 1}
    assert any(m.startswith("worker 0 exited; restarting it") for m in supervisor.messages)
    monkeypatch.undo()
    assert supervisor.wait_healthy(0, seconds=30)

    supervisor.restarts[1] = MAX_RESTARTS                  # the last allowed restart was used
    supervisor.workers[1].kill()
    supervisor.workers[1].wait()
    supervisor.step()
    assert 1 not in supervisor.workers and any("leaving it down" in m for m in supervisor.messages)

    procs = list(supervisor.workers.values())
    supervisor.stop(grace_s=5)
    assert supervisor.workers == {} and all(p.poll() is not None for p in procs)


def test_a_port_in_use_is_refused_before_anything_starts(supervisor):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", supervisor.options.worker_base_port + 1))
        busy.listen()
        with pytest.raises(Stop) as stop:
            supervisor.check_ports()
    assert stop.value.status == 1 and supervisor.workers == {}
    assert "already in use" in supervisor.messages[-1]


@pytest.mark.skipif(haproxy.executable() is None, reason="HAProxy is not installed (serve.sh installs it)")
def test_the_proxy_sets_the_worker_cookie_and_its_exit_stops_the_supervisor(supervisor):
    supervisor.start_workers()
    supervisor.start_proxy(haproxy.executable())
    assert (supervisor.run_dir / "haproxy.cfg").exists()
    url = f"http://127.0.0.1:{supervisor.options.port}/_stcore/health"
    with urllib.request.urlopen(url, timeout=10) as response:
        assert response.status == 200
        cookies = response.headers.get_all("Set-Cookie")
    assert any(c.startswith(("CREDAL_WORKER=w0;", "CREDAL_WORKER=w1;")) for c in cookies)
    supervisor.proxy.kill()
    supervisor.proxy.wait()
    with pytest.raises(Stop) as stop:
        supervisor.step()
    assert stop.value.status == 1 and "HAProxy exited" in supervisor.messages[-1]


def test_a_reply_that_is_not_http_is_not_healthy():
    """A port that answers something other than HTTP (a worker still starting, another program) is "not
    healthy", not an exception out of the health check."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        import threading

        def garbage():
            conn, _ = server.accept()
            with conn:
                conn.recv(1024)
                conn.sendall(b"\x00\x01 not http\r\n\r\n")
        thread = threading.Thread(target=garbage, daemon=True)
        thread.start()
        assert healthy("127.0.0.1", port) is False
        thread.join(timeout=5)
