"""Phones tapping while the host closes the round, each on its own database connection.

The close must succeed under any tap load and never deadlock; every tap the server
accepted is stored exactly once. A round can only close when every table's round is over,
so those taps are late entries (docs/rules.md section 3.5): set aside for the host, in the
round they name, before and after the close alike, and the results the close recorded
are those of the entries that count. Runs on SQLite and on PostgreSQL (`make test` runs
both).
"""

import itertools
import threading
import time
from collections import Counter

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from bunco_night.nights.models import Attendance, Payment, Seat
from bunco_night.nights.services import attendance_set, payment_record
from bunco_night.play.models import Entry
from bunco_night.play.services import round_close, table_done
from bunco_night.play.state import round_board
from tests.factories import make_group, make_night
from tests.play.helpers import start_night, tap

pytestmark = pytest.mark.django_db(transaction=True)

_nonces = itertools.count(1)

# A breath between one writer's writes, as people have. SQLite's write lock is not
# fair (a waiting writer polls), so a thread writing in a tight loop can starve the
# others past their timeout; with a breath the writes still overlap all the time.
BREATH = 0.02


def ready_to_close(rules: str, players: int):
    """A started round every table has finished, side 0 winning everywhere.

    One more regular is on the roster and not coming: a ghost takes the seat, so the
    close seats a ghost for that regular's attendance in the next round.
    """
    group = make_group(rules=rules, regulars=players + 1, substitutes=0, fill="ghosts")
    night = make_night(group, sets=1)
    absent = night.attendances.get(player__name="Regular 1")
    attendance_set(attendance=absent, status=Attendance.Status.ABSENT)
    rnd = start_night(night)
    view = round_board(rnd)
    for tv in view.tables:
        for seat in range(1, tv.size + 1):
            tap(tv.table, seat, "miss")
    head_last = sorted(view.tables, key=lambda tv: tv.table.number == 1)
    for tv in head_last:
        while round_board(rnd).table(tv.table.pk).scores[0] < tv.target:
            tap(tv.table, 1, "points", 2)
    for tv in view.tables:
        if not round_board(rnd).table(tv.table.pk).outcome.done:
            table_done(table=tv.table)
    assert round_board(rnd).over
    return night, rnd, absent


def winning_seats(tv):
    """Seats whose taps only widen side 0's lead, so no tap makes a tie mid-close."""
    return [1, 3] if tv.teams else [1]


def phone(token, seat, kind, deadline, closed, accepted, after_close, errors):
    """Tap one seat of round 1 through the phone endpoint, as a phone's queue sends taps,
    until one tap has gone in after the close (or time is up)."""
    client = Client()
    url = reverse("play:table_entry", args=[token])
    try:
        while time.monotonic() < deadline:
            was_closed = closed.is_set()
            nonce = f"race-{next(_nonces):010d}"
            tap = {"points": "points:1", "bunco": "bunco", "mini": "mini"}[kind]
            response = client.post(
                url,
                {"nonce": nonce, "seat": seat, "tap": tap, "round": "1"},
                HTTP_ACCEPT="application/json",
            )
            body = response.json() if response.headers["Content-Type"].startswith("app") else {}
            if response.status_code == 200 and body.get("ok"):
                accepted.append((nonce, body["late"]))
                if was_closed:
                    after_close.append(nonce)
                    return
                time.sleep(BREATH)
            else:
                errors.append((response.status_code, body or response.content[:300]))
                return
    except Exception as exc:  # noqa: BLE001 - reported by the test
        errors.append(repr(exc))
    finally:
        connection.close()


def host_taking_dues(attendances, closed, paid, errors):
    """The host records dues (the absent regular's first) until the round is closed."""
    try:
        for attendance in itertools.cycle(attendances):
            if closed.is_set():
                return
            nonce = f"dues-{next(_nonces):010d}"
            payment_record(attendance=attendance, amount_cents=100, nonce=nonce)
            paid.append(attendance.pk)
            time.sleep(BREATH)
    except Exception as exc:  # noqa: BLE001 - reported by the test
        errors.append(repr(exc))
    finally:
        connection.close()


def closer(rnd, start_after, closed, outcome):
    try:
        start_after()
        outcome["next"] = round_close(rnd=rnd)
    except Exception as exc:  # noqa: BLE001 - reported by the test
        outcome["error"] = repr(exc)
    finally:
        closed.set()
        connection.close()


@pytest.mark.parametrize(
    ("rules", "players", "attempt"),
    [("house", 11, n) for n in range(3)] + [("deluxe", 15, n) for n in range(3)],
)
def test_closing_while_phones_tap_counts_every_accepted_tap_once(rules, players, attempt):
    """Four phones at the head table (and, where the rules let them, the other tables)
    tap, and the host takes dues, while the host closes the round."""
    night, rnd, absent = ready_to_close(rules, players)
    view = round_board(rnd)
    before = Counter(Entry.objects.filter(round=rnd).values_list("table_id", flat=True))
    phones = []
    kinds = itertools.cycle(["points", "bunco", "points", "mini" if rules == "house" else "points"])
    for tv in view.tables:
        per_table = 4 if tv.table.number == 1 else 1
        seats = itertools.cycle(winning_seats(tv))
        for _ in range(per_table):
            phones.append((tv.table.token, next(seats), next(kinds)))

    closed = threading.Event()
    accepted, after_close, errors, outcome, paid = [], [], [], {}, []
    started = time.monotonic()
    deadline = started + 30  # phones give up here if the close never comes

    def when_phones_are_busy():
        # Close once the phones have had their taps accepted for a moment.
        deadline = time.monotonic() + 10
        while len(accepted) < 2 * len(phones) and time.monotonic() < deadline:
            time.sleep(0.01)

    threads = [
        threading.Thread(target=phone, args=(*p, deadline, closed, accepted, after_close, errors))
        for p in phones
    ]
    dues = [absent, *night.attendances.exclude(pk=absent.pk)[:2]]
    threads.append(threading.Thread(target=host_taking_dues, args=(dues, closed, paid, errors)))
    threads.append(
        threading.Thread(target=closer, args=(rnd, when_phones_are_busy, closed, outcome))
    )
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not any(t.is_alive() for t in threads), "a phone or the close hung"
    assert time.monotonic() - started < 60

    assert "error" not in outcome and errors == []
    assert len(accepted) > len(phones)  # the phones tapped before the close
    assert len(after_close) == len(phones)  # and after it, every one of them
    rnd.refresh_from_db()
    assert rnd.is_closed and outcome["next"].number == 2

    # Every accepted tap is stored exactly once, in the round it names, set aside as late:
    # every table's round was over before the phones tapped.
    nonces = [n for n, _ in accepted]
    stored = Entry.objects.filter(nonce__in=nonces)
    assert stored.count() == len(nonces) == len(set(nonces))
    assert set(stored.values_list("round_id", flat=True)) == {rnd.pk}
    assert all(late for _, late in accepted)
    assert stored.filter(late_at__isnull=False, late_decision="").count() == len(nonces)
    assert paid and Payment.objects.count() == len(paid)
    after = Counter(Entry.objects.filter(round=rnd).values_list("table_id", flat=True))
    assert sum(after.values()) - sum(before.values()) == len(accepted)

    # The results the close recorded are those of the entries that count (no late tap).
    entries = Entry.objects.filter(round=rnd, roller__isnull=False).counting()
    buncos = Counter(entries.filter(kind="bunco").values_list("roller_id", flat=True))
    minis = Counter(entries.filter(kind="mini").values_list("roller_id", flat=True))
    for seat in Seat.objects.filter(round=rnd, player__isnull=False):
        assert (seat.buncos, seat.mini_buncos) == (buncos[seat.player_id], minis[seat.player_id])
        assert seat.won == (seat.number in (1, 3) if seat.table_seats == 4 else seat.number == 1)
