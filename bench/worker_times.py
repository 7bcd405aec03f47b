"""Where a worker's time goes at a party: the project's gunicorn.conf.py, plus a record of
each request's wall and CPU time and each cycle collection's pauses, per worker.

As a gunicorn config (the party runs with it, and writes to WORKER_TIMES_DIR, default
/tmp/worker-times; empty it first):

    .venv/bin/python bench/party_bench.py --seconds 30 --bare-seconds 15 \\
        --gunicorn-conf bench/worker_times.py

Then, to read what the workers wrote (taps, polls and the host's screens during the
party phase; collections over the whole run):

    .venv/bin/python bench/worker_times.py [DIR]

Each request's line: its wall time and its thread's CPU time until gunicorn logged the
answer as sent, then the same for what ran when gunicorn closed the response (the work
``core/speed/after_answer.py`` leaves, and Django's ``request_finished`` handlers), then how
many times it sent statements to the database before its answer went out (each execute,
which may carry several statements), with their wall and CPU time (a database execute
wrapper). Wall minus CPU is time spent waiting: for the database, for SQLite's writers'
turn, for the worker's interpreter lock, or for a core; the report splits it into the
waits inside those executes and the waits elsewhere.
A request whose view raised out of Django (not a 500 page, an exception through the
WSGI call) is not recorded.
"""

import json
import os
import sys
import threading
import time
from pathlib import Path

OUT = Path(os.environ.get("WORKER_TIMES_DIR", "/tmp/worker-times"))

if __name__ != "__main__":  # read by gunicorn as its config
    exec((Path(__file__).resolve().parents[1] / "gunicorn.conf.py").read_text())
    import gc

    # A gunicorn.conf.py from before 2026-11-25 has no post_worker_init.
    _project_post_worker_init = globals().get("post_worker_init", lambda worker: None)
    _lines = {}
    # This thread's request: [executes, their wall s, their CPU s, answer sent].
    _request = threading.local()

    def _timed(execute, sql, params, many, context):
        """A database execute wrapper: each execute's time, until the answer is sent."""
        wall, cpu = time.perf_counter(), time.thread_time()
        try:
            return execute(sql, params, many, context)
        finally:
            counts = getattr(_request, "statements", None)
            if counts is not None and not counts[3]:
                counts[0] += 1
                counts[1] += time.perf_counter() - wall
                counts[2] += time.thread_time() - cpu

    def _time_statements(connection):
        if _timed not in connection.execute_wrappers:
            connection.execute_wrappers.append(_timed)

    def post_worker_init(worker):
        _project_post_worker_init(worker)
        from django.db import connections
        from django.db.backends.signals import connection_created

        connection_created.connect(
            lambda sender, connection, **kwargs: _time_statements(connection), weak=False
        )
        for connection in connections.all(initialized_only=True):
            _time_statements(connection)
        OUT.mkdir(parents=True, exist_ok=True)
        started = {}
        pauses = worker._bench_gc_pauses = []

        def pause(phase, info):
            if phase == "start":
                started["at"] = (time.perf_counter(), time.thread_time())
            elif "at" in started:
                wall, cpu = started.pop("at")
                pauses.append(
                    (info["generation"], time.perf_counter() - wall, time.thread_time() - cpu)
                )

        gc.callbacks.append(pause)

    def worker_exit(server, worker):
        with open(OUT / f"gc-{os.getpid()}.json", "w") as f:
            json.dump(getattr(worker, "_bench_gc_pauses", []), f)

    def pre_request(worker, req):
        _request.statements = [0, 0.0, 0.0, False]
        req._bench_start = (time.perf_counter(), time.thread_time())

    class TimingLogger(logger_class):  # noqa: F821 (from gunicorn.conf.py)
        def access(self, resp, req, environ, request_time):
            req._bench_sent = (time.perf_counter(), time.thread_time())
            statements = getattr(_request, "statements", None)
            if statements is not None:
                statements[3] = True
                req._bench_statements = statements[:3]
            super().access(resp, req, environ, request_time)

    logger_class = TimingLogger

    def post_request(worker, req, environ, resp):
        start = getattr(req, "_bench_start", None)
        sent = getattr(req, "_bench_sent", None)
        if not start or not sent:
            return
        done = (time.perf_counter(), time.thread_time())
        path = req.path
        kind = (
            "tap"
            if path.endswith("/entry/")
            else "bare"
            if path.startswith("/bench/")
            else "table poll"
            if path.startswith("/t/")
            else "player poll"
            if path.startswith("/p/")
            else "screens"
        )
        out = _lines.get(os.getpid())
        if out is None:
            # Open for the worker's life, a line written as each request ends.
            out = open(OUT / f"requests-{os.getpid()}.txt", "a", buffering=1)  # noqa: SIM115
            _lines[os.getpid()] = out
        ms = [1000 * (b - a) for a, b in ((start[0], sent[0]), (start[1], sent[1]))]
        ms += [1000 * (b - a) for a, b in ((sent[0], done[0]), (sent[1], done[1]))]
        count, wall, cpu = getattr(req, "_bench_statements", (0, 0.0, 0.0))
        ms += [count, 1000 * wall, 1000 * cpu]
        out.write(f"{time.time():.3f}\t{kind}\t" + "\t".join(f"{m:.2f}" for m in ms) + "\n")


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def report(folder: Path) -> None:
    rows = []
    for path in folder.glob("requests-*.txt"):
        for line in path.read_text().splitlines():
            at, kind, *ms = line.split("\t")
            rows.append((float(at), kind, *map(float, ms)))
    taps = [r[0] for r in rows if r[1] == "tap"]
    if taps:
        party = [r for r in rows if min(taps) <= r[0] <= max(taps)]
        print("party phase, ms: answer wall p50/p95/p99, answer cpu p50/p95; after wall p50/p95")
        for kind in ("tap", "table poll", "player poll", "screens"):
            sel = [r for r in party if r[1] == kind]
            if not sel:
                continue
            wall, cpu, after = [r[2] for r in sel], [r[3] for r in sel], [r[4] for r in sel]
            print(
                f"  {kind:<12} {len(sel):>6}  "
                f"{percentile(wall, 0.5):6.1f} {percentile(wall, 0.95):6.1f} "
                f"{percentile(wall, 0.99):6.1f}"
                f"  {percentile(cpu, 0.5):5.1f} {percentile(cpu, 0.95):5.1f}"
                f"  {percentile(after, 0.5):5.1f} {percentile(after, 0.95):5.1f}"
            )
        print(
            "until the answer, ms p50/p95: database executes (count p50), their wall, "
            "waiting in them, waiting elsewhere"
        )
        for kind in ("tap", "table poll", "player poll", "screens"):
            sel = [r for r in party if r[1] == kind and len(r) > 8]
            if not sel:
                continue
            inside = [r[7] - r[8] for r in sel]  # statements' wall less their CPU
            elsewhere = [r[2] - r[3] - (r[7] - r[8]) for r in sel]
            print(
                f"  {kind:<12} {percentile([r[6] for r in sel], 0.5):4.0f}"
                + "".join(
                    f"  {percentile(v, 0.5):5.1f} {percentile(v, 0.95):5.1f}"
                    for v in ([r[7] for r in sel], inside, elsewhere)
                )
            )
    print("cycle collections per worker, ms: generation, count, cpu sum/median/max, wall max")
    for path in sorted(folder.glob("gc-*.json")):
        by_generation = {}
        for generation, wall, cpu in json.loads(path.read_text()):
            by_generation.setdefault(generation, []).append((1000 * wall, 1000 * cpu))
        for generation, pauses in sorted(by_generation.items()):
            cpu = [p[1] for p in pauses]
            print(
                f"  {path.stem} gen {generation} {len(pauses):>5}  {sum(cpu):7.1f} "
                f"{percentile(cpu, 0.5):6.2f} {max(cpu):6.1f}  {max(p[0] for p in pauses):6.1f}"
            )


if __name__ == "__main__":
    report(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT)
