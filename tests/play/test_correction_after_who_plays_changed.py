"""A correction to a closed round after who plays changed (docs/rules.md sections 6.2
and 10): the next round is seated again from the corrected winners, for who plays now,
as the change of who plays had seated it: an arrival keeps a seat, a leaver has none."""

import pytest

from bunco_night.nights.selectors import players_tonight
from bunco_night.nights.services import attendance_leave, guest_add
from bunco_night.play.services import SEATING_DRAWN_AGAIN, winner_set
from tests.factories import make_group, make_night
from tests.play.helpers import play_round, start_night

pytestmark = pytest.mark.django_db


@pytest.fixture(params=["tables", "ghosts"])
def group(request):
    return make_group(regulars=8, substitutes=1, fill=request.param)


@pytest.fixture
def night(group):
    """Eight at two tables, round 1 closed and round 2 seated from it; the group fills
    empty seats with smaller tables or with ghosts (docs/rules.md section 4)."""
    night = make_night(group)
    start_night(night)
    play_round(night)
    return night


def seated(rnd):
    return sorted(rnd.seats.exclude(player=None).values_list("player_id", flat=True))


def assert_fits_who_plays(night, rnd):
    assert seated(rnd) == sorted(p.pk for p in players_tonight(night))
    for seat in rnd.seats.select_related("table"):
        assert seat.table.active and seat.table_seats == seat.table.seats


def correct_table_1(night):
    rnd = night.rounds.get(number=1)
    return winner_set(rnd=rnd, table=night.tables.get(number=1), side=1).recomputed


def test_a_late_arrival_keeps_a_seat_when_a_correction_seats_the_round_again(group, night):
    guest = group.players.get(name="Sub 1")
    guest_add(night=night, player=guest)
    nxt = night.rounds.get(number=2)
    assert guest.pk in seated(nxt)
    done = correct_table_1(night)
    assert done.winners[0].changed and done.next_seating == SEATING_DRAWN_AGAIN
    assert guest.pk in seated(nxt)
    assert_fits_who_plays(night, nxt)


def test_someone_who_left_is_not_seated_again_by_a_correction(group, night):
    leaver = night.attendances.get(player__name="Regular 3")
    attendance_leave(attendance=leaver)
    nxt = night.rounds.get(number=2)
    assert leaver.player_id not in seated(nxt)
    done = correct_table_1(night)
    assert done.next_seating == SEATING_DRAWN_AGAIN
    assert leaver.player_id not in seated(nxt)
    assert_fits_who_plays(night, nxt)
    if group.rules_obj.fill == "ghosts":  # a ghost takes the leaver's seat
        assert nxt.seats.filter(player=None).count() == 1
