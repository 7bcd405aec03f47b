"""Night services: attendance, substitutes, ghosts, dues and seating."""

import pytest
from django.db import IntegrityError, transaction

from bunco_night.core.errors import ServiceError
from bunco_night.groups.models import Player
from bunco_night.groups.services import player_add, rules_update
from bunco_night.nights.models import Attendance, Round, Seat
from bunco_night.nights.selectors import current_round, dues_summary, players_tonight, seated_tables
from bunco_night.nights.services import (
    attendance_leave,
    attendance_send_new_substitute,
    attendance_set,
    guest_add,
    payment_record,
    payment_undo,
    seating_draw,
    seating_swap,
)
from bunco_night.rules.layouts import plan_layout
from tests.factories import make_group, make_night
from tests.nights.helpers import tables_of

pytestmark = pytest.mark.django_db


def att(night, name):
    return night.attendances.get(player__name=name)


def test_a_new_night_lists_every_active_regular_as_coming_and_snapshots_rules():
    group = make_group(regulars=12)
    player_add(group=group, name="Old Timer")
    group.players.filter(name="Old Timer").update(retired=True)
    night = make_night(group)
    assert night.attendances.count() == 12
    assert {a.status for a in night.attendances.all()} == {Attendance.Status.COMING}
    assert night.sets == 4  # the house preset's sets (docs/rules.md section 8.4)
    rules_update(group=group, changes={"bunco_points": 30})
    night.refresh_from_db()
    assert night.rules_obj.bunco_points == 21  # a past night keeps its own rules


def test_substitute_plays_instead_of_the_regular():
    """Section 8.2: a regular who cannot come "sends a substitute"."""
    group = make_group()
    night = make_night(group)
    sub = group.players.get(name="Sub 1")
    attendance_set(
        attendance=att(night, "Regular 1"), status=Attendance.Status.SENT_SUB, substitute=sub
    )
    names = [p.name for p in players_tonight(night)]
    assert "Sub 1" in names and "Regular 1" not in names and len(names) == 12


def test_a_new_substitute_on_the_spot():
    group = make_group()
    night = make_night(group)
    attendance_send_new_substitute(
        attendance=att(night, "Regular 2"), name="Walk In", phone="555-7777"
    )
    new = group.players.get(name="Walk In")
    assert new.kind == Player.Kind.SUBSTITUTE and att(night, "Regular 2").substitute == new


@pytest.mark.parametrize(
    ("status", "sub_name", "code"),
    [
        ("sub", None, "no_substitute"),
        ("coming", "Sub 1", "sub_for_coming"),
        ("sub", "Regular 1", "self_substitute"),
        ("sub", "Regular 3", "already_playing"),
        ("maybe", None, "bad_status"),
    ],
)
def test_attendance_refuses_what_cannot_be(status, sub_name, code):
    group = make_group()
    night = make_night(group)
    sub = group.players.get(name=sub_name) if sub_name else None
    with pytest.raises(ServiceError) as caught:
        attendance_set(attendance=att(night, "Regular 1"), status=status, substitute=sub)
    assert caught.value.code == code


def test_one_substitute_cannot_stand_in_twice():
    group = make_group()
    night = make_night(group)
    sub = group.players.get(name="Sub 1")
    attendance_set(attendance=att(night, "Regular 1"), status="sub", substitute=sub)
    with pytest.raises(ServiceError) as caught:
        attendance_set(attendance=att(night, "Regular 2"), status="sub", substitute=sub)
    assert caught.value.code == "already_playing"
    with pytest.raises(IntegrityError), transaction.atomic():
        Attendance.objects.filter(pk=att(night, "Regular 2").pk).update(
            status="sub", substitute=sub
        )


def test_absent_regular_without_substitute_still_owes_dues():
    """Section 8.3: "If you CAN NOT FIND A SUB then you still MUST PAY YOUR $5.00!" """
    group = make_group()
    night = make_night(group)
    attendance_set(attendance=att(night, "Regular 1"), status=Attendance.Status.ABSENT)
    summary = dues_summary(night)
    owed = {r.attendance.player.name: r.owes_cents for r in summary.rows}
    assert owed["Regular 1"] == 500 and summary.expected_cents == 12 * 500


def test_dues_pot_and_payout():
    """Section 8.3: "The dues collected are the pot"; section 7.4 splits it, and section
    7.8 rounds each share down to whole dollars, the $2 left over to the first prize."""
    group = make_group(regulars=12)
    night = make_night(group)
    for a in night.attendances.all():
        payment_record(attendance=a, amount_cents=500)
    summary = dues_summary(night)
    assert summary.collected_cents == 6000 and summary.outstanding_cents == 0
    assert {p.code: p.amount_cents for p in summary.payouts} == {
        "most_wins": 2500 + 200,
        "most_buncos": 1900,
        "last_bunco": 1000,
        "fewest_wins": 400,
    }
    payment = payment_record(attendance=att(night, "Regular 1"), amount_cents=200)
    payment_undo(payment=payment)
    assert dues_summary(night).collected_cents == 6000
    with pytest.raises(ServiceError) as caught:
        payment_record(attendance=att(night, "Regular 1"), amount_cents=-5)
    assert caught.value.code == "bad_amount"


def test_a_group_paying_to_the_cent_keeps_the_cents():
    """Section 7.8: rounding to the cent, the leftover the host's: $25.20, $19.80, ..."""
    group = make_group(regulars=12, prize_rounding="cents", prize_leftover="host")
    night = make_night(group)
    for a in night.attendances.all():
        payment_record(attendance=a, amount_cents=500)
    assert [p.amount_cents for p in dues_summary(night).payouts] == [2520, 1980, 1020, 480]


@pytest.mark.parametrize("players", list(range(2, 41)))
def test_seating_for_2_to_40_players(players):
    """Section 4: the layout for the number present."""
    group = make_group(regulars=players, substitutes=0)
    night = make_night(group)
    rnd = seating_draw(night=night, seed=players)
    layout = plan_layout(players, night.rules_obj)
    chart = seated_tables(rnd)
    assert [len(t.seats) for t in chart] == layout.sizes
    seated = [s.player_id for t in chart for s in t.seats]
    assert sorted(seated) == sorted(p.pk for p in players_tonight(night))
    assert chart[0].table.is_head
    assert all(t.teams == (len(t.seats) == 4 and len(chart) > 1) for t in chart)


@pytest.mark.parametrize("players", [5, 6, 7, 9, 10, 11, 13, 21, 38])
def test_ghosts_fill_seats_and_never_partner(players):
    """Sections 4.2 and 5.5: ghosts fill the seats; "Two ghosts are never partners"."""
    group = make_group(regulars=players + 1, substitutes=0, fill="ghosts")
    night = make_night(group)
    attendance_set(attendance=att(night, "Regular 1"), status=Attendance.Status.ABSENT)
    rnd = seating_draw(night=night, seed=1)
    chart = seated_tables(rnd)
    assert all(len(t.seats) == 4 for t in chart)
    ghosts = [s for t in chart for s in t.seats if s.is_ghost]
    assert len(ghosts) == len(chart) * 4 - players
    assert ghosts[0].occupant_name == "Ghost (for Regular 1)"
    for t in chart:
        assert not (t.seats[0].is_ghost and t.seats[2].is_ghost)
        assert not (t.seats[1].is_ghost and t.seats[3].is_ghost)


def test_redraw_with_the_same_seed_is_the_same():
    group = make_group()
    night = make_night(group)
    first = [
        (s.table.number, s.number, s.player_id)
        for s in seating_draw(night=night, seed=42).seats.all()
    ]
    other = [
        (s.table.number, s.number, s.player_id)
        for s in seating_draw(night=night, seed=7).seats.all()
    ]
    again = [
        (s.table.number, s.number, s.player_id)
        for s in seating_draw(night=night, seed=42).seats.all()
    ]
    assert first == again and first != other
    night.refresh_from_db()
    assert night.seed == 42 and night.rounds.count() == 1


def test_fewer_than_two_players_cannot_be_seated():
    group = make_group(regulars=2, substitutes=0)
    night = make_night(group)
    attendance_set(attendance=att(night, "Regular 1"), status=Attendance.Status.ABSENT)
    with pytest.raises(ServiceError) as caught:
        seating_draw(night=night)
    assert caught.value.code == "too_few_players"


def test_swap_seats_by_hand_before_the_round_starts():
    group = make_group()
    night = make_night(group)
    rnd = seating_draw(night=night, seed=3)
    a, b = rnd.seats.get(table__number=1, number=1), rnd.seats.get(table__number=3, number=2)
    pa, pb = a.player_id, b.player_id
    seating_swap(seat_a=a, seat_b=b)
    a.refresh_from_db(), b.refresh_from_db()
    assert (a.player_id, b.player_id) == (pb, pa)
    Round.objects.filter(pk=rnd.pk).update(status=Round.Status.PLAYING)
    with pytest.raises(ServiceError) as caught:
        seating_swap(seat_a=a, seat_b=b)
    assert caught.value.code == "round_started"


def test_late_arrival_and_early_leaver_replan_the_layout():
    """Section 10: a change of who plays keeps everyone else at their table; the layout
    follows the new count (section 4.1), growing and shrinking at the bottom."""
    group = make_group(regulars=12, substitutes=1)
    night = make_night(group)
    rnd = seating_draw(night=night, seed=1)
    before = tables_of(rnd)
    sub = group.players.get(name="Sub 1")
    guest_add(night=night, player=sub)
    after = tables_of(rnd)
    assert [len(t.seats) for t in seated_tables(rnd)] == [4, 4, 3, 2]
    assert after[sub.pk] == 4  # the arrival joins where the layout grows
    moved = [p for p in before if after[p] != before[p]]
    assert len(moved) == 1 and after[moved[0]] == 4  # one person from table 3 joins them
    attendance_leave(attendance=att(night, "Sub 1"))
    assert [len(t.seats) for t in seated_tables(rnd)] == [4, 4, 4]
    assert night.tables.filter(active=True).count() == 3
    assert tables_of(rnd) == before
    with pytest.raises(ServiceError) as caught:
        guest_add(night=night, player=group.players.get(name="Regular 1"))
    assert caught.value.code == "already_playing"


def test_database_refuses_impossible_seats():
    """Database constraints for a player twice in one round, two in a seat, a seat outside its
    table."""
    group = make_group()
    night = make_night(group)
    rnd = seating_draw(night=night, seed=1)
    seat = rnd.seats.get(table__number=1, number=1)
    other = group.players.exclude(pk=seat.player_id).first()
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(round=rnd, table=seat.table, table_seats=4, number=1, player=other)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.filter(pk=rnd.seats.get(table__number=2, number=1).pk).update(
            player=seat.player
        )
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(round=rnd, table=seat.table, table_seats=4, number=5)


def test_a_repeated_payment_is_recorded_once():
    """A double tap on "Paid" with the same form id records it once."""
    group = make_group()
    night = make_night(group)
    a = att(night, "Regular 1")
    first = payment_record(attendance=a, amount_cents=500, nonce="pay-form-0001")
    again = payment_record(attendance=a, amount_cents=500, nonce="pay-form-0001")
    assert first.pk == again.pk and a.payments.count() == 1


def test_undoing_a_draw_puts_back_the_seating_and_mark_it_replaced():
    from bunco_night.nights.services import seating_draw_undo

    group = make_group(regulars=8, substitutes=1, draw_mark_with_die=True)
    night = make_night(group)
    rnd = seating_draw(night=night, seed=1)
    first = list(rnd.seats.values_list("player_id", flat=True).order_by("table", "number"))
    mark = Round.objects.get(pk=rnd.pk).mark
    seating_draw(night=night, seed=2)
    seating_draw_undo(night=night)
    rnd.refresh_from_db()
    assert list(rnd.seats.values_list("player_id", flat=True).order_by("table", "number")) == first
    night.refresh_from_db()
    assert rnd.mark == mark and rnd.replaced_seating is None and night.seed == 1
    with pytest.raises(ServiceError) as caught:
        seating_draw_undo(night=night)
    assert caught.value.code == "nothing_to_undo"


def test_undoing_the_first_draw_leaves_the_night_unseated_as_before_it():
    """A first "Draw seating" tapped by mistake can be taken back too: the night is as it
    was before it, with no seating, no tables in use and its seed as it was."""
    from bunco_night.nights.services import seating_draw_undo

    group = make_group(regulars=8, substitutes=1, draw_mark_with_die=True)
    night = make_night(group)
    rnd = seating_draw(night=night, seed=5)
    assert rnd.seats.exists() and night.tables.filter(active=True).count() == 2
    seating_draw_undo(night=night)
    night.refresh_from_db()
    assert not night.rounds.exists() and not Seat.objects.filter(round__night=night).exists()
    assert not night.tables.filter(active=True).exists() and night.seed == 0
    assert current_round(night) is None
    with pytest.raises(ServiceError) as caught:
        seating_draw_undo(night=night)
    assert caught.value.code == "nothing_to_undo"
    # Drawn again with the same seed, the same tables come back (their links unchanged).
    tokens = dict(night.tables.values_list("number", "token"))
    again = seating_draw(night=night, seed=5)
    assert dict(night.tables.filter(active=True).values_list("number", "token")) == tokens
    assert again.seats.count() == 8


def test_undoing_the_first_draw_of_a_later_round_keeps_the_tables_of_the_round_before():
    """Round 2 lost its seating (who plays changed and the movement's seating no longer
    fit); the host draws it and takes the draw back: round 2 is unseated again, and the
    tables are those of round 1."""
    from bunco_night.nights.services import seating_draw_undo
    from tests.play.helpers import play_round, start_night

    group = make_group(regulars=8, substitutes=1)
    night = make_night(group)
    start_night(night, seed=1)
    play_round(night)
    second = night.rounds.get(number=2)
    second.seats.all().delete()
    tables = list(night.tables.filter(active=True).values_list("number", "seats"))
    seating_draw(night=night, seed=3)
    assert second.seats.exists()
    seating_draw_undo(night=night)
    second.refresh_from_db()
    assert second.is_pending and not second.seats.exists()
    assert list(night.tables.filter(active=True).values_list("number", "seats")) == tables
    assert current_round(night).number == 1  # the last round closed, as before the draw


def test_a_draw_cannot_be_undone_after_who_plays_changed():
    from bunco_night.nights.services import seating_draw_undo

    group = make_group(regulars=8, substitutes=1)
    night = make_night(group)
    seating_draw(night=night, seed=1)
    seating_draw(night=night, seed=2)
    guest_add(night=night, player=group.players.get(name="Sub 1"))
    with pytest.raises(ServiceError) as caught:
        seating_draw_undo(night=night)
    assert caught.value.code == "nothing_to_undo"  # the change re-seated the round: no stale undo


def test_a_first_draw_cannot_be_undone_after_who_plays_changed():
    """The change re-seated the round drawn: taking the draw back would also take back
    the change's seating, so the draw is kept."""
    from bunco_night.nights.services import seating_draw_undo

    group = make_group(regulars=8, substitutes=1)
    night = make_night(group)
    seating_draw(night=night, seed=1)
    guest_add(night=night, player=group.players.get(name="Sub 1"))
    with pytest.raises(ServiceError) as caught:
        seating_draw_undo(night=night)
    assert caught.value.code == "nothing_to_undo"


def test_a_seating_cleared_by_a_change_leaves_no_draw_to_take_back(monkeypatch):
    """When who plays changes and the movement cannot re-seat the round (the rules
    engine refuses), the seating is cleared for the host to draw again: a draw made before
    that change is not offered back, as when the round is re-seated."""
    from bunco_night.nights.services import seating as seating_services
    from bunco_night.rules.errors import RuleError

    group = make_group(regulars=8, substitutes=1)
    night = make_night(group)
    seating_draw(night=night, seed=1)
    seating_draw(night=night, seed=2)

    def refuse(*args, **kwargs):
        raise RuleError("The seats do not match the players.", "seats_mismatch")

    monkeypatch.setattr(seating_services, "replan_seating", refuse)
    guest_add(night=night, player=group.players.get(name="Sub 1"))
    assert not night.rounds.get(number=1).seats.exists()
    with pytest.raises(ServiceError) as caught:
        seating_services.seating_draw_undo(night=night)
    assert caught.value.code == "nothing_to_undo"
