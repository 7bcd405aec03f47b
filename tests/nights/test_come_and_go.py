"""People who come and go between rounds keep the room's movement (docs/rules.md section 10).

Round 1 is played and closed, so round 2 is seated by the movement; then someone leaves or
arrives, and round 2 is re-seated around them through the night's services.
"""

import pytest

from bunco_night.core.errors import ServiceError
from bunco_night.groups.models import Player
from bunco_night.groups.services import player_add
from bunco_night.nights.models import Attendance
from bunco_night.nights.selectors import seated_tables
from bunco_night.nights.services import attendance_leave, attendance_set, guest_add
from bunco_night.rules.layouts import plan_layout
from tests.factories import make_group, make_night
from tests.nights.helpers import partner_pairs
from tests.play.helpers import play_round, start_night

pytestmark = pytest.mark.django_db


def places(rnd) -> dict:
    """Occupant -> table number; ghosts as ("ghost", seat number, table number)."""
    out = {}
    for t in seated_tables(rnd):
        for s in t.seats:
            key = s.player_id or ("ghost", t.table.number, s.number)
            out[key] = t.table.number
    return out


def check_room(night, rnd, last):
    """Section 10: the layout for the count, no repeated partner, no two ghosts partnered."""
    tables = seated_tables(rnd)
    gone = [Attendance.Status.ABSENT, Attendance.Status.LEFT]
    playing = night.attendances.exclude(status__in=gone).count()
    rules = night.rules_obj
    layout = plan_layout(playing, rules)
    assert [t.size for t in tables] == layout.sizes
    assert sum(1 for t in tables for s in t.seats if not s.is_ghost) == playing
    assert not (partner_pairs(rnd) & partner_pairs(last))
    for t in tables:
        assert not any(s.is_ghost and p is not None and p.is_ghost for s, p in t.seat_rows)


def after_round_one(players, **knobs):
    group = make_group(regulars=players, substitutes=2, **knobs)
    night = make_night(group, sets=1)
    start_night(night, seed=players)
    nxt = play_round(night)
    return night, night.rounds.get(number=1), nxt


@pytest.mark.parametrize("players", range(5, 13))
@pytest.mark.parametrize("fill", ["tables", "ghosts"])
def test_a_leaver_between_rounds_moves_nobody_else_off_a_table_that_keeps_its_size(players, fill):
    night, last, nxt = after_round_one(players, fill=fill)
    before = places(nxt)
    leaver = night.attendances.get(player__name="Regular 1")
    attendance_leave(attendance=leaver)
    after = places(nxt)
    assert leaver.player_id not in after
    check_room(night, nxt, last)
    sizes = {t.table.number: t.size for t in seated_tables(nxt)}
    old = {t: sum(1 for k, n in before.items() if n == t and isinstance(k, int)) for t in sizes}
    # Only a table that shrank (or went) sends anyone elsewhere.
    kept = {t for t in sizes if old[t] <= sizes[t]}
    for person, table in before.items():
        if isinstance(person, int) and person != leaver.player_id and table in kept:
            assert after[person] == table, (person, table, after[person])


@pytest.mark.parametrize("players", range(5, 13))
@pytest.mark.parametrize("fill", ["tables", "ghosts"])
def test_a_late_arrival_keeps_everyone_else_at_their_table_or_moves_one(players, fill):
    night, last, nxt = after_round_one(players, fill=fill)
    before = places(nxt)
    late = night.group.players.get(name="Sub 1")
    guest_add(night=night, player=late)
    after = places(nxt)
    check_room(night, nxt, last)
    assert late.pk in after
    moved = [p for p in before if isinstance(p, int) and after[p] != before[p]]
    # A new table at the bottom needs a second person; otherwise nobody moves.
    assert len(moved) <= 1


def test_a_substitute_takes_the_seat_of_the_regular_who_sends_them():
    """Regular 5 was not coming to round 1, then said she would come: seated for round 2,
    she sends Sub 2 instead. (Someone who played a round can only leave.)"""
    night = make_night(make_group(regulars=12, substitutes=2), sets=1)
    regular = night.attendances.get(player__name="Regular 5")
    attendance_set(attendance=regular, status=Attendance.Status.ABSENT)
    start_night(night, seed=12)
    nxt = play_round(night)
    last = night.rounds.get(number=1)
    attendance_set(attendance=regular, status=Attendance.Status.COMING)
    before = places(nxt)
    assert regular.player_id in before
    sub = night.group.players.get(name="Sub 2")
    attendance_set(attendance=regular, status=Attendance.Status.SENT_SUB, substitute=sub)
    after = places(nxt)
    assert after[sub.pk] == before[regular.player_id]
    assert {p: t for p, t in after.items() if p != sub.pk} == {
        p: t for p, t in before.items() if p != regular.player_id
    }
    check_room(night, nxt, last)


def test_with_ghosts_a_leaver_leaves_a_ghost_for_their_place():
    night, last, nxt = after_round_one(12, fill="ghosts")
    leaver = night.attendances.get(player__name="Regular 3")
    table = places(nxt)[leaver.player_id]
    attendance_leave(attendance=leaver)
    ghost = next(s for t in seated_tables(nxt) for s in t.seats if s.is_ghost)
    assert places(nxt)[("ghost", table, ghost.number)] == table
    assert ghost.occupant_name == "Ghost (for Regular 3)"


@pytest.mark.slow
def test_a_large_night_keeps_its_movement_when_five_leave_and_three_arrive():
    night, last, nxt = after_round_one(100)
    group = night.group
    late = [
        player_add(group=group, name=f"Late {i}", kind=Player.Kind.SUBSTITUTE) for i in range(3)
    ]
    before = places(nxt)
    leavers = list(night.attendances.order_by("pk")[:5])
    for a in leavers:
        attendance_leave(attendance=a)
    for p in late:
        guest_add(night=night, player=p)
    after = places(nxt)
    check_room(night, nxt, last)
    gone = {a.player_id for a in leavers}
    moved = [p for p in before if p not in gone and after[p] != before[p]]
    assert len(moved) <= 5  # a handful at the bottom, not a re-draw of the room


@pytest.mark.parametrize("fill", ["tables", "ghosts"])
def test_leaving_twice_is_refused_and_she_stays_left_early(fill):
    """A second "leaves" for someone who has already left (a double tap, a second host's
    page) is refused in words and changes nothing: she played round 1, so she stays left
    early, never not coming (docs/rules.md section 10)."""
    night, _last, _nxt = after_round_one(9, fill=fill)
    leaver = night.attendances.get(player__name="Regular 3")
    attendance_leave(attendance=leaver)
    with pytest.raises(ServiceError) as refused:
        attendance_leave(attendance=night.attendances.get(pk=leaver.pk))
    assert refused.value.message == "Regular 3 has already left."
    assert night.attendances.get(pk=leaver.pk).status == Attendance.Status.LEFT


def test_someone_not_coming_cannot_leave():
    night = make_night(make_group(regulars=9, substitutes=2), sets=1)
    away = attendance_set(
        attendance=night.attendances.get(player__name="Regular 9"), status="absent"
    )
    start_night(night)
    play_round(night)
    with pytest.raises(ServiceError) as refused:
        attendance_leave(attendance=away)
    assert refused.value.message == "Regular 9 is not playing tonight."
    assert night.attendances.get(pk=away.pk).status == Attendance.Status.ABSENT
