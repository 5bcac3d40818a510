"""Concurrent students on both backends: 100 threads answering at once (through two stores, as two server
processes would) lose no answer, and students resubmitting at once keep one answer each."""
from __future__ import annotations

import threading

import sqlalchemy as sa

from app_support.class_store import ClassStore


def _together(n: int, work) -> list[BaseException]:
    """Run ``work(i)`` in ``n`` threads released at once; the exceptions raised."""
    barrier, errors = threading.Barrier(n), []

    def run(i):
        try:
            barrier.wait()
            work(i)
        except BaseException as exc:  # noqa: BLE001  (reported by the test)
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return errors


def _answer_rows(store: ClassStore, code: str) -> int:
    with store.engine.connect() as conn:
        return conn.execute(sa.text("SELECT COUNT(*) FROM answers WHERE code = :code"),
                            {"code": code}).scalar()


def test_100_students_answering_at_once_lose_nothing(db_url):
    stores = [ClassStore(db_url), ClassStore(db_url)]
    try:
        code, teacher = stores[0].create_class("lesson-1")
        version = stores[0].version(code)
        keys = [None] * 100

        def join_and_answer(i):
            store = stores[i % 2]
            keys[i] = store.join(code, f"browser-{i}", f"s{i}")
            store.submit_answer(code, keys[i], "q1", "A" if i % 3 else "B", i % 3 != 0)

        assert _together(100, join_and_answer) == []
        assert _answer_rows(stores[0], code) == 100
        summary = stores[1].summary(code, "q1", teacher)
        assert summary.answered == 100 and summary.distribution == {"A": 66, "B": 34} and summary.right == 66
        assert stores[1].version(code) == version + 200          # every join and answer counted once
    finally:
        for store in stores:
            store.close()


def test_resubmitting_at_once_keeps_one_answer_per_student(db_url):
    store = ClassStore(db_url)
    try:
        code, teacher = store.create_class("lesson-1")
        keys = [store.join(code, f"browser-{i}") for i in range(10)]
        assert _together(100, lambda i: store.submit_answer(code, keys[i % 10], "q1", f"v{i // 10}")) == []
        assert _answer_rows(store, code) == 10
        assert store.summary(code, "q1", teacher).answered == 10
    finally:
        store.close()
