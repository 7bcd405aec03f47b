"""Load-test the phone polls and score taps under gunicorn, against a bare Django view.

Run: .venv/bin/python bench/load_bench.py [--tables 100] [--seconds 10] [--connections 128]

Builds a throwaway SQLite database in a temp dir with a started night (4 players a
table, house rules) through the services, serves the site with gunicorn on 127.0.0.1
(2 workers, gthread, 8 threads, as `make run` does) and drives it with wrk:

- bare: a view answering "ok" (no database), added by a bench-only URLconf;
- table polls: every table's phone asking /t/<token>/state/?v=<version>, unchanged (204);
- player polls: every player's page asking /p/<token>/state/?v=<version>, unchanged (204);
- mixed: table polls plus scorekeepers' taps (1 request in 20 is a POST entry with a
  fresh nonce), so the version moves and polls get 200 fragments, then adopt the new
  version as a phone does.

wrk shares the machine's cores with the server, so throughput is printed as a ratio to
the bare view measured in the same run: a bare run goes before and after every scenario
and the scenario is compared with the mean of those two. The CPU time gunicorn spent per
request (from /proc) is printed too; it barely depends on wrk's share of the cores.
Only 127.0.0.1 gets traffic and every wrk run is bounded by --seconds. Needs wrk (Debian).
"""

from __future__ import annotations

import argparse
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import textwrap
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VENV_BIN = Path(sys.executable).parent
POST_EVERY = 20  # in the mixed scenario, one request in this many is a tap

SETTINGS = """\
# Written by bench/load_bench.py: the site's settings with a bench URLconf and static root.
from bunco_night.settings import *  # noqa: F403

ROOT_URLCONF = "bench_urls"
STATIC_ROOT = {static_root!r}
{extra}"""

URLS = """\
# Written by bench/load_bench.py: the site's URLs plus a bare view for the baseline.
from django.http import HttpResponse
from django.urls import include, path


def bare(request):
    return HttpResponse("ok")


urlpatterns = [
    path("bench/bare/", bare),
    path("", include("bunco_night.urls")),
]
"""

# One wrk script for every scenario; the Python side fills in the paths and knobs.
# Each wrk thread has its own Lua state: setup() numbers the threads (for nonces) and
# keeps them so done() can add up the status counts that response() kept per thread.
LUA = """\
-- Written by bench/load_bench.py, scenario {name}.
local paths = {{ {paths} }}
local entry_paths = {{ {entry_paths} }}
local with_version = {with_version}
-- Each poll path starts at its own version (a table's is "night.table") and adopts
-- the version a 200 fragment carries, as a phone does.
versions = {{ {versions} }}
local post_every = {post_every}
local run = "{run}"
local post_headers = {{
  ["Content-Type"] = "application/x-www-form-urlencoded",
  ["Accept"] = "application/json",
}}
counter = 0
posts = 0
codes = {{}}
json = {{ ok = 0, refused = 0 }}
adopted = 0

local threads = {{}}

function setup(thread)
  table.insert(threads, thread)
  thread:set("tid", #threads)
end

function init(args)
  counter = tid * 7919  -- threads start at different tables
end

function request()
  counter = counter + 1
  if post_every > 0 and counter % post_every == 0 then
    posts = posts + 1
    local path = entry_paths[(counter + posts) % #entry_paths + 1]
    local tap = (posts % 2 == 0) and "points%3A1" or "miss"
    local body = "nonce=lb" .. run .. "-" .. tid .. "-" .. posts .. "&seat=1&tap=" .. tap
    return wrk.format("POST", path, post_headers, body)
  end
  local path = paths[counter % #paths + 1]
  if with_version then
    path = path .. "?v=" .. (versions[path] or "0")
  end
  return wrk.format("GET", path)
end

function response(status, headers, body)
  codes[status] = (codes[status] or 0) + 1
  if body:sub(1, 1) == "{{" then
    if status == 200 then
      json.ok = json.ok + 1
    else
      json.refused = json.refused + 1
    end
  elseif status == 200 and with_version then
    local p, v = body:match('hx%-get="([^"?]+)%?v=([%d%.]+)"')
    if p and versions[p] ~= v then
      versions[p] = v
      adopted = adopted + 1
    end
  end
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("BENCH requests %d\\n", summary.requests))
  io.write(string.format("BENCH duration_us %d\\n", summary.duration))
  io.write(string.format("BENCH p50_us %d\\n", latency:percentile(50)))
  io.write(string.format("BENCH p99_us %d\\n", latency:percentile(99)))
  io.write(string.format("BENCH max_us %d\\n", latency.max))
  io.write(string.format("BENCH err_connect %d\\n", e.connect))
  io.write(string.format("BENCH err_read %d\\n", e.read))
  io.write(string.format("BENCH err_write %d\\n", e.write))
  io.write(string.format("BENCH err_timeout %d\\n", e.timeout))
  io.write(string.format("BENCH err_status %d\\n", e.status))
  for _, thread in ipairs(threads) do
    for status, n in pairs(thread:get("codes")) do
      io.write(string.format("BENCH code_%d %d\\n", status, n))
    end
    local j = thread:get("json")
    io.write(string.format("BENCH json_ok %d\\n", j.ok))
    io.write(string.format("BENCH json_refused %d\\n", j.refused))
    io.write(string.format("BENCH adopted %d\\n", thread:get("adopted")))
  end
end
"""


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
        elif key in ("json_ok", "json_refused", "adopted"):
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


def lua_list(items: list[str]) -> str:
    return ", ".join(f'"{item}"' for item in items)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def build_night(tables: int) -> dict:
    """A started night with ``tables`` tables of four (house rules), built by the services."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connections, transaction

    call_command("migrate", verbosity=0, interactive=False)
    call_command("collectstatic", verbosity=0, interactive=False)

    import datetime as dt

    from bunco_night.groups.services import group_create, player_add
    from bunco_night.nights.models import Night, Seat, Table
    from bunco_night.nights.services import night_create, seating_draw
    from bunco_night.play.services import round_start

    with transaction.atomic():
        user = get_user_model().objects.create_user("host", password=secrets.token_urlsafe())
        group = group_create(name="Load Bench", user=user, rules="house")
        for i in range(1, tables * 4 + 1):
            player_add(group=group, name=f"Player {i}")
    night = night_create(group=group, date=dt.date(2026, 11, 22))
    seating_draw(night=night, seed=1)
    rnd = round_start(night=night)
    night = Night.objects.get(pk=night.pk)
    info = {
        "night": night.pk,
        "round": rnd.pk,
        "version": night.version,
        "tables": list(
            Table.objects.filter(pk__in=Seat.objects.filter(round=rnd).values("table_id"))
            .order_by("number")
            .values_list("token", "version")
        ),
        "players": list(night.attendances.order_by("pk").values_list("token", flat=True)),
    }
    connections.close_all()
    return info


def night_after(info: dict) -> tuple[int, int]:
    """The night's version and how many entries its round has now."""
    from django.db import connections

    from bunco_night.nights.models import Night
    from bunco_night.play.models import Entry

    version = Night.objects.get(pk=info["night"]).version
    entries = Entry.objects.filter(round_id=info["round"]).count()
    connections.close_all()
    return version, entries


def start_server(tmp: Path, port: int, env: dict) -> subprocess.Popen:
    """gunicorn as `make run` starts it (less the access log), in its own process group."""
    with open(tmp / "gunicorn.log", "wb") as log:
        return subprocess.Popen(
            [
                str(VENV_BIN / "gunicorn"),
                "bunco_night.wsgi",
                "--bind",
                f"127.0.0.1:{port}",
                "--workers",
                "2",
                "--threads",
                "8",
                "--worker-class",
                "gthread",
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def wait_ready(server: subprocess.Popen, tmp: Path, port: int, limit: float = 30) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"gunicorn exited with {server.returncode}:\n{server_log(tmp)}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/bench/bare/", timeout=2) as r:
                if r.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.2)
    raise RuntimeError(f"gunicorn did not answer in {limit:.0f} s:\n{server_log(tmp)}")


def stop_server(server: subprocess.Popen | None) -> None:
    """Stop gunicorn's whole process group (master and workers), politely then not."""
    if server is None:
        return
    for sig, wait in ((signal.SIGTERM, 15), (signal.SIGKILL, 5)):
        try:
            os.killpg(server.pid, sig)
        except ProcessLookupError:
            break  # the group is gone
        try:
            server.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            continue
        try:
            os.killpg(server.pid, 0)  # workers left behind by a dead master?
        except ProcessLookupError:
            break
        time.sleep(0.5)


def server_cpu(master: int) -> float:
    """CPU seconds used so far by gunicorn's master and its workers (from /proc)."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # the process ended while we looked
        if stat.parent.name == str(master) or fields[1] == str(master):
            total += int(fields[11]) + int(fields[12])  # utime + stime, in clock ticks
    return total / os.sysconf("SC_CLK_TCK")


def settle(master: int, limit: float = 120) -> float:
    """Wait until the server has finished what the last run left queued; the seconds it took.

    gunicorn keeps serving requests it accepted after wrk hangs up, so the next run
    would otherwise start against a backlog. Two quarter-seconds with the server
    using under a tenth of a core mean it is idle.
    """
    started = time.monotonic()
    idle = 0
    before = server_cpu(master)
    while idle < 2 and time.monotonic() - started < limit:
        time.sleep(0.25)
        now = server_cpu(master)
        idle = idle + 1 if now - before < 0.025 else 0
        before = now
    return time.monotonic() - started


def server_log(tmp: Path, lines: int = 30) -> str:
    path = tmp / "gunicorn.log"
    if not path.exists():
        return ""
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])


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
    script = tmp / f"{re.sub(r'[^a-z0-9]+', '_', name.lower())}.lua"
    script.write_text(
        LUA.format(
            name=name,
            paths=lua_list(paths),
            entry_paths=lua_list(entry_paths or ["/"]),
            with_version="true" if versions is not None else "false",
            versions=", ".join(f'["{p}"] = "{v}"' for p, v in (versions or {}).items()),
            post_every=POST_EVERY if entry_paths else 0,
            run=secrets.token_hex(4),
        )
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
        str(script),
        f"http://127.0.0.1:{port}",
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=seconds + 60)
    if done.returncode != 0:
        raise RuntimeError(f"wrk failed for {name}:\n{done.stdout}\n{done.stderr}")
    return parse_wrk(name, done.stdout)


def print_report(runs: list[tuple[Result, float]]) -> None:
    """One line per run: ``runs`` pairs each result with the bare req/s it is compared to."""
    head = (
        f"{'scenario':<22} {'req/s':>7} {'x bare':>7} {'p50 ms':>7} {'p99 ms':>7} "
        f"{'max ms':>7} {'requests':>8} {'4xx/5xx':>7} {'sockerr':>7} {'cpu ms/req':>10}"
    )
    print(head)
    print("-" * len(head))
    for r, bare in runs:
        print(
            f"{r.name:<22} {r.rps:>7.0f} {r.rps / bare:>7.2f} {r.p50_ms:>7.1f} "
            f"{r.p99_ms:>7.1f} {r.max_ms:>7.0f} {r.requests:>8} {r.failed:>7} "
            f"{r.socket_errors:>7} {r.cpu_ms:>10.2f}"
        )
    print()
    print("Responses (204 = poll unchanged; 200 on a poll = fragment rendered):")
    for r, _ in runs:
        codes = ", ".join(f"{code}: {n}" for code, n in sorted(r.codes.items()))
        extra = ""
        if r.json_ok or r.json_refused:
            extra = f"; taps stored {r.json_ok}, refused {r.json_refused}"
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
    parser.add_argument(
        "--conn-max-age",
        type=int,
        default=None,
        help="what-if: override DATABASES CONN_MAX_AGE for this run (default: the site's)",
    )
    parser.add_argument("--keep", action="store_true", help="keep the temp dir (logs, scripts)")
    args = parser.parse_args()
    if not 1 <= args.tables <= 250:
        parser.error("--tables must be 1..250")
    if not 1 <= args.seconds <= 120:
        parser.error("--seconds must be 1..120")
    if shutil.which("wrk") is None:
        print("wrk is not installed: apt-get install -y wrk", file=sys.stderr)
        return 2

    tmp = Path(tempfile.mkdtemp(prefix="bunco-load-"))
    extra = ""
    if args.conn_max_age is not None:
        extra = f'DATABASES["default"]["CONN_MAX_AGE"] = {args.conn_max_age}  # noqa: F405\n'
    (tmp / "bench_settings.py").write_text(
        SETTINGS.format(static_root=str(tmp / "static"), extra=extra)
    )
    (tmp / "bench_urls.py").write_text(URLS)
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp / 'bench.sqlite3'}",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_DEBUG": "0",
        "DJANGO_SETTINGS_MODULE": "bench_settings",
        "PYTHONPATH": os.pathsep.join(
            [str(tmp), str(ROOT)]
            + ([os.environ["PYTHONPATH"]] if "PYTHONPATH" in os.environ else [])
        ),
    }
    env.pop("DJANGO_PLAIN_STATIC", None)
    os.environ.update(env)
    sys.path[:0] = [str(tmp), str(ROOT)]
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so finally still cleans up

    server = None
    try:
        import django

        django.setup()
        started = time.monotonic()
        info = build_night(args.tables)
        tables = [token for token, _ in info["tables"]]
        players = info["players"]
        print(
            f"Night built in {time.monotonic() - started:.1f} s: {len(tables)} tables, "
            f"{len(players)} players, round 1 started, version {info['version']} "
            f"(database {tmp / 'bench.sqlite3'})"
        )
        from django.conf import settings

        conn_max_age = settings.DATABASES["default"]["CONN_MAX_AGE"]
        port = free_port()
        server = start_server(tmp, port, env)
        wait_ready(server, tmp, port)
        print(
            f"gunicorn on 127.0.0.1:{port}: 2 workers, gthread, 8 threads. "
            f"wrk: 2 threads, {args.connections} connections, {args.seconds:g} s a scenario. "
            f"CONN_MAX_AGE {conn_max_age}"
            + (" (overridden by --conn-max-age)" if args.conn_max_age is not None else "")
            + f". Load average before: {os.getloadavg()[0]:.2f}"
        )

        def wrk(name, paths, **kw):
            cpu = server_cpu(server.pid)
            result = run_wrk(tmp, port, name, args.seconds, args.connections, paths, **kw)
            result.cpu_ms = (server_cpu(server.pid) - cpu) * 1000 / max(result.requests, 1)
            result.backlog = settle(server.pid)
            print(f"  {name}: {result.rps:.0f} req/s", flush=True)
            return result

        # Warm-up, not reported: full pages render every template in both workers.
        warm = [f"/t/{t}/" for t in tables] + [f"/p/{p}/" for p in players] + ["/bench/bare/"]
        run_wrk(tmp, port, "warm-up", 2, 8, warm)
        settle(server.pid)
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
        runs = [(bares[0], bare_mean)]
        for i, result in enumerate(measured):
            runs.append((result, (bares[i].rps + bares[i + 1].rps) / 2))
            runs.append((bares[i + 1], bare_mean))
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
            "answered (less sensitive to wrk sharing the cores than req/s)."
        )
        mixed = measured[2]
        fragments = mixed.codes.get(200, 0) - mixed.json_ok
        now_version, entries = night_after(info)
        print(
            f"Mixed run: {fragments / mixed.seconds:.0f} poll fragments rendered a second; "
            f"{mixed.json_ok} taps answered; the round now has {entries} entries (the rest "
            f"were in flight when wrk stopped) and the night is at version {now_version} "
            f"(was {version})."
        )
        polls = measured[0]
        print(
            f"Unchanged table polls at {polls.rps:.0f} req/s are about {polls.rps * 2:.0f} "
            "phones polling every 2 s on this machine, with wrk taking its share of the cores."
        )
        results = bares + measured
        log = (tmp / "gunicorn.log").read_text(errors="replace")
        tracebacks = log.count("Traceback")
        locked = log.count("database is locked")
        print(f"Server log: {tracebacks} tracebacks, {locked} 'database is locked'.")
        if tracebacks or any(r.failed for r in results):
            print("Last lines of the server log:")
            print(textwrap.indent(server_log(tmp), "  "))
        return 1 if any(r.failed or r.socket_errors for r in results) else 0
    finally:
        stop_server(server)
        if args.keep:
            print(f"Kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
