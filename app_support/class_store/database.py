"""Where class state lives: the database URL (``CREDAL_CLASS_DB``), the engine, and the versioned schema.

SQLite by default — a file under the app's data folder (``.data/classes.sqlite``, git-ignored), in WAL
mode so that every server process reads while one writes — or PostgreSQL when ``CREDAL_CLASS_DB`` is
``postgresql://user:password@host/db`` (one class served from several hosts).  The same SQL runs on
both (SQLAlchemy Core, every value a bound parameter).  The schema is created on first use; its
version is kept in ``class_schema`` and a database written by a newer version is refused.
"""
from __future__ import annotations

import os
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy import event

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_PATH = ROOT / ".data" / "classes.sqlite"
SCHEMA_VERSION = 1
_PG_LOCK = 7_265_311      # pg_advisory_xact_lock key: one schema creation at a time across processes

TABLES = [
    """CREATE TABLE IF NOT EXISTS class_schema (version INTEGER NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS classes (
        code VARCHAR(16) PRIMARY KEY, lesson_id VARCHAR(64) NOT NULL, teacher_hash VARCHAR(64) NOT NULL,
        unlocked_step INTEGER NOT NULL, version BIGINT NOT NULL,
        created_at DOUBLE PRECISION NOT NULL, expires_at DOUBLE PRECISION NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS students (
        code VARCHAR(16) NOT NULL, student VARCHAR(64) NOT NULL, nickname VARCHAR(24),
        joined_at DOUBLE PRECISION NOT NULL, PRIMARY KEY (code, student))""",
    """CREATE TABLE IF NOT EXISTS answers (
        code VARCHAR(16) NOT NULL, student VARCHAR(64) NOT NULL, question VARCHAR(64) NOT NULL,
        answer VARCHAR(200) NOT NULL, is_right SMALLINT, answered_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (code, student, question))""",
    """CREATE INDEX IF NOT EXISTS answers_by_question ON answers (code, question)""",
    """CREATE TABLE IF NOT EXISTS reveals (
        code VARCHAR(16) NOT NULL, question VARCHAR(64) NOT NULL, revealed_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (code, question))""",
    """CREATE TABLE IF NOT EXISTS results (
        code VARCHAR(16) NOT NULL, student VARCHAR(64) NOT NULL, step INTEGER NOT NULL,
        value DOUBLE PRECISION NOT NULL, recorded_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (code, student, step))""",
    """CREATE TABLE IF NOT EXISTS join_attempts (
        session VARCHAR(64) NOT NULL, attempted_at DOUBLE PRECISION NOT NULL)""",
    """CREATE INDEX IF NOT EXISTS join_attempts_by_session ON join_attempts (session, attempted_at)""",
]
CLASS_TABLES = ("answers", "reveals", "results", "students", "classes")   # every row of a class


def resolve_url(value: str | None = None) -> str:
    """The SQLAlchemy URL for ``value`` (default: ``CREDAL_CLASS_DB``, else the SQLite file).

    ``postgresql://`` / ``postgres://`` use psycopg 3; ``sqlite:///path`` or a plain path is a SQLite
    file.  Anything else is refused (the message never repeats the URL: it may hold a password)."""
    value = os.environ.get("CREDAL_CLASS_DB", "") if value is None else value
    value = value.strip()
    if not value:
        return f"sqlite:///{DEFAULT_PATH}"
    for prefix in ("postgresql+psycopg://", "postgresql://", "postgres://"):
        if value.startswith(prefix):
            return "postgresql+psycopg://" + value[len(prefix):]
    if value.startswith("sqlite:///"):
        return value
    if "://" in value:
        raise ValueError("CREDAL_CLASS_DB must be a postgresql:// URL, a sqlite:/// URL or a file path")
    return f"sqlite:///{Path(value).expanduser().resolve()}"


def class_days(value: str | None = None) -> float:
    """Days a class lives (``CREDAL_CLASS_DAYS``, default 7): a positive number."""
    value = os.environ.get("CREDAL_CLASS_DAYS", "7") if value is None else value
    try:
        days = float(value)
    except ValueError:
        days = float("nan")
    if not days > 0 or days == float("inf"):
        raise ValueError(f"CREDAL_CLASS_DAYS must be a positive number of days; got {value!r:.40}")
    return days


def make_engine(url: str) -> sa.Engine:
    """An engine for a resolved URL.  SQLite: the folder made, WAL, a 30-s wait for the write lock."""
    if url.startswith("sqlite"):
        path = url[len("sqlite:///"):]
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = sa.create_engine(url, connect_args={"timeout": 30, "check_same_thread": False},
                                  pool_size=8, max_overflow=24)

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection, _record):
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA busy_timeout=30000")
            cursor.close()

        return engine
    return sa.create_engine(url, pool_size=8, max_overflow=24, pool_pre_ping=True)


def create_schema(engine: sa.Engine) -> int:
    """Create the tables if missing and record :data:`SCHEMA_VERSION`; returns the stored version.

    Raises ``RuntimeError`` for a database written by a newer version of the app."""
    with engine.begin() as conn:
        if engine.dialect.name == "postgresql":
            conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": _PG_LOCK})
        for statement in TABLES:
            conn.execute(sa.text(statement))
        stored = conn.execute(sa.text("SELECT MAX(version) FROM class_schema")).scalar()
        if stored is None:
            conn.execute(sa.text("INSERT INTO class_schema (version) VALUES (:v)"), {"v": SCHEMA_VERSION})
            stored = SCHEMA_VERSION
        if stored > SCHEMA_VERSION:
            raise RuntimeError(f"the class database has schema version {stored}, newer than this app's "
                               f"{SCHEMA_VERSION}: update the app, or point CREDAL_CLASS_DB elsewhere")
        # (a later version adds its migrations here, from `stored` up to SCHEMA_VERSION)
    return stored
