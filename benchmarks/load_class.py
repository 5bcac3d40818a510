"""Class-session load test (issue 25, item 6): N simulated students in one class answer the same question.

    .venv/bin/python benchmarks/load_class.py --start serve --workers 2 --students 100 --window 10 \\
        [--flood] [--json out.json]
    .venv/bin/python benchmarks/load_class.py --url http://127.0.0.1:8501/ --db .data/classes.sqlite

Each simulated student is benchmarks/load_test.py's websocket client (it speaks Streamlit's protocol, as a
browser does): it opens ``/class?code=<code>``, presses Join, and — like a browser — reruns the page's live
fragment every second (``st.fragment(run_every=1)``: the page polls the class's version).  The teacher,
another simulated browser on ``/class?code=…&teacher=…``, reruns its dashboard fragment every second and
reads its "Answered" count.  At a common start every student waits a random time in ``[0, --window]``
seconds, picks an option of the question and presses Check; the answer's latency runs from sending that
rerun to the run's end.

Reported: answers sent, rows in the database (read with ``ClassStore`` on the same file: rows must equal
answers sent — none lost), answer latency p50 / p95 / max, and the seconds from the last answer's end to
the teacher's count showing every answer.  ``--flood``: a second class of the same size in which one extra
student resubmits 20 times a second during the window (never waiting for a run); its row gives the other
students' p95 and the ratio to the plain class's (the flooder must not slow them).  ``--repeat N`` runs N
classes of each kind in ABBA order (plain, flood, flood, plain, …; ``--flood-first``: flood first) and
the summary row compares medians: on a shared machine the load drifts, and a later class of a run tends
to be slower, so one pair alone mostly measures the order (measured: plain-then-flood gave a ratio of
9.2, flood-then-plain 0.47, with the same server CPU in both classes of each pair).  Latencies are also
split by worker (HAProxy's ``CREDAL_WORKER`` cookie), so the flooder's own worker can be told apart.

The class database: ``--start serve`` gives serve.sh's workers ``CREDAL_CLASS_DB`` = ``--db`` (default: a
fresh SQLite file in a temporary folder); with ``--url`` pass the server's own ``--db``.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

from streamlit.proto.WidgetStates_pb2 import WidgetState

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
from benchmarks.load_test import (  # noqa: E402  (the one websocket client)
    ProcessTree,
    ProtocolError,
    Student,
    find_server_pid,
    latency_summary,
    started_server,
)

LESSON = "naive-credal"     # its first step asks a multiple-choice question (the NBC's class)
PAGE = "class"


class ClassBrowser(Student):
    """A :class:`Student` that also keeps the page's metrics (label → value) and its live fragments."""

    def __init__(self, base_url: str, timeout: float):
        super().__init__(base_url, timeout)
        self.metrics: dict[str, str] = {}
        self.fragments: list[str] = []
        self.lock = asyncio.Lock()      # one run at a time per session, as a browser tab

    def _handle(self, message) -> None:
        kind = message.WhichOneof("type")
        if kind == "auto_rerun" and message.auto_rerun.fragment_id not in self.fragments:
            self.fragments.append(message.auto_rerun.fragment_id)
        elif kind == "delta" and message.delta.WhichOneof("type") == "new_element":
            element = message.delta.new_element
            if element.WhichOneof("type") == "metric":
                self.metrics[element.metric.label] = element.metric.body
        super()._handle(message)

    async def close(self) -> None:
        if self._run_done is not None and not self._run_done.done():
            self._run_done.cancel()           # a poll cut short by the end of the scenario: nobody waits
        await super().close()

    async def poll(self) -> float:
        """Rerun the live fragment once (what the browser's ``run_every`` timer does)."""
        if not self.fragments:
            return 0.0
        async with self.lock:
            return await self._run([], self.fragments[-1])

    async def press(self, label: str, states=()) -> float:
        button = self.find("button", label)
        if button is None:
            raise ProtocolError(f"no button {label!r} on the page")
        async with self.lock:
            return await self._run([*states, WidgetState(id=button.proto.id, trigger_value=True)],
                                   button.fragment_id)

    def answer_state(self, rng: random.Random) -> WidgetState:
        radio = self.find("radio", "^Your prediction")
        if radio is None:
            raise ProtocolError("no 'Your prediction' radio on the student's page")
        return WidgetState(id=radio.proto.id, string_value=rng.choice(list(radio.proto.options)))


async def keep_polling(browser: ClassBrowser, stop: asyncio.Event, errors: list) -> None:
    while not stop.is_set():
        await asyncio.sleep(1.0)
        try:
            await browser.poll()
        except Exception as problem:          # counted; the session goes on as a browser's would
            errors.append(f"poll: {problem!r}"[:300])


async def run_class(url: str, store, args, flood: bool, tree: ProcessTree | None = None) -> dict:
    """One class of ``args.students`` students answering within ``args.window`` s; returns its row."""
    question = _question_id()                 # (imports the lessons: before anything is timed)
    code, teacher_key = store.create_class(LESSON)
    rng = random.Random(args.seed + flood)
    errors: list[str] = []
    stop = asyncio.Event()
    teacher = ClassBrowser(url, args.timeout)
    await teacher.open(PAGE, f"code={code}&teacher={teacher_key}")
    students = [ClassBrowser(url, args.timeout) for _ in range(args.students + flood)]

    async def join(student, delay):
        await asyncio.sleep(delay)
        await student.open(PAGE, f"code={code}")
        await student.press("^Join$")
        if "k=" not in student.query:
            raise ProtocolError(f"the join did not land on the student's page: {student.errors[:2]}")

    joined = await asyncio.gather(*(join(s, rng.uniform(0, args.ramp)) for s in students),
                                  return_exceptions=True)
    errors += [f"join: {r!r}"[:300] for r in joined if isinstance(r, Exception)]
    ready = [s for s, r in zip(students, joined) if not isinstance(r, Exception)]
    flooder = ready.pop() if flood and ready else None
    pollers = [asyncio.create_task(keep_polling(b, stop, errors)) for b in [teacher, *ready]]
    latencies, sent, ends = [], 0, []
    flood_sent = 0

    by_worker: dict[str, list[float]] = {}

    async def answer(student, delay):
        nonlocal sent
        await asyncio.sleep(delay)
        state = student.answer_state(rng)
        sent += 1
        latencies.append(await student.press("^Check$", [state]))
        ends.append(time.perf_counter())
        by_worker.setdefault(student.cookies.get("CREDAL_WORKER", "-"), []).append(latencies[-1])

    async def flood_answers(student, until):
        nonlocal flood_sent
        button = student.find("button", "^Check$")
        while time.perf_counter() < until:
            message = student._client_state()
            message.rerun_script.widget_states.widgets.extend(
                [student.answer_state(rng), WidgetState(id=button.proto.id, trigger_value=True)])
            await student.ws.write_message(message.SerializeToString(), binary=True)
            flood_sent += 1
            await asyncio.sleep(1 / args.flood_rate)

    cpu = tree.cpu_seconds() if tree else None
    await asyncio.sleep(args.idle)                  # everyone joined and polling: what waiting costs
    idle_cpu = tree.cpu_seconds() - cpu if tree else None
    cpu = tree.cpu_seconds() if tree else None
    start = time.perf_counter()
    jobs = [answer(s, rng.uniform(0, args.window)) for s in ready]
    if flooder is not None:
        jobs.append(flood_answers(flooder, start + args.window))
    done = await asyncio.gather(*jobs, return_exceptions=True)
    errors += [f"answer: {r!r}"[:300] for r in done if isinstance(r, Exception)]
    last_end = max(ends) if ends else time.perf_counter()
    window_cpu = tree.cpu_seconds() - cpu if tree else None
    expected = store.summary(code, question, teacher_key).answered    # every answer stored so far
    reached = None
    deadline = time.perf_counter() + args.settle
    while time.perf_counter() < deadline:
        await asyncio.sleep(0.1)
        shown = teacher.metrics.get("Answered", "")
        if shown.isdigit() and int(shown) >= expected:
            reached = time.perf_counter() - last_end
            break
    stop.set()
    for task in pollers:
        task.cancel()
    await asyncio.gather(*pollers, return_exceptions=True)
    for browser in [teacher, *students]:
        await browser.close()
        errors += browser.errors
    rows = rows_in_db(store, code, exclude=_key_of(flooder))
    row = {"class": "flood" if flood else "plain", "students": len(ready), "joined": len(ready),
           "answers_sent": sent, "rows_in_db": rows, "answers_lost": sent - rows,
           "answer": latency_summary(latencies), "window_s": args.window,
           "answered_in_s": (last_end - start) if ends else None,
           "teacher_count_after_last_answer_s": reached,
           "teacher_count_shown": teacher.metrics.get("Answered"),
           "errors": len(errors), "error_samples": errors[:5], "load_average_1min": os.getloadavg()[0],
           "server_cpu_s_per_s_polling": None if idle_cpu is None else idle_cpu / args.idle,
           "server_cpu_s_answering": window_cpu}
    row["answer_by_worker"] = {w: latency_summary(v) for w, v in sorted(by_worker.items())}
    if flooder is not None:
        row["flooder_reruns_sent"] = flood_sent
        row["flooder_worker"] = flooder.cookies.get("CREDAL_WORKER", "-")
        row["flooder_runs_finished"] = flooder.runs_finished
    store.delete_class(code, teacher_key)
    return row


def class_order(flood: bool, repeat: int, flood_first: bool = False) -> list[bool]:
    """Which classes run, in order (True: the flooded one): ``repeat`` plain ones, and with ``flood`` as
    many flooded ones in ABBA order (plain, flood, flood, plain, ...) — the machine's load drifts and a
    later class of a run tends to be slower, so neither kind always comes first."""
    if not flood:
        return [False] * repeat
    pairs = [[False, True] if (r % 2 == 0) != flood_first else [True, False] for r in range(repeat)]
    return [kind for pair in pairs for kind in pair]


def flood_summary(rows: list[dict]) -> dict:
    """The others' answer p95 and the server's CPU while answering, median over the plain and over the
    flooded classes, and their ratios (flooded / plain)."""
    import statistics

    def median(kind, pick):
        values = [pick(r) for r in rows if r["class"] == kind and pick(r) is not None]
        return statistics.median(values) if values else None

    p95 = {k: median(k, lambda r: r["answer"]["p95"]) for k in ("plain", "flood")}
    cpu = {k: median(k, lambda r: r["server_cpu_s_answering"]) for k in ("plain", "flood")}
    return {"class": "summary", "runs_each": sum(r["class"] == "plain" for r in rows),
            "plain_p95_median": p95["plain"], "flood_p95_median": p95["flood"],
            "p95_ratio": p95["flood"] / p95["plain"] if p95["plain"] else None,
            "plain_p95s": [r["answer"]["p95"] for r in rows if r["class"] == "plain"],
            "flood_p95s": [r["answer"]["p95"] for r in rows if r["class"] == "flood"],
            "plain_cpu_median": cpu["plain"], "flood_cpu_median": cpu["flood"],
            "cpu_ratio": cpu["flood"] / cpu["plain"] if cpu["plain"] else None}


def _key_of(browser) -> str | None:
    if browser is None:
        return None
    from urllib.parse import parse_qs

    return parse_qs(browser.query).get("k", [None])[0]


def rows_in_db(store, code: str, exclude: str | None = None) -> int:
    """Rows in the answers table for this class (read-only SQL on the store's engine), but the flooder's."""
    import sqlalchemy as sa

    from app_support.class_store.rules import key_hash

    with store.engine.connect() as conn:
        query = sa.text("SELECT COUNT(*) FROM answers WHERE code = :code AND student <> :skip")
        return int(conn.execute(query, {"code": code, "skip": key_hash(exclude) if exclude else ""}).scalar())


def _question_id() -> str:
    from app_support.lessons.catalogue import lesson

    return lesson(LESSON).steps[0].question.id


def print_row(row: dict) -> None:
    a = row["answer"]
    reach = row["teacher_count_after_last_answer_s"]
    print(f"{row['class']:<6} students {row['students']:>4}  sent {row['answers_sent']:>4}"
          f"  rows {row['rows_in_db']:>4}  lost {row['answers_lost']:>3}  answer p50 {a['p50']:.2f} p95 "
          f"{a['p95']:.2f} max {a['max']:.2f} s  teacher count +"
          f"{'never' if reach is None else f'{reach:.2f}'} s  errors {row['errors']}"
          f"  load {row['load_average_1min']:.1f}  server CPU polling "
          f"{row['server_cpu_s_per_s_polling'] or float('nan'):.2f} s/s"
          + (f"  flooder sent {row['flooder_reruns_sent']}" if "flooder_reruns_sent" in row else ""),
          flush=True)


async def main_async(args) -> list[dict]:
    from app_support.class_store import ClassStore

    async def with_url(url: str, tree):
        store = ClassStore(args.db)
        try:
            warm = [ClassBrowser(url, args.timeout) for _ in range(args.workers)]      # one per worker
            await asyncio.gather(*(w.open("") for w in warm))
            await asyncio.gather(*(w.open(PAGE) for w in [ClassBrowser(url, args.timeout)
                                                          for _ in range(args.workers)]))
            for w in warm:
                await w.close()
            rows = []
            for flood in class_order(args.flood, args.repeat, args.flood_first):
                rows.append(await run_class(url, store, args, flood=flood, tree=tree))
                print_row(rows[-1])
            if args.flood:
                summary = flood_summary(rows)
                rows.append(summary)
                print(f"others' answer p95, median over {summary['runs_each']} classes each: plain "
                      f"{summary['plain_p95_median']:.2f} s, flood {summary['flood_p95_median']:.2f} s, "
                      f"ratio {summary['p95_ratio']:.2f}; server CPU while answering: ratio "
                      f"{summary['cpu_ratio']:.2f}", flush=True)
                for row in rows[:-1]:
                    print(f"{row['class']:<6} answer p95 by worker: "
                          + ", ".join(f"{w} {v['p95']:.2f} s (n {v['n']})"
                                      for w, v in row["answer_by_worker"].items())
                          + (f"; the flooder on {row['flooder_worker']}, {row['flooder_runs_finished']} of "
                             f"its runs finished" if "flooder_worker" in row else ""), flush=True)
            return rows
        finally:
            store.close()

    if args.url:
        pid = find_server_pid(args.url)
        rows = await with_url(args.url if args.url.endswith("/") else args.url + "/",
                              ProcessTree(pid) if pid else None)
    else:
        os.environ["CREDAL_CLASS_DB"] = args.db              # serve.sh's workers inherit it
        log = Path(args.server_log) if args.server_log else None
        with started_server(args.start, args.workers, log_path=log) as (url, pid):
            rows = await with_url(url, ProcessTree(pid))
    return rows


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", help="an already running app or proxy (with --db: its class database)")
    parser.add_argument("--start", choices=["app", "serve"], default="serve")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--db", help="the class database (a SQLite path or URL; default: a fresh temporary "
                                     "SQLite file with --start, CREDAL_CLASS_DB with --url)")
    parser.add_argument("--students", type=int, default=100)
    parser.add_argument("--window", type=float, default=10.0, help="answers within this many seconds")
    parser.add_argument("--ramp", type=float, default=20.0, help="students join within this many seconds")
    parser.add_argument("--idle", type=float, default=5.0,
                        help="seconds of polling only (everyone joined) before the answers, CPU measured")
    parser.add_argument("--settle", type=float, default=30.0,
                        help="seconds to wait for the teacher's count after the last answer")
    parser.add_argument("--flood", action="store_true", help="also a class with one student resubmitting")
    parser.add_argument("--flood-first", action="store_true",
                        help="start with a flooded class (then ABBA: flood, plain, plain, flood, ...)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="classes of each kind (with --flood in ABBA order; the summary takes medians)")
    parser.add_argument("--flood-rate", type=float, default=20.0, help="the flooder's resubmits per second")
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", help="write the rows to this JSON file")
    parser.add_argument("--server-log", help="with --start: write the server's output here")
    args = parser.parse_args(argv)
    if args.db is None:
        args.db = os.environ.get("CREDAL_CLASS_DB") if args.url else str(
            Path(tempfile.mkdtemp(prefix="credal-class-load-")) / "classes.sqlite")
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    rows = asyncio.run(main_async(args))
    if args.json:
        Path(args.json).write_text(json.dumps({"command": " ".join(sys.argv), "rows": rows}, indent=2,
                                              default=str))
    return 0 if all(r["answers_lost"] == 0 and r["errors"] == 0 for r in rows if "answers_lost" in r) else 1


if __name__ == "__main__":
    sys.exit(main())
