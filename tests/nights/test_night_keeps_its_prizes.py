"""docs/rules.md section 8.5: a night keeps the prizes it was planned with. Changing the
group's prizes later changes no night already planned, least of all one paid out."""

import datetime as dt

import pytest

from bunco_night.groups.services import prizes_set
from bunco_night.nights.selectors import dues_summary
from bunco_night.nights.services import payment_record
from bunco_night.play.services import night_finish
from bunco_night.play.standings import night_standings
from tests.factories import make_night
from tests.play.helpers import play_round, start_night

pytestmark = pytest.mark.django_db


def payouts(night):
    return {p.code: p.amount_cents for p in dues_summary(night).payouts}


def test_a_finished_night_keeps_its_prizes_and_their_money(group):
    night = make_night(group, sets=1)
    for a in night.attendances.all():
        payment_record(attendance=a, amount_cents=500)
    start_night(night)
    play_round(night)
    night_finish(night=night)  # the host ends it after a round
    before = payouts(night)
    prizes_before = [(p.code, p.amount_cents) for p in night_standings(night).prizes]
    assert before and "door_prize" not in before

    prizes_set(
        group=group,
        prizes=[{"code": "most_wins", "percent": 30}, {"code": "door_prize", "percent": 12}],
    )

    assert payouts(night) == before
    assert [(p.code, p.amount_cents) for p in night_standings(night).prizes] == prizes_before
    later = make_night(group, date=dt.date(2027, 1, 2))
    assert [p["code"] for p in later.prizes] == ["most_wins", "door_prize"]
