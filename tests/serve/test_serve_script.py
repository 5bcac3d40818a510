"""scripts/serve.sh: a worker on another address behind the proxy, new students alternating between the
workers, a clean stop. No browser: simulated students from benchmarks/load_test.py speak Streamlit's
websocket protocol. Sticky sessions (an upload reaches only the session's worker, refused past the proxy)
are checked with a real browser on the same serve.sh start in tests/browser/test_serve_proxy_browser.py.

serve.sh installs HAProxy with apt-get when it is missing (as scripts/test.sh installs chromium).
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import signal
import subprocess
import time
import urllib.request
from pathlib import Path

import psutil

from benchmarks.load_test import Student, free_port, free_port_block

ROOT = Path(__file__).resolve().parents[2]
CSV = ("patient,fever,cough,age,diagnosis\n" + "\n".join(
    f"p{i},{'yes' if i % 3 else 'no'},{'dry' if i % 4 else 'wet'},{20 + (i * 7) % 50},"
    f"{'flu' if (i % 3 and i % 4) else 'cold'}" for i in range(60)) + "\n").encode()
# Compare with no sample data set and one classifier: the page waits for an upload, cheaply
COMPARE_QUERY = "samples=&folds=2&repeats=1&clf=NBC"


@contextlib.contextmanager
def serve(tmp_path: Path, workers: int, *options: str):
    """Run serve.sh on free ports until it says "ready"; yields (process, proxy URL, first worker port,
    path of its output)."""
    port, base = free_port(), free_port_block(workers)
    output = tmp_path / "serve.out"
    cmd = ["bash", str(ROOT / "scripts" / "serve.sh"), "--workers", str(workers), "--port", str(port),
           "--worker-base-port", str(base), *options]
    with output.open("w") as out:
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 300
        while "serve.sh: ready" not in output.read_text():
            assert proc.poll() is None, f"serve.sh exited early:\n{output.read_text()}"
            assert time.monotonic() < deadline, f"serve.sh not ready:\n{output.read_text()}"
            time.sleep(0.3)
        yield proc, f"http://127.0.0.1:{port}/", base, output
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def test_a_worker_elsewhere_behind_the_proxy_then_a_clean_stop(tmp_path):
    """Two "machines" on one: a worker-only serve.sh on 127.0.0.2, and a proxy with one local worker that
    lists it as a ``--backend``; new browsers alternate between the local and the remote worker. Then the
    proxy's serve.sh stops on SIGTERM and takes every child with it (one serve.sh start checks both: each
    start costs a Streamlit worker's start-up)."""
    worker_port = free_port_block(1)
    remote = tmp_path / "remote"
    remote.mkdir()
    with serve(remote, 1, "--no-proxy", "--worker-address", "127.0.0.2", "--worker-base-port",
               str(worker_port)) as (_, _, _, remote_output):
        assert "without a proxy" in remote_output.read_text()
        with serve(tmp_path, 1, "--backend", f"127.0.0.2:{worker_port}") as (proc, url, _, output):
            run_dir = Path(re.search(r"config and logs in (\S+)", output.read_text()).group(1))
            config = (run_dir / "haproxy.cfg").read_text()
            assert not run_dir.is_relative_to(ROOT)                  # generated outside the repository
            assert f"bind 127.0.0.1:{url.rsplit(':', 1)[1].rstrip('/')}" in config   # this machine only
            assert "cookie CREDAL_WORKER insert" in config              # sticky sessions
            assert "http-check send meth GET uri /_stcore/health" in config
            assert "timeout tunnel" in config                           # upgraded websockets stay open
            assert f"server r0 127.0.0.2:{worker_port}" in config
            with urllib.request.urlopen(url + "_stcore/health", timeout=10) as response:
                assert response.status == 200
                cookies = response.headers.get_all("Set-Cookie")
                assert any(c.startswith(("CREDAL_WORKER=w0;", "CREDAL_WORKER=r0;")) for c in cookies)

            async def drive():
                students = []
                try:
                    for _ in range(4):
                        student = Student(url, timeout=120)
                        students.append(student)
                        await student.open("", "")
                    workers = sorted(s.cookies.get("CREDAL_WORKER") for s in students)
                    assert workers == ["r0", "r0", "w0", "w0"]
                    assert all(s.errors == [] for s in students)
                finally:
                    for student in students:
                        await student.close()

            asyncio.run(drive())

            children = psutil.Process(proc.pid).children(recursive=True)
            commands = [" ".join(child.cmdline()) for child in children]
            assert sum("streamlit run app.py" in c and "--runner.postScriptGC false" in c
                       for c in commands) == 1
            assert any("haproxy" in c for c in commands)
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=30) == 143
            gone, alive = psutil.wait_procs(children, timeout=10)
            assert alive == [], f"left running: {alive}"
            assert not run_dir.exists()                                 # its own temporary directory
