"""Load-test the phone polls and score taps under gunicorn, against a bare Django view.

Run: .venv/bin/python bench/load_bench.py [--tables 100] [--seconds 10] [--connections 128]

Builds a throwaway database (SQLite in a temp dir, or a new database on the PostgreSQL
server DATABASE_URL names) with a started night (4 players a table, house rules) through
the services, serves the site with gunicorn on 127.0.0.1 as `make run` does (the
project's gunicorn.conf.py; see served.py) and drives it with wrk and wrk_polls.lua:

- bare: a view answering "ok" (no database), added by a bench-only URLconf;
- table polls: every table's phone asking /t/<token>/state/?v=<version>, unchanged (204);
- player polls: every player's page asking /p/<token>/state/?v=<version>, unchanged (204);
- mixed: table polls plus scorekeepers' taps (1 request in 20 is a POST entry with a
  fresh nonce), so the version moves and polls get 200 fragments, then adopt the new
  version as a phone does. A tap's answer carries its table's board: the wrk thread that
  tapped adopts its version, as the phone that tapped does; the other thread's polls of
  that table get the fragment, as another phone at the table would.

wrk shares the machine's cores with the server, so throughput is printed as a ratio to
the bare view measured in the same run: a bare run goes before and after every scenario
and the scenario is compared with the mean of those two. The CPU time gunicorn spent per
request (from /proc) is printed too, and the ratio of the bare view's to the scenario's
(x bare cpu); they depend far less on wrk's and other work's share of the cores.
Only 127.0.0.1 gets traffic and every wrk run is bounded by --seconds. Needs wrk (Debian).
"""

from __future__ import annotations

import argparse
import re
import secrets
import shutil
import signal
import subprocess
import sys
import textwrap
import time
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

POST_EVERY = 20  # in the mixed scenario, one request in this many is a tap
WRK_SCRIPT = Path(__file__).resolve().with_name("wrk_polls.lua")


@dataclass
class Result:
    name: str
    requests: int = 0
    seconds: float = 0.0
    p50_ms: float = 0.0
    p99_ms: float = 0.0
    max_ms: float = 0.0
    errors: dict[str, int] = field(default_factory=dict)
    codes: dict[int, int] = field(default_factory=dict)
    json_ok: int = 0
    json_refused: int = 0
    json_board: int = 0
    adopted: int = 0
    backlog: float = 0.0
    cpu_ms: float = 0.0

    @property
    def rps(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0

    @property
    def failed(self) -> int:
        """Responses with a 4xx or 5xx status."""
        return sum(n for code, n in self.codes.items() if code >= 400)

    @property
    def socket_errors(self) -> int:
        return sum(self.errors.get(k, 0) for k in ("connect", "read", "write", "timeout"))


def parse_wrk(name: str, output: str) -> Result:
    result = Result(name)
    values: dict[str, int] = {}
    for line in output.splitlines():
        if not line.startswith("BENCH "):
            continue
        _, key, value = line.split()
        if key.startswith("code_"):
            code = int(key[5:])
            result.codes[code] = result.codes.get(code, 0) + int(value)
        elif key in ("json_ok", "json_refused", "json_board", "adopted"):
            setattr(result, key, getattr(result, key) + int(value))
        else:
            values[key] = int(value)
    if "requests" not in values:
        raise RuntimeError(f"wrk gave no figures for {name}:\n{output}")
    result.requests = values["requests"]
    result.seconds = values["duration_us"] / 1e6
    result.p50_ms = values["p50_us"] / 1000
    result.p99_ms = values["p99_us"] / 1000
    result.max_ms = values["max_us"] / 1000
    result.errors = {k[4:]: v for k, v in values.items() if k.startswith("err_")}
    return result


def lua_list(items) -> str:
    return "{ " + ", ".join(f'"{item}"' for item in items) + " }"


def run_wrk(
    tmp: Path,
    port: int,
    name: str,
    seconds: int,
    connections: int,
    paths: list[str],
    versions: dict[str, str] | None = None,
    entry_paths: list[str] | None = None,
) -> Result:
    """One wrk run of bench/wrk_polls.lua, with this scenario's data in a Lua file."""
    scenario = tmp / f"{re.sub(r'[^a-z0-9]+', '_', name.lower())}.lua"
    versions_lua = (
        "nil"
        if versions is None
        else "{ " + ", ".join(f'["{p}"] = "{v}"' for p, v in versions.items()) + " }"
    )
    scenario.write_text(
        f"-- Written by bench/load_bench.py for wrk_polls.lua, scenario {name}.\n"
        "return {\n"
        f"  paths = {lua_list(paths)},\n"
        f"  versions = {versions_lua},\n"
        f"  entry_paths = {lua_list(entry_paths or ['/'])},\n"
        f"  post_every = {POST_EVERY if entry_paths else 0},\n"
        f'  run = "{secrets.token_hex(4)}",\n'
        "}\n"
    )
    cmd = [
        "wrk",
        "-t",
        "2",
        "-c",
        str(connections),
        "-d",
        f"{seconds}s",
        "--timeout",
        "10s",
        "-s",
        str(WRK_SCRIPT),
        f"http://127.0.0.1:{port}",
        "--",
        str(scenario),
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=seconds + 60)
    if done.returncode != 0:
        raise RuntimeError(f"wrk failed for {name}:\n{done.stdout}\n{done.stderr}")
    return parse_wrk(name, done.stdout)


def print_report(runs: list[tuple[Result, float, float]]) -> None:
    """One line per run: ``runs`` pairs each result with the bare req/s and the bare
    cpu ms/req it is compared to."""
    head = (
        f"{'scenario':<22} {'req/s':>7} {'x bare':>7} {'p50 ms':>7} {'p99 ms':>7} "
        f"{'max ms':>7} {'requests':>8} {'4xx/5xx':>7} {'sockerr':>7} {'cpu ms/req':>10} "
        f"{'x bare cpu':>10}"
    )
    print(head)
    print("-" * len(head))
    for r, bare, bare_cpu in runs:
        print(
            f"{r.name:<22} {r.rps:>7.0f} {r.rps / bare:>7.2f} {r.p50_ms:>7.1f} "
            f"{r.p99_ms:>7.1f} {r.max_ms:>7.0f} {r.requests:>8} {r.failed:>7} "
            f"{r.socket_errors:>7} {r.cpu_ms:>10.2f} {bare_cpu / max(r.cpu_ms, 1e-9):>10.2f}"
        )
    print()
    print("Responses (204 = poll unchanged; 200 on a poll = fragment rendered):")
    for r, _, _ in runs:
        codes = ", ".join(f"{code}: {n}" for code, n in sorted(r.codes.items()))
        extra = ""
        if r.json_ok or r.json_refused:
            extra = (
                f"; taps stored {r.json_ok} ({r.json_board} answered with their board), "
                f"refused {r.json_refused}"
            )
        if r.adopted:
            extra += f"; polls adopted a new version {r.adopted} times"
        errors = ", ".join(f"{k} {v}" for k, v in sorted(r.errors.items()) if v)
        extra += f"; wrk socket errors: {errors}" if errors else ""
        extra += f"; server busy {r.backlog:.1f} s after wrk stopped" if r.backlog >= 1 else ""
        print(f"  {r.name:<22} {codes}{extra}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100, help="tables of four (default 100)")
    parser.add_argument("--seconds", type=int, default=10, help="per scenario (default 10)")
    parser.add_argument("--connections", type=int, default=128, help="wrk -c (default 128)")
    add_server_options(parser)
    args = parser.parse_args()
    if not 1 <= args.tables <= 250:
        parser.error("--tables must be 1..250")
    if not 1 <= args.seconds <= 120:
        parser.error("--seconds must be 1..120")
    if shutil.which("wrk") is None:
        print("wrk is not installed: apt-get install -y wrk", file=sys.stderr)
        return 2
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so finally still cleans up

    with site_for(args) as site:
        server = server_for(args, site)
        try:
            return run(args, site, server)
        finally:
            server.stop()


def run(args, site: BenchSite, server: Server) -> int:
    started = time.monotonic()
    info = build_night(args.tables)
    tables = [token for token, _ in info["tables"]]
    players = info["players"]
    print(
        f"Night built in {time.monotonic() - started:.1f} s: {len(tables)} tables, "
        f"{len(players)} players, round 1 started, version {info['version']} "
        f"({site.database})"
    )
    server.start()
    print(
        f"{server.describe()} on 127.0.0.1:{server.port}, {len(server.workers())} workers. "
        f"wrk: 2 threads, {args.connections} connections, {args.seconds:g} s a scenario. "
        f"{site.describe()}. Load average before: {load_average()}"
    )
    tmp, port = site.tmp, server.port

    def wrk(name, paths, **kw):
        cpu = server.cpu_total()
        result = run_wrk(tmp, port, name, args.seconds, args.connections, paths, **kw)
        result.cpu_ms = (server.cpu_total() - cpu) * 1000 / max(result.requests, 1)
        result.backlog = server.settle()
        print(f"  {name}: {result.rps:.0f} req/s", flush=True)
        return result

    # Warm-up, not reported: full pages render every template in every worker.
    warm = [f"/t/{t}/" for t in tables] + [f"/p/{p}/" for p in players] + ["/bench/bare/"]
    run_wrk(tmp, port, "warm-up", 2, 8, warm)
    server.settle()
    version = info["version"]
    # A table's poll carries "night version.table version"; a player's the night's.
    table_versions = {f"/t/{t}/state/": f"{version}.{tv}" for t, tv in info["tables"]}
    player_versions = {f"/p/{p}/state/": str(version) for p in players}
    table_polls = list(table_versions)
    scenarios = [
        ("table polls", table_polls, {"versions": table_versions}),
        ("player polls", list(player_versions), {"versions": player_versions}),
        (
            "mixed: polls + taps",
            table_polls,
            {"versions": table_versions, "entry_paths": [f"/t/{t}/entry/" for t in tables]},
        ),
    ]
    # Bare runs between the scenarios: each scenario is compared with the bare runs
    # just before and after it, so other load on the machine shows up in both.
    bares = [wrk("bare view", ["/bench/bare/"])]
    measured = []
    for name, paths, kw in scenarios:
        measured.append(wrk(name, paths, **kw))
        bares.append(wrk("bare view", ["/bench/bare/"]))
    bare_mean = sum(b.rps for b in bares) / len(bares)
    bare_cpu = sum(b.cpu_ms for b in bares) / len(bares)
    runs = [(bares[0], bare_mean, bare_cpu)]
    for i, result in enumerate(measured):
        near = (bares[i], bares[i + 1])
        runs.append((result, sum(b.rps for b in near) / 2, sum(b.cpu_ms for b in near) / 2))
        runs.append((bares[i + 1], bare_mean, bare_cpu))
    print()
    print_report(runs)
    print()
    spread = (max(b.rps for b in bares) - min(b.rps for b in bares)) / bare_mean
    print(
        "x bare: a scenario's req/s over the mean of the bare runs just before and after "
        f"it; a bare run's over the mean of all {len(bares)} ({bare_mean:.0f} req/s, "
        f"spread {spread:.0%})."
    )
    print(
        "cpu ms/req: CPU time of gunicorn's processes during the run over the requests "
        "answered (less sensitive to wrk and other work sharing the cores than req/s); "
        "x bare cpu: the bare runs' cpu ms/req (the same runs as for x bare) over the "
        "scenario's, what x bare would be if gunicorn had the cores to itself."
    )
    mixed = measured[2]
    fragments = mixed.codes.get(200, 0) - mixed.json_ok
    after = night_after(info)
    print(
        f"Mixed run: {fragments / mixed.seconds:.0f} poll fragments rendered a second; "
        f"{mixed.json_ok} taps answered; the round now has {after['entries']} entries (the "
        f"rest were in flight when wrk stopped) and the night is at version "
        f"{after['version']} (was {version})."
    )
    polls = measured[0]
    print(
        f"Unchanged table polls at {polls.rps:.0f} req/s are about {polls.rps * 2:.0f} "
        "phones polling every 2 s on this machine, with wrk taking its share of the cores."
    )
    results = bares + measured
    tracebacks, locked = server.log_counts()
    print(f"Server log: {tracebacks} tracebacks, {locked} 'database is locked'.")
    if tracebacks or any(r.failed for r in results):
        print("Last lines of the server log:")
        print(textwrap.indent(server.log_tail(), "  "))
    return 1 if any(r.failed or r.socket_errors for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
