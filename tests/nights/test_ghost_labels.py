"""docs/rules.md section 4.2: a ghost stands in for an absent regular ("Ghost (for Ann)"),
and keeps standing for them when someone leaves or arrives between rounds (section 10)."""

import pytest

from bunco_night.nights.models import Attendance, Seat
from bunco_night.nights.services import attendance_leave, attendance_set, seating_draw
from bunco_night.play.services import round_start
from tests.factories import make_group, make_night
from tests.play.helpers import play_round

pytestmark = pytest.mark.django_db


def stood_for(night) -> set[str]:
    ghosts = Seat.objects.filter(round__night=night, round__status="pending", player__isnull=True)
    return {g.ghost_for.player.name for g in ghosts if g.ghost_for is not None}


@pytest.mark.parametrize("played", [False, True], ids=["before round 1", "after round 1"])
@pytest.mark.parametrize("change", ["leaves", "arrives"])
def test_the_ghosts_of_the_absent_keep_their_names_when_someone_comes_or_goes(change, played):
    group = make_group(regulars=12, substitutes=0, fill="ghosts")
    night = make_night(group)
    place = {a.player.name: a for a in night.attendances.select_related("player")}
    for name in ("Regular 1", "Regular 2"):  # ten come: two ghosts fill the third table
        attendance_set(attendance=place[name], status=Attendance.Status.ABSENT)
    seating_draw(night=night, seed=1)
    assert stood_for(night) == {"Regular 1", "Regular 2"}
    if played:
        round_start(night=night)
        play_round(night)  # round 2 seated by the movement
        assert stood_for(night) == {"Regular 1", "Regular 2"}
    if change == "leaves":
        attendance_leave(attendance=place["Regular 3"])
        expected = {"Regular 1", "Regular 2", "Regular 3"}
    else:
        attendance_set(attendance=place["Regular 2"], status=Attendance.Status.COMING)
        expected = {"Regular 1"}
    assert stood_for(night) == expected
