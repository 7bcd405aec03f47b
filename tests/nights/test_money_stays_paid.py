"""docs/rules.md sections 7.4, 8.5 to 8.7: once a night is finished, its money is what it
was at the finish, on every page and printout, whatever changes later in the group (a
season started or its share changed, dues paid ahead, prizes or rules changed)."""

import datetime as dt

import pytest

from bunco_night.groups.models import Player
from bunco_night.groups.services import prizes_set, rules_update, season_create, season_update
from bunco_night.nights.selectors import dues_summary
from bunco_night.nights.services import payment_record, prepayment_record
from bunco_night.play.exports import result_rows
from bunco_night.play.services import night_finish, prize_tiebreak_record, round_start
from bunco_night.play.standings import night_standings
from bunco_night.printing.documents import prize_sheet
from bunco_night.seasons.history import player_history
from bunco_night.seasons.ledger import season_ledger
from bunco_night.seasons.standings import season_table
from tests.factories import make_night
from tests.play.helpers import play_round, start_night
from tests.seasons.helpers import season_of

pytestmark = pytest.mark.django_db


def money_seen(night) -> dict:
    """The night's money as each reader shows it: the night page's dues, the prize
    standings, the prize sheet (PDF), the results CSV and each player's history."""
    summary = dues_summary(night)
    standings = night_standings(night)
    sheet = prize_sheet(night=night)
    return {
        "collected": summary.collected_cents,
        "season": summary.season_share_cents,
        "pot": summary.pot_cents,
        "payouts": [(p.code, p.amount_cents) for p in summary.payouts],
        "standings pot": standings.pot_cents,
        "prizes": [(p.key, p.amount_cents, p.payouts) for p in standings.prizes],
        "leftover": standings.leftover_lines,
        "sheet pot": sheet.pot_cents,
        "sheet": [(line.title, line.amount_cents) for line in sheet.prizes],
        "csv": [row[-2:] for row in result_rows(night)],
        "player history": [
            (a.player.name, player_history(a.player).nights[0].prizes)
            for a in night.attendances.select_related("player")
        ],
    }


def finished_night(group, date=dt.date(2026, 12, 18)):
    night = make_night(group, date=date, sets=1)
    for a in night.attendances.all():
        payment_record(attendance=a, amount_cents=500)
    start_night(night)
    play_round(night)
    round_start(night=night)
    play_round(night)
    for prize in night_standings(night).prizes:  # the host breaks the ties, as on Dec 18
        if prize.tied:
            winner = Player.objects.get(pk=prize.candidates[0])
            prize_tiebreak_record(night=night, code=prize.key, player=winner)
    night_finish(night=night)
    night.refresh_from_db()
    return night


def test_a_season_started_after_a_night_leaves_its_money_alone(group):
    """The Dec 18 night: pot $60 and its prizes stay when a season with 10% is started."""
    night = finished_night(group)
    before = money_seen(night)
    assert before["pot"] == 6000 and before["season"] == 0

    season_create(
        group=group,
        name="2026-27",
        starts=dt.date(2026, 9, 1),
        ends=dt.date(2027, 6, 30),
        pot_percent=10,
    )

    assert money_seen(night) == before
    # The season's money pages say the same: that night gave the season nothing.
    season = group.seasons.get()
    ledger = season_ledger(season)
    assert [(n.night.pk, n.season_cents, n.collected_cents) for n in ledger.nights] == [
        (night.pk, 0, 6000)
    ]
    assert ledger.season_pot_cents == 0


def test_changing_the_season_share_changes_no_finished_night(group):
    """The demo group's first night kept its $54 pot when the season's share changed."""
    season = season_of(group, year=2026, pot_percent=10)
    night = finished_night(group)
    before = money_seen(night)
    assert before["season"] == 600 and before["pot"] == 5400

    season_update(
        season=season,
        name=season.name,
        starts=season.starts,
        ends=season.ends,
        pot_percent=25,
        regulars_only=season.regulars_only,
    )

    assert money_seen(night) == before
    assert season_ledger(season).season_pot_cents == 600
    assert season_table(season).pot_cents == 600
    # A night played after the change takes the new share.
    later = finished_night(group, date=dt.date(2026, 12, 28))
    assert dues_summary(later).season_share_cents == 1500


def test_dues_paid_ahead_recorded_later_leave_a_finished_night_alone(group):
    """Section 8.6: dues paid ahead pay the nights to come; one recorded with a start
    before a finished night does not change what that night collected."""
    night = make_night(group, date=dt.date(2026, 12, 18), sets=1)
    regulars = list(night.attendances.select_related("player"))
    for a in regulars[1:]:
        payment_record(attendance=a, amount_cents=500)
    start_night(night)
    play_round(night)
    night_finish(night=night)
    before = money_seen(night)
    assert before["collected"] == 5500

    prepayment_record(player=regulars[0].player, amount_cents=2000, starts=dt.date(2026, 12, 1))

    assert money_seen(night) == before
    # The dues paid ahead are all there for the nights to come.
    later = make_night(group, date=dt.date(2027, 1, 15))
    row = next(r for r in dues_summary(later).rows if r.attendance.player == regulars[0].player)
    assert row.prepaid_cents == 500
    assert row.carried_cents == 500  # December's dues are still owed: cash pays them


def test_prizes_and_rules_changed_later_leave_a_finished_night_alone(group):
    night = finished_night(group)
    before = money_seen(night)

    prizes_set(group=group, prizes=[{"code": "most_wins", "percent": 100}])
    rules_update(group=group, changes={"prize_rounding": "cents", "prize_leftover": "host"})

    assert money_seen(night) == before


def test_the_migration_records_the_money_of_nights_finished_before_it(group):
    """Migration nights 0016_record_money_of_finished_nights: a night that ended before
    money was recorded keeps the money the pages showed for it then, season share
    included, and a season made afterwards does not move it."""
    from importlib import import_module

    from django.apps import apps

    from bunco_night.nights.models import MoneyRecord

    migration = import_module("bunco_night.nights.migrations.0016_record_money_of_finished_nights")
    season_of(group, year=2026, pot_percent=10)
    night = finished_night(group)
    before = money_seen(night)
    MoneyRecord.objects.all().delete()  # as before the migration
    assert money_seen(night) == before  # worked out as the pages did

    migration.record_finished_nights(apps, None)

    assert MoneyRecord.objects.get(night=night).pot_cents == 5400
    group.seasons.update(pot_percent=50)
    assert money_seen(night) == before
