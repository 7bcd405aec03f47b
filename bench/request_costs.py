"""What one request of each kind a table phone makes costs, in one process (no server).

Run: .venv/bin/python bench/request_costs.py [--tables 125] [--entries 20] [--repeat 200]
     [--profile tap|poll|screen [--cpu]] [--sql] [--without PIECE ...]

Builds a throwaway night as the load benches do (bench/served.py: SQLite in a temp dir,
or a new database on the PostgreSQL server DATABASE_URL names), with ``--entries``
entries at every table, then times with Django's test ``Client`` (CPU time of this
process, ``time.process_time``, which leaves the database server's own CPU out; and the
wall clock, which has the round trips and the server's work in it):

- bare: the bench's bare view;
- unchanged poll: a table's poll with its current version (the middleware's 204);
- tap: a scorekeeper's tap, ``POST /t/<token>/entry/`` as bunco.js sends it (its
  answer carries the table's board);
- changed poll: the board fragment a table's phone fetches after its table changed, as
  htmx asks for it: the board kept by the tap or poll that drew it (``play/speed/boards.py``);
- board drawn: the same poll not from htmx, so the view draws the board (and keeps it);
- screen poll: the host's live board asking what changed since the last 83 taps, at 83
  different tables (a party: every table taps every 3 s, the screen polls every 2 s);
  their drawings are kept by those taps.

Each request kind also gives its number of queries. ``--profile`` prints cProfile's
top functions for the tap, the board drawn or the screen poll (by cumulative time the
project's and the templates' only, then every function by its own time), by the wall
clock, so a query's time includes its wait for the database; with ``--cpu``, by this
process's CPU time, which leaves the waits out; ``--sql`` prints each kind's queries.
"""

from __future__ import annotations

import argparse
import cProfile
import itertools
import pstats
import secrets
import statistics
import sys
import time

from served import BenchSite, add_without_option, build_night


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=125)
    parser.add_argument("--entries", type=int, default=20, help="entries per table first")
    parser.add_argument("--repeat", type=int, default=200, help="requests of each kind")
    parser.add_argument("--profile", choices=["tap", "poll", "screen"], default=None)
    parser.add_argument("--cpu", action="store_true", help="profile CPU time, not wall time")
    parser.add_argument("--sql", action="store_true", help="print each kind's queries")
    add_without_option(parser)
    args = parser.parse_args()
    with BenchSite(prefix="bunco-costs-", without=set(args.without)) as site:
        try:
            return run(args, site)
        finally:  # before the database goes: else its listener says notifications were lost
            from bunco_night.play.speed.listening import stop_listening

            stop_listening()


def run(args, site: BenchSite) -> int:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from bunco_night.nights.models import Night, Table
    from bunco_night.play.services import entry_record

    info = build_night(args.tables)
    tokens = [token for token, _ in info["tables"]]
    tables = {t.token: t for t in Table.objects.filter(token__in=tokens)}
    nonces = (f"rc{secrets.token_hex(4)}{i:08d}" for i in itertools.count())
    # The head table only misses (it never reaches its target, so the bell never rings);
    # the others miss and score 1 in turn, far from the target of 21.
    for n in range(args.entries):
        for token in tokens:
            kind = "miss" if n % 2 or tables[token].number == 1 else "points"
            entry_record(
                table=tables[token], nonce=next(nonces), seat=n % 4 + 1, kind=kind, count=1
            )
    print(
        f"{len(tokens)} tables, {args.entries} entries each, {site.vendor}; "
        f"{args.repeat} requests of each kind",
        flush=True,
    )
    client = Client(HTTP_HOST="127.0.0.1")
    host = Client(HTTP_HOST="127.0.0.1")
    host.cookies.load(info["host_cookie"])
    state = dict.fromkeys(tokens)

    def version(token: str) -> str:
        t = Table.objects.select_related("night").get(token=token)
        return f"{t.night.version}.{t.version}"

    def bare(i):
        return client.get("/bench/bare/")

    def unchanged(i):
        token = tokens[i % len(tokens)]
        return client.get(f"/t/{token}/state/?v={state[token]}")

    taps = itertools.count()

    def tap(i):
        token = tokens[1 + i % (len(tokens) - 1)]  # not the head table
        n = next(taps)
        return client.post(
            f"/t/{token}/entry/",
            {
                "nonce": next(nonces),
                "seat": str(n % 4 + 1),
                "tap": "miss" if n % 2 else "points:1",
                "round": "1",
            },
            HTTP_ACCEPT="application/json",
        )

    def changed(i):
        token = tokens[1 + i % (len(tokens) - 1)]
        return client.get(f"/t/{token}/state/?v=0.0", HTTP_HX_REQUEST="true")

    def drawn(i):
        token = tokens[1 + i % (len(tokens) - 1)]
        return client.get(f"/t/{token}/state/?v=0.0")

    def screen(i):
        night = Night.objects.get(pk=info["night"])
        since = f"{night.version}.{night.scores_version - 83}"  # the last 83 taps' tables
        return host.get(f"/nights/{night.pk}/live/state/?v={since}", HTTP_HX_REQUEST="true")

    kinds = [("bare", bare, 200), ("unchanged poll", unchanged, 204)]
    kinds += [("tap", tap, 200), ("changed poll", changed, 200), ("board drawn", drawn, 200)]
    kinds += [("screen poll", screen, 200)]
    for token in tokens:
        state[token] = version(token)
    print(
        f"{'request':<16} {'cpu ms':>7} {'median':>7} {'wall ms':>7} {'median':>7} {'queries':>7}"
    )
    for name, call, status in kinds:
        for i in range(10):  # warm up: templates, compiled SQL
            call(i)
        if name == "unchanged poll":
            for token in tokens:
                state[token] = version(token)
        times, walls = [], []
        for i in range(args.repeat):
            start, wall = time.process_time(), time.perf_counter()
            response = call(i)
            times.append(time.process_time() - start)
            walls.append(time.perf_counter() - wall)
            if response.status_code != status:
                print(f"{name}: {response.status_code} {response.content[:200]!r}")
                return 1
        with CaptureQueriesContext(connection) as queries:
            call(args.repeat)
        print(
            f"{name:<16} {1000 * sum(times) / len(times):>7.2f} "
            f"{1000 * statistics.median(times):>7.2f} {1000 * sum(walls) / len(walls):>7.2f} "
            f"{1000 * statistics.median(walls):>7.2f} {len(queries):>7}",
            flush=True,
        )
        if args.sql:
            for query in queries:
                print(f"    {query['time']:>6} {query['sql'][:300]}")
    if args.profile:
        call = {"tap": tap, "poll": drawn, "screen": screen}[args.profile]
        profile = cProfile.Profile(time.process_time) if args.cpu else cProfile.Profile()
        profile.enable()
        for i in range(args.repeat):
            call(i)
        profile.disable()
        stats = pstats.Stats(profile, stream=sys.stdout)
        stats.sort_stats("cumulative").print_stats("bunco_night|template/loader|render", 40)
        stats.sort_stats("tottime").print_stats(25)
    return 0


if __name__ == "__main__":
    sys.exit(main())
