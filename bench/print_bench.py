"""Time every printed document for a finished night of 12 and of 500 players.

Run: .venv/bin/python bench/print_bench.py [players ...]   (default: 12 500)
Targets: all tally sheets for 12 players under 2 s; for 500 players under 60 s.

The nights live in a throwaway SQLite database (Django's test database machinery,
as ``manage.py build_demo`` does). Each night is the house rules' four sets of six
rounds, played to the end by the rules engine's simulator, written as seats and
bunco entries, with everyone's dues paid. Each document is fetched through its view,
as the host's browser would, and timed in wall-clock and CPU seconds: on a shared
machine the CPU time is the steadier figure.
"""

import datetime as dt
import os
import sys
import tempfile
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bunco_night.test_settings")
# whitenoise warns that collectstatic has not run: static files come from the finders here.
warnings.filterwarnings("ignore", "No directory at", UserWarning)

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connections  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_databases, teardown_databases  # noqa: E402
from django.urls import reverse  # noqa: E402

from bunco_night.groups.models import Player  # noqa: E402
from bunco_night.groups.services import group_create  # noqa: E402
from bunco_night.nights.models import Night, Payment, Round, Seat  # noqa: E402
from bunco_night.nights.selectors import players_tonight  # noqa: E402
from bunco_night.nights.services import night_create, tables_sync  # noqa: E402
from bunco_night.play.models import Entry  # noqa: E402
from bunco_night.rules.layouts import plan_layout  # noqa: E402
from bunco_night.rules.scoring import BUNCO, MINI_KINDS  # noqa: E402
from bunco_night.rules.simulate import simulate_night  # noqa: E402

DOCUMENTS = [
    ("table_cards", {}),
    ("tally_sheets", {}),
    ("score_pads", {}),
    ("master_sheet", {}),
    ("prizes", {}),
    ("roster", {}),
]
TARGETS = {("tally_sheets", 12): 2.0, ("tally_sheets", 500): 60.0}
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


def time_documents(night: Night, players: int) -> list[str]:
    """Fetch each document as the host; return what missed its target."""
    client = Client()
    client.force_login(night.group.memberships.get().user)
    missed = []
    for name, query in DOCUMENTS:
        url = reverse(f"printing:{name}", args=[night.pk])
        wall, cpu = time.perf_counter(), time.process_time()
        response = client.get(url, query)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        assert response.status_code == 200, (name, response.status_code)
        target = TARGETS.get((name, players))
        verdict = ""
        if target is not None:
            verdict = f"  target < {target:.0f} s: {'ok' if wall < target else 'MISSED'}"
            if wall >= target:
                missed.append(f"{name} for {players} players")
        print(
            f"  {name:13s} {wall:6.2f} s wall {cpu:6.2f} s CPU "
            f"{len(response.content) / 1024:8.0f} KiB{verdict}"
        )
    return missed


def main(counts: list[int]) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        # Never the test suite's database file: other runs may be using it.
        connections["default"].settings_dict["TEST"]["NAME"] = str(Path(tmp) / "bench.sqlite3")
        old = setup_databases(verbosity=0, interactive=False)
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
                missed += time_documents(night, players)
        finally:
            teardown_databases(old, verbosity=0)
    if missed:
        print("Missed:", ", ".join(missed))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main([int(a) for a in sys.argv[1:]] or [12, 500]))
