"""Time every printed document for a finished night of 12 and of 500 players.

Run: .venv/bin/python bench/print_bench.py [players ...]   (default: 12 500)
Targets: all tally sheets for 12 players under 1 s, for 500 players under 15 s; all six
documents for 500 players under 60 s; the bench's memory (this process and its worker
processes together) under 500 MB at its peak.

The nights live in a throwaway SQLite database (Django's test database machinery,
as ``manage.py build_demo`` does). Each night is the house rules' four sets of six
rounds, played to the end by the rules engine's simulator, written as seats and
bunco entries, with everyone's dues paid. Each document is fetched through its view,
as the host's browser would, and timed in wall-clock and CPU seconds (this process's
and its worker processes'): on a shared machine the CPU time is the steadier figure. A
long document comes back as a background job's page: the bench follows it as the host
would, checking the job until it is done, then fetching the PDF; the time is the whole
wait. Memory is the proportional set size (PSS: resident memory, each page shared between
processes counted once, in shares) of this process and all its child processes added up,
sampled every 100 ms, at its highest while the document printed. Worker processes are
forked from one server and share its pages, so adding up their resident sizes (RSS)
would count those pages several times.
"""

from __future__ import annotations

import datetime as dt
import os
import sys
import tempfile
import threading
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bunco_night.test_settings")
# whitenoise warns that collectstatic has not run: static files come from the finders here.
warnings.filterwarnings("ignore", "No directory at", UserWarning)

# The print workers import this module again (multiprocessing does, for a script):
# Django and the database are for this process only.
if __name__ == "__main__":
    import django

    django.setup()

    from django.contrib.auth import get_user_model
    from django.db import connections
    from django.test import Client
    from django.test.utils import setup_databases, teardown_databases
    from django.urls import reverse

    from bunco_night.groups.models import Player
    from bunco_night.groups.services import group_create
    from bunco_night.nights.models import Night, Payment, Round, Seat
    from bunco_night.nights.selectors import players_tonight
    from bunco_night.nights.services import night_create, tables_sync
    from bunco_night.play.models import Entry
    from bunco_night.rules.layouts import plan_layout
    from bunco_night.rules.scoring import BUNCO, MINI_KINDS
    from bunco_night.rules.simulate import simulate_night

DOCUMENTS = [
    ("table_cards", {}),
    ("tally_sheets", {}),
    ("score_pads", {}),
    ("master_sheet", {}),
    ("prizes", {}),
    ("roster", {}),
]
TARGETS = {("tally_sheets", 12): 1.0, ("tally_sheets", 500): 15.0, ("all six", 500): 60.0}
MEMORY_TARGET_MB = {500: 500}
# Names from several alphabets, some long, so the fonts and line breaks do real work.
NAMES = [
    "Ann Marie Baxter",
    "Carla Méndez",
    "Maria-Guadalupe Fernández de la Cruz-Villanueva",
    "王秀英",
    "佐藤花子",
    "Irene O'Brien",
    "Zoë Łukasiewicz",
    "Joy Lindqvist",
]


def build_night(players: int) -> Night:
    """A finished night of ``players`` (house rules: four sets), everyone paid."""
    user = get_user_model().objects.create_user(f"bench-{players}")
    group = group_create(name=f"Bench Street Bunco {players}", user=user)
    Player.objects.bulk_create(
        Player(group=group, name=f"{NAMES[i % len(NAMES)]} {i + 1}") for i in range(players)
    )
    night = night_create(
        group=group, date=dt.date(2026, 10, 8), time=dt.time(19), place="The parish hall"
    )
    Payment.objects.bulk_create(
        Payment(attendance=a, amount_cents=night.dues_cents) for a in night.attendances.all()
    )
    rules = night.rules_obj
    ids = [p.pk for p in players_tonight(night)]
    tables = tables_sync(night, plan_layout(players, rules).sizes)
    played = simulate_night(players=players, rules=rules, sets=night.sets, seed=1)
    who = {f"Player {i + 1}": pk for i, pk in enumerate(ids)}
    seats, entries = [], []
    for rnd_json in played["rounds"]:
        rnd = Round.objects.create(
            night=night,
            number=rnd_json["number"],
            set_number=rnd_json["set"],
            mark=rnd_json["mark"],
            status=Round.Status.CLOSED,
        )
        for table, t in zip(tables, rnd_json["tables"], strict=True):
            credit: dict[int, list[str]] = {}
            for roll in t["rolls"]:
                credit.setdefault(roll["seat"], []).append(roll["kind"])
            for s in t["seats"]:
                kinds = credit.get(s["seat"], [])
                player = who.get(s["player"])
                seats.append(
                    Seat(
                        round=rnd,
                        table=table,
                        table_seats=table.seats,
                        number=s["seat"],
                        player_id=player,
                        won=s["seat"] in t["winners"],
                        buncos=kinds.count(BUNCO),
                        mini_buncos=sum(k in MINI_KINDS for k in kinds),
                    )
                )
                entries += [
                    Entry(
                        round=rnd,
                        table=table,
                        seat=s["seat"],
                        roller_id=player,
                        kind=BUNCO,
                        points=21,
                        nonce=f"bench-{rnd.number}-{table.number}-{s['seat']}-{i}",
                    )
                    for i in range(kinds.count(BUNCO))
                ]
    Seat.objects.bulk_create(seats, batch_size=2000)
    Entry.objects.bulk_create(entries, batch_size=2000)
    night.status = Night.Status.FINISHED
    night.save(update_fields=["status"])
    return night


def _tree(pid: int) -> list[int]:
    """``pid`` and every process below it, from each thread's list of its children
    (Linux /proc): a few small reads, where scanning all of /proc is one per process on
    the machine."""
    tree, todo = [], [pid]
    while todo:
        p = todo.pop()
        tree.append(p)
        try:
            for tid in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{tid}/children") as f:
                    todo += [int(child) for child in f.read().split()]
        except OSError:  # gone meanwhile
            pass
    return tree


def _cpu_ticks(pid: int) -> int:
    """The CPU time of ``pid`` and of its children that have ended (a parent collects
    their time when it reaps them: the fork server, its print workers'), clock ticks."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return sum(int(fields[i]) for i in (11, 12, 13, 14))  # utime stime cutime cstime


def _pss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


class Sampler:
    """The memory (PSS) of this process and every process below it added up, every
    100 ms, and the CPU time they have used.

    Reading a process's PSS makes the kernel walk its memory: sampled every 20 ms over
    all of /proc, as this bench did until 2026-11-23 evening, the sampling itself took a
    quarter of a core, slowing the documents it timed on a 2-core machine (500 tally
    sheets 18.0 s against 15.0 s without it). Memory grows over a piece's second or so,
    so 100 ms misses little of the peak. The CPU time needs no sampling: worker processes
    are children of Python's fork server, which reaps them, so their time is in its
    children's time once they end (``_cpu_ticks``); ``os.times()`` would not count it,
    as the fork server is this process's child but it never reaps the server."""

    INTERVAL = 0.1

    def __init__(self):
        if not os.path.exists(f"/proc/{os.getpid()}/task/{os.getpid()}/children"):
            # Without it, _tree would quietly find this process alone.
            raise SystemExit("This bench needs Linux's /proc/<pid>/task/<tid>/children.")
        self.peak = 0.0
        self._own = 0.0  # CPU seconds the sampling itself used, not counted
        self._own_start = 0.0
        self._start_ticks = 0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _sample(self) -> float:
        memory = sum(_pss_kb(pid) for pid in _tree(os.getpid())) / 1024
        with self._lock:
            self.peak = max(self.peak, memory)
        return memory

    def _run(self):
        while not self._stop.wait(self.INTERVAL):
            began = time.thread_time()
            self._sample()
            with self._lock:
                self._own += time.thread_time() - began

    def _ticks(self) -> int:
        return sum(_cpu_ticks(pid) for pid in _tree(os.getpid()))

    def reset(self):
        memory = self._sample()
        with self._lock:
            self.peak = memory
            self._start_ticks = self._ticks()
            self._own_start = self._own

    def cpu(self) -> float:
        """CPU seconds used since ``reset`` by this process and those below it, less the
        sampling's own."""
        self._sample()
        with self._lock:
            ticks = self._ticks() - self._start_ticks
            own = self._own - self._own_start
        return ticks / os.sysconf("SC_CLK_TCK") - own

    def stop(self):
        self._stop.set()
        self._thread.join()


def fetch(client: Client, url: str, query: dict) -> bytes:
    """GET a document as the host's browser would: a job's page is checked until the
    job is done, and then its PDF is fetched."""
    response = client.get(url, query)
    if response.status_code == 302 and "/print/jobs/" in response["Location"]:
        job_url = response["Location"]
        while True:
            page = client.get(job_url)
            assert page.status_code == 200, page.status_code
            html = page.content.decode()
            if "The PDF is ready" in html:
                break
            assert "could not be made" not in html and "stopped" not in html, html
            time.sleep(0.2)
        response = client.get(job_url + "pdf/")
        assert response.status_code == 200, response.status_code
        return b"".join(response.streaming_content)
    assert response.status_code == 200, response.status_code
    return response.content


def time_documents(
    night: Night, players: int, sampler: Sampler, only: list[str] | None = None
) -> list[str]:
    """Fetch each document as the host; return what missed its target."""
    client = Client()
    client.force_login(night.group.memberships.get().user)
    missed = []
    all_wall = all_cpu = all_peak = 0.0
    index = reverse("printing:index", args=[night.pk])
    for name, query in DOCUMENTS:
        if only and name not in only:
            continue
        url = reverse(f"printing:{name}", args=[night.pk])
        # The host clicks the document on the print page, which readies the print workers.
        assert client.get(index).status_code == 200
        sampler.reset()
        wall = time.perf_counter()
        pdf = fetch(client, url, query)
        wall, cpu = time.perf_counter() - wall, sampler.cpu()
        all_wall, all_cpu, all_peak = all_wall + wall, all_cpu + cpu, max(all_peak, sampler.peak)
        missed += _line(name, players, wall, cpu, sampler.peak, len(pdf))
    if not only:
        missed += _line("all six", players, all_wall, all_cpu, all_peak, None)
    target = MEMORY_TARGET_MB.get(players)
    if target is not None and all_peak >= target:
        missed.append(f"memory for {players} players")
    return missed


def _line(name, players, wall, cpu, peak, size) -> list[str]:
    target = TARGETS.get((name, players))
    verdict = ""
    if target is not None:
        verdict = f"  target < {target:.0f} s: {'ok' if wall < target else 'MISSED'}"
    size_text = f"{size / 1024:8.0f} KiB" if size is not None else " " * 12
    print(
        f"  {name:13s} {wall:6.2f} s wall {cpu:6.2f} s CPU {size_text} {peak:6.0f} MB peak{verdict}"
    )
    return [f"{name} for {players} players"] if target is not None and wall >= target else []


def main(counts: list[int], only: list[str] | None = None) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        # Never the test suite's database file: other runs may be using it.
        connections["default"].settings_dict["TEST"]["NAME"] = str(Path(tmp) / "bench.sqlite3")
        old = setup_databases(verbosity=0, interactive=False)
        sampler = Sampler()
        print(f"load average {os.getloadavg()[0]:.2f} at the start")
        try:
            missed = []
            for players in counts:
                start = time.perf_counter()
                night = build_night(players)
                print(
                    f"{players} players, {night.sets} sets of "
                    f"{night.rules_obj.rounds_per_set} rounds "
                    f"(data built in {time.perf_counter() - start:.1f} s):"
                )
                missed += time_documents(night, players, sampler, only)
                if players in MEMORY_TARGET_MB:
                    print(f"  memory target < {MEMORY_TARGET_MB[players]} MB at the peak")
        finally:
            sampler.stop()
            teardown_databases(old, verbosity=0)
        print(f"load average {os.getloadavg()[0]:.2f} at the end")
    if missed:
        print("Missed:", ", ".join(missed))
    return 1 if missed else 0


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("players", type=int, nargs="*", default=[12, 500])
    parser.add_argument(
        "--only",
        action="append",
        choices=[name for name, _ in DOCUMENTS],
        metavar="DOCUMENT",
        help="time only this document (again for more); the 'all six' line is then left out",
    )
    args = parser.parse_args()
    sys.exit(main(args.players, args.only))
