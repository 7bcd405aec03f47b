"""A party night at a fixed rate: every phone on its own schedule, against a bare view.

Run: .venv/bin/python bench/party_bench.py [--tables 125] [--seconds 60] [--bare-seconds 30]
(or `make bench-party`, BENCH_ARGS="..."). With DATABASE_URL naming a PostgreSQL server,
the night lives in a new database on that server, dropped at the end; else in SQLite.

Builds a started night of ``--tables`` tables of four (house rules: the head table
controls the round) and serves the site as `make run` does (gunicorn with the project's
gunicorn.conf.py, whitenoise, collectstatic, DEBUG off). Then bench/party_client.py plays
the room's phones, each on its own connection and schedule, for ``--seconds``:

- every player's page polls every 2 s (500 players for 125 tables);
- every table phone polls every 2 s and taps every 3 s: a real entry (fresh nonce,
  seats 1-4 in turn) that the database stores, whose answer carries the table's board,
  as bunco.js shows it. The head table only taps misses, so it never reaches its target and the bell
  never rings: the round stays in play however long the run; the other tables tap a
  miss or +1 in turn;
- the host's live board and a room screen poll every 2 s, logged in as the host
  (``--host-screens 0`` leaves them out, to see what they cost).

The same phones on the same schedule then hit a bare Django view (no database, no
template) for ``--bare-seconds``, before and after the party: that is how fast this
machine, this client and gunicorn answer at that rate with nothing to do, and the
party is compared with it as ratios (x bare), since the client shares the 2 cores.

Latency counts from each request's scheduled send time (see party_client.py). The
report gives p50/p95/p99/max and errors per kind of request, how many requests went
out late (a phone still waiting for its previous answer), gunicorn's CPU per worker
and the client connections each worker held (sampled with ``ss``), and what the
database says afterwards. Only 127.0.0.1 gets traffic; every phase is bounded in time.
"""

from __future__ import annotations

import argparse
import json
import secrets
import signal
import subprocess
import sys
import textwrap
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from served import (
    BenchSite,
    Server,
    add_server_options,
    build_night,
    load_average,
    night_after,
    server_for,
    site_for,
)

CLIENT = Path(__file__).resolve().with_name("party_client.py")
KINDS = ["player poll", "table poll", "board poll", "room poll", "taps"]
POLLS = ["player poll", "table poll", "board poll", "room poll"]
# The report's rows: every poll together, then each kind alone.
ROWS = [("all polls", POLLS)] + [(k, [k]) for k in KINDS]


def percentile(values: list[float], p: float) -> float:
    """The p-th percentile (nearest rank) of ``values``; 0 for none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(p / 100 * len(ordered) + 0.5) - 1))
    return ordered[rank]


@dataclass
class Phase:
    """One run of the client: its raw result and what the server did meanwhile."""

    name: str
    result: dict
    cpu: dict[int, float] = field(default_factory=dict)  # worker pid (0: master) -> CPU s
    connections: list[dict[int, int]] = field(default_factory=list)  # samples
    backlog: float = 0.0

    def latencies(self, kinds: list[str]) -> list[float]:
        return [v for k in kinds for v in self.result["latency"].get(k, [])]

    def count(self, kinds: list[str]) -> int:
        return len(self.latencies(kinds))

    def errors(self, kinds: list[str]) -> int:
        return sum(sum(self.result["errors"].get(k, {}).values()) for k in kinds)

    def late(self, kinds: list[str]) -> int:
        return sum(self.result["late"].get(k, 0) for k in kinds)

    def stats(self, kinds: list[str]) -> tuple[float, float, float, float]:
        values = self.latencies(kinds)
        return (
            percentile(values, 50),
            percentile(values, 95),
            percentile(values, 99),
            max(values, default=0.0),
        )


def phones(info: dict, host_screens: int = 1, table_phones: int = 1) -> list[dict]:
    """Every phone in the room, with the path and version it starts from: ``table_phones``
    at each table (the first taps, the others only poll), ``host_screens`` live boards and
    as many room screens."""
    version = info["version"]
    board_version = f"{version}.{info['scores_version']}"
    night = info["night"]
    specs = [
        {"kind": "player", "poll": f"/p/{token}/state/", "version": str(version)}
        for token in info["players"]
    ]
    for number, (token, table_version) in enumerate(info["tables"], start=1):
        specs.append(
            {
                "kind": "table",
                "poll": f"/t/{token}/state/",
                "version": f"{version}.{table_version}",
                "entry": f"/t/{token}/entry/",
                "seats": 4,
                # The head table controls the round (house rules): misses only, so the
                # bell never rings. Elsewhere +1s and misses, as rolls mostly go.
                "taps": ["miss"] if number == 1 else ["miss", "points:1"],
            }
        )
        for _ in range(table_phones - 1):  # the players who follow the table's board
            specs.append(
                {
                    "kind": "table",
                    "poll": f"/t/{token}/state/",
                    "version": f"{version}.{table_version}",
                }
            )
    for kind, path in (("board", "live"), ("room", "room")) * host_screens:
        specs.append(
            {
                "kind": kind,
                "poll": f"/nights/{night}/{path}/state/",
                "version": board_version,
                "cookie": info["host_cookie"],
            }
        )
    return specs


def warm_up(server: Server, info: dict) -> None:
    """Every page once per worker or so, so no phase pays for compiling templates."""
    night = info["night"]
    paths = []
    for token, _ in info["tables"][:24]:
        paths += [f"/t/{token}/", f"/t/{token}/state/?v=0"]
    for token in info["players"][:24]:
        paths += [f"/p/{token}/", f"/p/{token}/state/?v=0"]
    for path in (f"/nights/{night}/live/", f"/nights/{night}/room/"):
        paths += [path] * 8 + [f"{path}state/?v=0"] * 8

    def get(path: str) -> None:
        request = urllib.request.Request(
            f"http://127.0.0.1:{server.port}{path}", headers={"Cookie": info["host_cookie"]}
        )
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                response.read()
        except urllib.error.HTTPError as error:
            raise RuntimeError(f"warm-up: {path} answered {error.code}") from error

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(get, paths))
    server.settle()


def run_phase(
    server: Server, site: BenchSite, name: str, mode: str, specs: list[dict], args
) -> Phase:
    plan = {
        "base_url": f"http://127.0.0.1:{server.port}",
        "mode": mode,
        "seconds": args.bare_seconds if mode == "bare" else args.seconds,
        "poll_every": args.poll_every,
        "tap_every": args.tap_every,
        "run": secrets.token_hex(4),
        "seed": 7,
        "phones": specs,
    }
    plan_path = site.tmp / f"plan_{name.replace(' ', '_')}.json"
    plan_path.write_text(json.dumps(plan))
    out_path = plan_path.with_suffix(".out.json")
    samples: list[dict[int, int]] = []
    stop = threading.Event()

    def sample() -> None:
        while not stop.wait(2.0):
            samples.append(server.connections())

    cpu_before = server.cpu()
    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    with open(out_path, "w") as out:
        done = subprocess.run(
            [sys.executable, str(CLIENT), str(plan_path)],
            stdout=out,
            stderr=subprocess.PIPE,
            text=True,
            timeout=plan["seconds"] + 300,
        )
    stop.set()
    sampler.join()
    cpu_after = server.cpu()
    if done.returncode != 0:
        raise RuntimeError(f"party_client.py failed in {name}:\n{done.stderr}")
    phase = Phase(name, json.loads(out_path.read_text()))
    phase.cpu = {pid: cpu_after[pid] - cpu_before.get(pid, 0.0) for pid in cpu_after}
    phase.connections = samples
    phase.backlog = server.settle()
    print(f"  {name}: {phase.count(KINDS)} requests", flush=True)
    return phase


def figures(site: BenchSite, bare: list[Phase], party: Phase) -> dict:
    """The run's figures as data: per kind of request the party's p50/p95/p99 and errors
    and the bare phases' p95, and gunicorn's CPU per request in the party."""
    kinds = {}
    for label, chosen in ROWS:
        if party.count(chosen):
            p50, p95, p99, _ = party.stats(chosen)
            kinds[label] = {
                "count": party.count(chosen),
                "p50": p50,
                "p95": p95,
                "p99": p99,
                "errors": party.errors(chosen),
                "bare p95": sum(b.stats(chosen)[1] for b in bare) / len(bare),
            }
    return {
        "database": site.vendor,
        "without": sorted(site.without),
        "kinds": kinds,
        "cpu ms/request": sum(party.cpu.values()) * 1000 / max(party.count(KINDS), 1),
    }


def print_report(phases: list[Phase], bare: list[Phase], party: Phase) -> None:
    head = (
        f"{'phase':<8} {'requests':<12} {'sent':>6} {'p50 ms':>7} {'p95 ms':>7} "
        f"{'p99 ms':>7} {'max ms':>7} {'errors':>6} {'late':>6}"
    )
    print(head)
    print("-" * len(head))
    for phase in phases:
        for label, kinds in ROWS:
            if not phase.count(kinds):
                continue
            p50, p95, p99, top = phase.stats(kinds)
            print(
                f"{phase.name:<8} {label:<12} {phase.count(kinds):>6} {p50:>7.1f} {p95:>7.1f} "
                f"{p99:>7.1f} {top:>7.0f} {phase.errors(kinds):>6} {phase.late(kinds):>6}"
            )
        print()

    def ratios(kinds: list[str]) -> str:
        base = [b.stats(kinds) for b in bare]
        mine = party.stats(kinds)
        out = []
        for i, label in enumerate(("p50", "p95", "p99")):
            reference = sum(b[i] for b in base) / len(base)
            out.append(f"{label} x{mine[i] / reference:.1f}" if reference else f"{label} -")
        return ", ".join(out)

    print("Party over the bare phases (mean of before and after), same kind of request:")
    for label, kinds in ROWS:
        if party.count(kinds):
            print(f"  {label:<12} {ratios(kinds)}")
    print()
    print(
        "Responses by kind (party): "
        + "; ".join(
            f"{k}: "
            + ", ".join(f"{c} {n}" for c, n in sorted(party.result["codes"].get(k, {}).items()))
            for k in KINDS
            if k in party.result["codes"]
        )
    )
    errors = {k: v for k, v in party.result["errors"].items() if v}
    if errors:
        print(f"Errors (party): {errors}")
    print()
    for phase in phases:
        workers = {pid: s for pid, s in phase.cpu.items() if pid}
        total = sum(phase.cpu.values())
        seconds = phase.result["wall"]
        conns: dict[int, list[int]] = {}
        for sample in phase.connections:
            for pid in workers:
                conns.setdefault(pid, []).append(sample.get(pid, 0))
        per_worker = ", ".join(
            f"{workers[pid] / seconds:.0%} cpu / "
            f"{sum(conns.get(pid, [0])) / max(len(conns.get(pid, [])), 1):.0f} conns"
            for pid in sorted(workers)
        )
        cpu_ms = total * 1000 / max(phase.count(KINDS), 1)
        rate = phase.count(KINDS) / phase.result["seconds"]
        print(
            f"{phase.name}: gunicorn {total / seconds:.0%} of one core "
            f"({cpu_ms:.2f} cpu ms/request, so {cpu_ms * rate / 1000:.2f} cores at the "
            f"scheduled {rate:.0f} requests/s); per worker "
            f"{per_worker}; client {phase.result['client_cpu'] / seconds:.0%} of one core; "
            f"{phase.result['retried']} retries on a closed kept-alive connection"
            + (f"; server busy {phase.backlog:.1f} s after" if phase.backlog >= 1 else "")
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=125, help="tables of four (default 125)")
    parser.add_argument("--seconds", type=int, default=60, help="the party (default 60)")
    parser.add_argument("--bare-seconds", type=int, default=30, help="each bare phase (default 30)")
    parser.add_argument("--poll-every", type=float, default=2.0, help="seconds (default 2)")
    parser.add_argument("--tap-every", type=float, default=3.0, help="seconds (default 3)")
    parser.add_argument(
        "--host-screens",
        type=int,
        default=1,
        help="live boards, and as many room screens, polling with the host's login "
        "(default 1; 0 shows what they cost)",
    )
    parser.add_argument(
        "--table-phones",
        type=int,
        default=1,
        help="phones at each table's page (default 1): the first taps, the others only poll",
    )
    parser.add_argument("--json", metavar="PATH", help="also write the figures there (pieces.py)")
    add_server_options(parser)
    args = parser.parse_args()
    if not 1 <= args.table_phones <= 4:
        parser.error("--table-phones must be 1..4")
    if not 0 <= args.host_screens <= 10:
        parser.error("--host-screens must be 0..10")
    if not 2 <= args.tables <= 250:
        parser.error("--tables must be 2..250")
    if not 5 <= args.seconds <= 600 or not 5 <= args.bare_seconds <= 600:
        parser.error("--seconds and --bare-seconds must be 5..600")
    if args.poll_every < 0.5 or args.tap_every < 0.5:
        parser.error("--poll-every and --tap-every must be 0.5 s or more")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so the finally blocks clean up

    with site_for(args, prefix="bunco-party-") as site:
        server = server_for(args, site)
        try:
            return run(args, site, server)
        finally:
            server.stop()


def run(args, site: BenchSite, server: Server) -> int:
    started = time.monotonic()
    info = build_night(args.tables)
    print(
        f"Night built in {time.monotonic() - started:.1f} s: {len(info['tables'])} tables, "
        f"{len(info['players'])} players, round 1 started ({site.database})"
    )
    server.start()
    warm_up(server, info)
    specs = phones(info, args.host_screens, args.table_phones)
    tables = len(info["tables"])
    rate = len(specs) / args.poll_every + tables / args.tap_every
    print(
        f"{server.describe()} on 127.0.0.1:{server.port}, {len(server.workers())} workers; "
        f"{site.describe()}. {len(specs)} phones: {len(info['players'])} players and "
        f"{tables} tables ({args.table_phones} phone(s) at each) polling every "
        f"{args.poll_every:g} s, the tables tapping every {args.tap_every:g} s (each tap "
        f"answered with its board), {args.host_screens} live board(s) and room screen(s): "
        f"about {rate:.0f} requests a second. "
        f"Load average before: {load_average()}"
    )
    bare_before = run_phase(server, site, "bare", "bare", specs, args)
    party = run_phase(server, site, "party", "site", specs, args)
    bare_after = run_phase(server, site, "bare", "bare", specs, args)
    print()
    print_report([bare_before, party, bare_after], [bare_before, bare_after], party)
    after = night_after(info)
    stored = party.result["codes"].get("taps", {}).get("200", 0)
    print(
        f"Database after: the round has {after['entries']} entries ({stored} taps answered "
        f"as stored), round {after['round_status']}, "
        f"bell {'rung' if after['bell'] else 'not rung'}, "
        f"night version {after['version']} (was {info['version']}), score version "
        f"{after['scores_version']}. Load average after: {load_average()}"
    )
    tracebacks, locked = server.log_counts()
    print(f"Server log: {tracebacks} tracebacks, {locked} 'database is locked'.")
    if tracebacks:
        print(textwrap.indent(server.log_tail(), "  "))
    failed = any(p.errors(KINDS) for p in (bare_before, party, bare_after))
    if args.json:
        Path(args.json).write_text(json.dumps(figures(site, [bare_before, bare_after], party)))
    return 1 if failed or after["entries"] != stored or tracebacks else 0


if __name__ == "__main__":
    sys.exit(main())
