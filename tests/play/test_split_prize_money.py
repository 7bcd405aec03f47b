"""docs/rules.md sections 7.6 and 7.9: a split prize pays each tied player a share, and
every page and file that says who won what says the same shares as the prize standings:
the results CSV, the player's history and the season's standings."""

import datetime as dt

import pytest

from bunco_night.groups.services import prizes_set
from bunco_night.nights.services import payment_record
from bunco_night.play.exports import result_rows
from bunco_night.play.services import night_finish
from bunco_night.play.standings import night_standings
from bunco_night.seasons.history import player_history
from bunco_night.seasons.standings import season_table
from tests.factories import make_group, make_night
from tests.play.helpers import play_round, start_night
from tests.seasons.helpers import season_of

pytestmark = pytest.mark.django_db


def test_a_split_prize_s_shares_are_everywhere_its_winners_are(host):
    group = make_group(user=host, regulars=8, substitutes=0, name="Splitters")
    prizes_set(
        group=group,
        prizes=[{"code": "most_wins", "percent": 50}, {"code": "fewest_wins", "percent": 50}],
        settings={"prize_ties": "split", "prize_leftover": "next_pot"},
    )
    season = season_of(group, year=2026, pot_percent=0)
    night = make_night(group, date=dt.date(2026, 12, 5), sets=1)
    payment_record(attendance=night.attendances.first(), amount_cents=4100)
    start_night(night)
    play_round(night)  # four winners, four losers
    night_finish(night=night)
    lines = [line for row in night_standings(night).prize_rows for line in row.lines]
    assert len(lines) == 8 and {cents for _, _, cents in lines} == {500}
    won = {}
    for who, _paid, cents in lines:
        won[who.name] = won.get(who.name, 0) + cents

    csv = {row[1]: row for row in result_rows(night)}
    assert {name: row[-1] for name, row in csv.items()} == {
        name: f"{cents // 100}.{cents % 100:02d}" for name, cents in won.items()
    }
    assert all("(split)" in row[-2] for row in csv.values())

    for who, _paid, cents in lines:
        history = player_history(who, season=season)
        assert history.nights[0].prizes == [(history.nights[0].prizes[0][0], cents)]

    table = {s.player: s for s in season_table(season).standings}
    assert {pk: s.money_cents for pk, s in table.items()} == {
        who.pk: won[who.name] for who, _, _ in lines
    }
    assert all(s.prizes == 1 for s in table.values())
