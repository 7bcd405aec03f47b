"""A leaver and a late arrival recorded one after the other keep everyone else in the seat
the movement gave them (docs/rules.md section 10): "Within a table, seats may shift only to
keep the partner rules". Through the night's services, as the host records them."""

import itertools

import pytest
from django.db import transaction

from bunco_night.nights.selectors import round_before, seated_tables, seating_of
from bunco_night.nights.services import attendance_leave, guest_add, seating_swap
from bunco_night.rules.replan import round_partners
from tests.factories import make_group, make_night, make_user
from tests.play.helpers import play_round, start_night

pytestmark = pytest.mark.django_db


class Undo(Exception):
    """Takes a case's changes back (its savepoint), so the next starts from the same night."""


def seats(rnd) -> dict:
    return {
        s.player_id: (t.table.number, s.number)
        for t in seated_tables(rnd)
        for s in t.seats
        if s.player_id
    }


def partners_rule_keeps_them_off(rnd, table_number, pinned) -> bool:
    """Whether no order of the table's occupants, with ``pinned`` people in their seats,
    keeps the partner rules: no last round's partners again, no two ghosts partnered."""
    table = next(t for t in seated_tables(rnd) if t.table.number == table_number)
    occupants = [s.player_id or f"ghost {s.number}" for s in table.seats]
    last = round_partners(rnd.night.rules_obj, seating_of(seated_tables(round_before(rnd))))
    for order in itertools.permutations(occupants):
        if any(order[seat - 1] != p for p, seat in pinned.items()):
            continue
        pairs = ((order[0], order[2]), (order[1], order[3]))
        if not any(
            (str(a).startswith("ghost") and str(b).startswith("ghost")) or last.get(a) == b
            for a, b in pairs
        ):
            return False
    return True


@pytest.mark.parametrize("players", [10, 13])
@pytest.mark.parametrize("order", ["leaver first", "arrival first"])
def test_a_leaver_and_an_arrival_move_nobody_else_at_a_table(players, order):
    group = make_group(user=make_user(), regulars=players, substitutes=1, fill="ghosts")
    night = make_night(group, sets=1)
    start_night(night, seed=1)
    nxt = play_round(night)
    planned = seats(nxt)
    arrival = group.players.get(name="Sub 1")
    shifted = []
    for leaver in list(night.attendances.select_related("player")):
        try:
            with transaction.atomic():
                if order == "leaver first":
                    attendance_leave(attendance=leaver)
                    mid = seats(nxt)
                    guest_add(night=night, player=arrival)
                else:
                    guest_add(night=night, player=arrival)
                    mid = seats(nxt)
                    attendance_leave(attendance=night.attendances.get(pk=leaver.pk))
                now = seats(nxt)
                for table in {t for t, _ in now.values()}:
                    # Who sat at this table all along (a table removed and added back, or
                    # one that must give someone up, moves people between tables).
                    stayed = {
                        p: planned[p][1]
                        for p, (t, _) in now.items()
                        if p in planned and planned[p][0] == mid[p][0] == t == table
                    }
                    moved = [p for p, seat in stayed.items() if now[p][1] != seat]
                    if moved and not partners_rule_keeps_them_off(nxt, table, stayed):
                        shifted.append((leaver.player.name, table, moved))
                raise Undo
        except Undo:
            pass
    assert shifted == []


def test_the_issue_s_night_the_arrival_takes_the_leaver_s_seat_and_nobody_shifts():
    """Ten players with ghosts: after round 1 a regular leaves from a table with a ghost
    across from her seat's partner, and a late arrival comes: she takes the leaver's seat;
    the player in seat 3 stays in seat 3 and the ghost in seat 4."""
    group = make_group(user=make_user(), regulars=10, substitutes=1, fill="ghosts")
    night = make_night(group, sets=1)
    start_night(night, seed=1)
    nxt = play_round(night)
    table = next(t for t in seated_tables(nxt) if [s.is_ghost for s in t.seats] == [0, 0, 0, 1])
    leaver_seat, keeper_seat, ghost_seat = table.seats[1], table.seats[2], table.seats[3]
    attendance_leave(attendance=night.attendances.get(player_id=leaver_seat.player_id))
    guest_add(night=night, player=group.players.get(name="Sub 1"))
    after = next(t for t in seated_tables(nxt) if t.table.number == table.table.number)
    assert after.seats[1].player.name == "Sub 1"
    assert after.seats[2].player_id == keeper_seat.player_id
    assert after.seats[3].is_ghost and ghost_seat.is_ghost


def test_a_swap_by_the_host_is_the_plan_a_later_re_seat_keeps():
    """The host swapped two players by hand: a leaver recorded afterwards sends nobody back
    to a seat from before the swap."""
    group = make_group(user=make_user(), regulars=12, substitutes=1, fill="ghosts")
    night = make_night(group, sets=1)
    start_night(night, seed=1)
    nxt = play_round(night)
    first, second = seated_tables(nxt)[0].seats[0], seated_tables(nxt)[1].seats[0]
    seating_swap(seat_a=first, seat_b=second)
    swapped = seats(nxt)
    nxt.refresh_from_db()
    assert nxt.planned_seating is None
    leaver = night.attendances.get(player_id=seated_tables(nxt)[2].seats[0].player_id)
    attendance_leave(attendance=leaver)
    now = seats(nxt)
    assert now[first.player_id] == swapped[first.player_id]
    assert now[second.player_id] == swapped[second.player_id]


def ghost_seats(rnd) -> set:
    return {(t.table.number, s.number) for t in seated_tables(rnd) for s in t.seats if s.is_ghost}


@pytest.mark.parametrize("order", ["leaver first", "arrival first"])
def test_a_leaver_and_an_arrival_move_nobody_else_off_their_table(order):
    """Thirteen players with ghosts on four tables: a regular leaves and a late arrival
    comes, one after the other. Twelve need only three tables, so leaving first closes the
    bottom table; the arrival making thirteen again puts the room back as the movement
    seated it, the arrival in the leaver's seat or a ghost's: as if only they had swapped.
    The arrival first takes a ghost's seat and keeps it; then nobody changes table, and a
    seat shifts only where the leaver's ghost would partner another ghost."""
    group = make_group(user=make_user(), regulars=13, substitutes=1, fill="ghosts")
    night = make_night(group, sets=1)
    start_night(night, seed=1)
    nxt = play_round(night)
    planned, ghosts = seats(nxt), ghost_seats(nxt)
    assert len(seated_tables(nxt)) == 4
    arrival = group.players.get(name="Sub 1")
    wrong = []
    for leaver in list(night.attendances.select_related("player")):
        try:
            with transaction.atomic():
                if order == "leaver first":
                    attendance_leave(attendance=leaver)
                    guest_add(night=night, player=arrival)
                else:
                    guest_add(night=night, player=arrival)
                    attendance_leave(attendance=night.attendances.get(pk=leaver.pk))
                now = seats(nxt)
                if now[arrival.pk] not in {planned[leaver.player_id], *ghosts}:
                    wrong.append((leaver.player.name, "arrival", now[arrival.pk]))
                for p, (table, seat) in planned.items():
                    if p == leaver.player_id or now[p] == (table, seat):
                        continue
                    pinned = {q: at[1] for q, at in planned.items() if at[0] == table and q in now}
                    forced = order == "arrival first" and now[p][0] == table
                    if not (forced and partners_rule_keeps_them_off(nxt, table, pinned)):
                        wrong.append((leaver.player.name, p, (table, seat), now[p]))
                raise Undo
        except Undo:
            pass
    assert wrong == [], "\n".join(map(str, wrong))
