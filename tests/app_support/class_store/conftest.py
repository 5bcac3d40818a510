"""Both backends for every class-store test: a SQLite file per test, and a database per test on a
throwaway PostgreSQL cluster (Debian's ``postgresql``: ``initdb`` + ``pg_ctl`` on a Unix socket in a
temporary folder, no TCP port; run as the ``postgres`` user when the tests run as root; stopped at the
end).  The PostgreSQL tests skip only when the server's binaries are absent, and say so."""
from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from app_support.class_store import ClassStore

BACKENDS = ("sqlite", "postgresql")


class Clock:
    """Seconds since the epoch, moved by the tests (``clock.now += 61``)."""

    def __init__(self, now: float = 1.8e9):
        self.now = now

    def __call__(self) -> float:
        return self.now


def _pg_bin() -> Path | None:
    found = shutil.which("pg_ctl")
    if found:
        return Path(os.path.realpath(found)).parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(p.split("/")[4]))
    return Path(versions[-1]).parent if versions else None


class Cluster:
    """A PostgreSQL cluster in a temporary folder, reached through its Unix socket."""

    def __init__(self, bin_dir: Path):
        self.bin = bin_dir
        self.dir = Path(tempfile.mkdtemp(prefix="credal-pg-"))
        self.data, self.port = self.dir / "data", 5432
        self.as_user: list[str] = []
        if os.geteuid() == 0:          # initdb and postgres refuse to run as root
            try:
                user = pwd.getpwnam("postgres")
            except KeyError:
                pytest.skip("running as root and there is no 'postgres' user to run the PostgreSQL server as")
            os.chown(self.dir, user.pw_uid, user.pw_gid)
            self.as_user = ["runuser", "-u", "postgres", "--"]
        self.names = itertools.count()

    def run(self, *cmd: str) -> None:
        subprocess.run([*self.as_user, *cmd], check=True, capture_output=True, cwd=self.dir)

    def start(self) -> None:
        self.run(str(self.bin / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "credal", "-N",
                 "-E", "UTF8", "--locale=C")
        options = f"-c listen_addresses='' -k {self.dir} -p {self.port} -c fsync=off -c max_connections=200"
        self.run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", options, "-l", str(self.dir / "log"),
                 "-w", "-t", "60", "start")

    def stop(self) -> None:
        try:
            self.run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://credal@/{database}?host={self.dir}&port={self.port}"

    def new_database(self) -> str:
        import psycopg

        name = f"class_test_{next(self.names)}"
        with psycopg.connect(host=str(self.dir), port=self.port, user="credal", dbname="postgres",
                             autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")           # a fixed, generated name
        return self.url(name)


@pytest.fixture(scope="session")
def pg_cluster():
    bin_dir = _pg_bin()
    if bin_dir is None or not (bin_dir / "initdb").exists():
        pytest.skip("PostgreSQL server binaries (initdb, pg_ctl) are not installed: `apt-get install "
                    "postgresql` (scripts/test.sh installs them)")
    cluster = Cluster(bin_dir)
    try:
        cluster.start()
    except subprocess.CalledProcessError as exc:
        log = (cluster.dir / "log").read_text() if (cluster.dir / "log").exists() else ""
        cluster.stop()
        raise RuntimeError(f"the throwaway PostgreSQL cluster did not start: {exc.stderr!r}\n{log}") from None
    yield cluster
    cluster.stop()


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture(params=BACKENDS)
def db_url(request, tmp_path):
    """A fresh, empty database of each backend."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'classes.sqlite'}"
    return request.getfixturevalue("pg_cluster").new_database()


@pytest.fixture
def store(db_url, clock):
    s = ClassStore(db_url, clock=clock)
    yield s
    s.close()
