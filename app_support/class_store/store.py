"""ClassStore: every operation of a class session, on one database shared by every server process.

A class is a join code and a lesson.  The teacher holds a secret key (returned once by
:meth:`ClassStore.create_class`, kept only as a hash, checked in constant time on every teacher action);
each student holds a key of their own (from :meth:`ClassStore.join`).  Every write to a class adds one to
its ``version`` in the same transaction, so a page polling :meth:`ClassStore.version` every second reads
one primary-key row and re-reads the rest only when it changed.  Writes to a class begin with that
update, which takes the class's write lock first (SQLite: the database's; PostgreSQL: the row's), so
concurrent answers queue instead of failing and none is lost.
"""
from __future__ import annotations

import csv
import io
import time
from dataclasses import dataclass
from datetime import datetime, timezone

import sqlalchemy as sa

from . import database, rules

JOIN_LIMIT = 5            # joins (or attempts) per browser session ...
JOIN_WINDOW_S = 60.0      # ... per this many seconds
DAY_S = 86_400.0


EXPIRED_GRACE_S = 86_400
"""How long an expired class still answers "expired" (then: no such class) before a join purges it."""


class ClassNotFound(LookupError):
    """No class has this code (mistyped, or deleted, or expired and purged)."""


class ClassExpired(LookupError):
    """The class with this code has expired."""


class NotTeacher(PermissionError):
    """The key given is not this class's teacher key."""


class NotAStudent(PermissionError):
    """The key given is not a key of a student of this class."""


class TooManyJoins(RuntimeError):
    """This browser session tried to join too often; try again in a minute."""


@dataclass(frozen=True)
class ClassState:
    code: str
    lesson_id: str
    unlocked_step: int
    revealed: frozenset
    version: int
    expires_at: float


@dataclass(frozen=True)
class Summary:
    """The class's answers to one question.  ``distribution`` (answer -> count), ``right`` and
    ``share_right`` are None for a student before the reveal (the teacher always sees them)."""

    answered: int
    revealed: bool
    distribution: dict | None
    right: int | None
    share_right: float | None


def _q(sql: str) -> sa.TextClause:
    return sa.text(sql)


class ClassStore:
    """Class sessions on the database at ``url`` (default: ``CREDAL_CLASS_DB``; see :mod:`.database`).

    ``days``: a class's lifetime (default ``CREDAL_CLASS_DAYS``, 7); ``clock``: seconds since the epoch
    (tests move it)."""

    def __init__(self, url: str | None = None, *, days: float | None = None, clock=time.time):
        self.url = database.resolve_url(url)
        self.days = database.class_days(None if days is None else str(days))
        self.clock = clock
        self.engine = database.make_engine(self.url)
        self.schema_version = database.create_schema(self.engine)
        self.purge_expired()            # a server (re)start clears what expired while it was down

    @property
    def backend(self) -> str:
        return self.engine.dialect.name

    def close(self) -> None:
        self.engine.dispose()

    # --- the class's row: found, live, and (in writes) locked and versioned ------------------------
    def _missing(self, conn, code: str) -> LookupError:
        expires = conn.execute(_q("SELECT expires_at FROM classes WHERE code = :code"),
                               {"code": code}).scalar()
        if expires is None:
            return ClassNotFound("no class has this code: check it with your teacher")
        return ClassExpired("this class has expired: ask your teacher for a new code")

    def _code(self, code) -> str:
        found = rules.clean_code(code)
        if found is None:
            raise ClassNotFound("no class has this code: check it with your teacher")
        return found

    def _touch(self, conn, code: str) -> None:
        """The first statement of every write to a class: its version + 1 (the write lock), live only."""
        done = conn.execute(_q("UPDATE classes SET version = version + 1 "
                               "WHERE code = :code AND expires_at > :now"),
                            {"code": code, "now": self.clock()})
        if done.rowcount != 1:
            raise self._missing(conn, code)

    def _teacher(self, conn, code: str, teacher_key) -> None:
        stored = conn.execute(_q("SELECT teacher_hash FROM classes WHERE code = :code"),
                              {"code": code}).scalar()
        if stored is None or not rules.same_key(teacher_key, stored):
            raise NotTeacher("only the class's teacher can do this (the teacher link carries the key)")

    def _student(self, conn, code: str, student_key) -> str:
        if not isinstance(student_key, str) or len(student_key) > 128:
            raise NotAStudent("this browser has not joined the class")
        student = rules.key_hash(student_key)
        found = conn.execute(_q("SELECT 1 FROM students WHERE code = :code AND student = :student"),
                             {"code": code, "student": student}).scalar()
        if found is None:
            raise NotAStudent("this browser has not joined the class")
        return student

    def _live(self, conn, code: str) -> sa.Row:
        row = conn.execute(_q("SELECT lesson_id, unlocked_step, version, expires_at, teacher_hash "
                              "FROM classes WHERE code = :code"), {"code": code}).first()
        if row is None or row.expires_at <= self.clock():
            raise self._missing(conn, code)
        return row

    # --- teacher ------------------------------------------------------------------------------------
    def create_class(self, lesson_id: str) -> tuple[str, str]:
        """A new class on ``lesson_id``: returns (join code, teacher key).  Purges expired classes."""
        rules.check_name(lesson_id, "a lesson id")
        self.purge_expired()
        key, now = rules.new_key(), self.clock()
        for _ in range(10):                  # a clash among 2**40 codes: draw again
            code = rules.new_code()
            try:
                with self.engine.begin() as conn:
                    conn.execute(_q("INSERT INTO classes (code, lesson_id, teacher_hash, unlocked_step, "
                                    "version, created_at, expires_at) "
                                    "VALUES (:code, :lesson, :hash, 0, 1, :now, :expires)"),
                                 {"code": code, "lesson": lesson_id, "hash": rules.key_hash(key), "now": now,
                                  "expires": now + self.days * DAY_S})
                return code, key
            except sa.exc.IntegrityError:
                continue
        raise RuntimeError("could not draw a free join code")

    def set_unlocked_step(self, code, teacher_key, step: int) -> None:
        """Students may go up to ``step`` (0-based); back is always allowed."""
        step, code = rules.check_step(step), self._code(code)
        with self.engine.begin() as conn:
            self._touch(conn, code)
            self._teacher(conn, code, teacher_key)
            conn.execute(_q("UPDATE classes SET unlocked_step = :step WHERE code = :code"),
                         {"step": step, "code": code})

    def reveal(self, code, teacher_key, question: str) -> None:
        """Show the right answer and the class's distribution of ``question`` to the students."""
        question, code = rules.check_name(question, "a question id"), self._code(code)
        with self.engine.begin() as conn:
            self._touch(conn, code)
            self._teacher(conn, code, teacher_key)
            conn.execute(_q("INSERT INTO reveals (code, question, revealed_at) "
                            "VALUES (:code, :question, :now) ON CONFLICT (code, question) DO NOTHING"),
                         {"code": code, "question": question, "now": self.clock()})

    def export_csv(self, code, teacher_key, *, nicknames: bool = False) -> str:
        """The class's answers as CSV: question, answer, right (yes / no / blank), time (UTC, ISO 8601),
        and the nickname only when asked.  Cells that a spreadsheet would run as a formula are quoted."""
        code = self._code(code)
        with self.engine.connect() as conn:
            self._live(conn, code)
            self._teacher(conn, code, teacher_key)
            rows = conn.execute(_q("SELECT a.question, a.answer, a.is_right, a.answered_at, s.nickname "
                                   "FROM answers a JOIN students s "
                                   "ON s.code = a.code AND s.student = a.student WHERE a.code = :code "
                                   "ORDER BY a.question, a.answered_at"), {"code": code}).all()
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["question", "answer", "right", "time"] + (["nickname"] if nicknames else []))
        for r in rows:
            right = "" if r.is_right is None else ("yes" if r.is_right else "no")
            when = datetime.fromtimestamp(r.answered_at, timezone.utc).isoformat(timespec="seconds")
            cells = [r.question, _no_formula(r.answer), right, when]
            writer.writerow(cells + ([_no_formula(r.nickname or "")] if nicknames else []))
        return out.getvalue()

    def roster(self, code, teacher_key) -> list:
        """The students who joined, in order: each one's nickname (None when they gave none); teacher only."""
        code = self._code(code)
        with self.engine.connect() as conn:
            self._live(conn, code)
            self._teacher(conn, code, teacher_key)
            return list(conn.execute(_q("SELECT nickname FROM students WHERE code = :code "
                                        "ORDER BY joined_at"), {"code": code}).scalars())

    def delete_class(self, code, teacher_key) -> None:
        """Delete the class at once, with every student, answer, reveal and result."""
        code = self._code(code)
        with self.engine.begin() as conn:
            self._touch(conn, code)
            self._teacher(conn, code, teacher_key)
            for table in database.CLASS_TABLES:          # fixed names, never user input
                conn.execute(_q(f"DELETE FROM {table} WHERE code = :code"), {"code": code})

    def purge_expired(self, grace: float = 0.0) -> int:
        """Delete every class expired more than ``grace`` seconds ago with all its rows, and join
        attempts older than the window; the number of classes deleted.  Run when a store starts, when a
        class is created and (with a day's grace, so that a late student still reads "expired") when
        someone joins: expired answers do not wait for the next class."""
        now = self.clock() - grace
        with self.engine.begin() as conn:
            conn.execute(_q("DELETE FROM join_attempts WHERE attempted_at < :old"),
                         {"old": self.clock() - JOIN_WINDOW_S})
            for table in database.CLASS_TABLES[:-1]:      # fixed names, never user input
                conn.execute(_q(f"DELETE FROM {table} WHERE code IN "
                                "(SELECT code FROM classes WHERE expires_at <= :now)"), {"now": now})
            return conn.execute(_q("DELETE FROM classes WHERE expires_at <= :now"), {"now": now}).rowcount

    # --- students -----------------------------------------------------------------------------------
    def join(self, code, session: str, nickname: str | None = None) -> str:
        """Join with the code; returns the student's key.  ``session``: the browser session's id —
        :data:`JOIN_LIMIT` attempts (right code or wrong) per :data:`JOIN_WINDOW_S` s, then
        :class:`TooManyJoins`."""
        session = rules.check_name(session, "a session id")
        nickname = rules.check_nickname(nickname)
        self.purge_expired(grace=EXPIRED_GRACE_S)
        now = self.clock()
        with self.engine.begin() as conn:        # counted in a transaction of its own: a wrong code counts
            conn.execute(_q("INSERT INTO join_attempts (session, attempted_at) VALUES (:session, :now)"),
                         {"session": session, "now": now})
            recent = conn.execute(_q("SELECT COUNT(*) FROM join_attempts "
                                     "WHERE session = :session AND attempted_at > :since"),
                                  {"session": session, "since": now - JOIN_WINDOW_S}).scalar()
        if recent > JOIN_LIMIT:
            raise TooManyJoins(f"too many attempts to join from this browser: wait a minute (at most "
                               f"{JOIN_LIMIT} a minute)")
        code = self._code(code)
        key = rules.new_key()
        with self.engine.begin() as conn:
            self._touch(conn, code)
            conn.execute(_q("INSERT INTO students (code, student, nickname, joined_at) "
                            "VALUES (:code, :student, :nickname, :now)"),
                         {"code": code, "student": rules.key_hash(key), "nickname": nickname, "now": now})
        return key

    def submit_answer(self, code, student_key, question: str, answer, right: bool | None = None) -> None:
        """The student's answer to ``question`` (text or a finite number); a new one replaces the old.
        ``right``: whether it is right, as the lesson grades it (None: not graded)."""
        question, code = rules.check_name(question, "a question id"), self._code(code)
        answer = rules.check_answer(answer)
        if right is not None and not isinstance(right, bool):
            raise TypeError(f"right is True, False or None; got {type(right).__name__}")
        with self.engine.begin() as conn:
            self._touch(conn, code)
            student = self._student(conn, code, student_key)
            conn.execute(_q("INSERT INTO answers (code, student, question, answer, is_right, answered_at) "
                            "VALUES (:code, :student, :question, :answer, :right, :now) "
                            "ON CONFLICT (code, student, question) DO UPDATE SET answer = excluded.answer, "
                            "is_right = excluded.is_right, answered_at = excluded.answered_at"),
                         {"code": code, "student": student, "question": question, "answer": answer,
                          "right": None if right is None else int(right), "now": self.clock()})

    def answer_of(self, code, student_key, question: str) -> str | None:
        """This student's stored answer to ``question`` as :meth:`submit_answer` kept it (text; a number
        as its ``repr``), or None: what a page that lost its session (a reload, a reconnect to another
        worker) shows the student again."""
        question, code = rules.check_name(question, "a question id"), self._code(code)
        with self.engine.connect() as conn:
            self._live(conn, code)
            student = self._student(conn, code, student_key)
            return conn.execute(_q("SELECT answer FROM answers WHERE code = :code AND student = :student "
                                   "AND question = :question"),
                                {"code": code, "student": student, "question": question}).scalar()

    def record_result(self, code, student_key, step: int, value: float) -> None:
        """The student's own experiment result at ``step`` (one per student and step; a new one replaces)."""
        step, value, code = rules.check_step(step), rules.check_value(value), self._code(code)
        with self.engine.begin() as conn:
            self._touch(conn, code)
            student = self._student(conn, code, student_key)
            conn.execute(_q("INSERT INTO results (code, student, step, value, recorded_at) "
                            "VALUES (:code, :student, :step, :value, :now) ON CONFLICT (code, student, step) "
                            "DO UPDATE SET value = excluded.value, recorded_at = excluded.recorded_at"),
                         {"code": code, "student": student, "step": step, "value": value,
                          "now": self.clock()})

    # --- anyone with the code -------------------------------------------------------------------------
    def version(self, code) -> int:
        """A number that changes whenever anything in the class changes (one primary-key read: poll it)."""
        code = self._code(code)
        with self.engine.connect() as conn:
            return int(self._live(conn, code).version)

    def state(self, code) -> ClassState:
        code = self._code(code)
        with self.engine.connect() as conn:
            row = self._live(conn, code)
            revealed = conn.execute(_q("SELECT question FROM reveals WHERE code = :code"),
                                    {"code": code}).scalars()
            return ClassState(code, row.lesson_id, int(row.unlocked_step), frozenset(revealed),
                              int(row.version), float(row.expires_at))

    def summary(self, code, question: str, teacher_key: str | None = None) -> Summary:
        """How the class answered ``question``: the count for anyone; the distribution and the share right
        for the teacher (``teacher_key``), and for everyone after the reveal."""
        question, code = rules.check_name(question, "a question id"), self._code(code)
        with self.engine.connect() as conn:
            row = self._live(conn, code)
            revealed = conn.execute(_q("SELECT 1 FROM reveals WHERE code = :code AND question = :question"),
                                    {"code": code, "question": question}).scalar() is not None
            counts = conn.execute(_q("SELECT answer, COUNT(*) AS n, "
                                     "SUM(CASE WHEN is_right = 1 THEN 1 ELSE 0 END) AS r FROM answers "
                                     "WHERE code = :code AND question = :question GROUP BY answer"),
                                  {"code": code, "question": question}).all()
        answered = sum(int(c.n) for c in counts)
        if not (revealed or (teacher_key is not None and rules.same_key(teacher_key, row.teacher_hash))):
            return Summary(answered, revealed, None, None, None)
        right = sum(int(c.r or 0) for c in counts)
        return Summary(answered, revealed, {c.answer: int(c.n) for c in counts}, right,
                       right / answered if answered else None)

    def results(self, code, step: int) -> list[float]:
        """The class's pooled results at ``step``, in the order they arrived."""
        step, code = rules.check_step(step), self._code(code)
        with self.engine.connect() as conn:
            self._live(conn, code)
            return [float(v) for v in conn.execute(
                _q("SELECT value FROM results WHERE code = :code AND step = :step ORDER BY recorded_at"),
                {"code": code, "step": step}).scalars()]


def _no_formula(text: str) -> str:
    """A CSV cell a spreadsheet will not run as a formula (``=``, ``+``, ``-``, ``@`` first; numbers kept)."""
    if text[:1] in ("=", "+", "-", "@", "\t", "\r"):
        try:
            float(text)
            return text
        except ValueError:
            return "'" + text
    return text
