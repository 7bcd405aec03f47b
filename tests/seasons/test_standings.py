"""A season's standings and year-end prizes from its nights: docs/rules.md sections 7
and 8.7, through the same services that run a night."""

import datetime as dt

import pytest

from bunco_night.groups.models import Player
from bunco_night.groups.services import player_add, season_prizes_set
from bunco_night.nights.models import Attendance
from bunco_night.nights.services import attendance_set
from bunco_night.rules.season import BEST_ATTENDANCE
from bunco_night.seasons.services import season_tiebreak_record
from bunco_night.seasons.standings import season_table
from tests.factories import make_group
from tests.seasons.helpers import pay_everyone, plan, play_night, season_of

pytestmark = pytest.mark.django_db

ANN, BEA, CAT, DEE = "Regular 1", "Regular 2", "Regular 3", "Regular 4"


def table_rows(season):
    return {p.name: s for s, p, _ in season_table(season).rows}


def partner_of(night, name):
    """Who sat across from ``name`` in the night's first round."""
    rnd = night.rounds.order_by("number").first()
    from bunco_night.nights.selectors import seated_tables

    for table in seated_tables(rnd):
        for seat, partner in table.seat_rows:
            if seat.player_id and seat.player.name == name:
                return partner.player.name if partner and partner.player_id else None
    return None


@pytest.fixture
def group():
    """Eight regulars: two tables of four, partners across (docs/rules.md section 4)."""
    return make_group(regulars=8, substitutes=2)


def test_partners_who_win_together_share_the_season_place_until_buncos_split_them(group):
    """Section 7.1 over a season: level on wins and buncos is a shared place ("1="); a
    bunco puts one ahead."""
    season = season_of(group)
    night = plan(group, dt.date(2026, 2, 5))
    play_night(night, winners=[[ANN]])
    partner = partner_of(night, ANN)
    rows = table_rows(season)
    assert (rows[ANN].rank, rows[ANN].tied) == (1, True)
    assert (rows[partner].rank, rows[partner].tied) == (1, True)
    # Two winners at each table: four share first place, four share fifth.
    assert sorted((s.rank, s.tied) for s in rows.values()) == [(1, True)] * 4 + [(5, True)] * 4

    second = plan(group, dt.date(2026, 3, 5))
    play_night(second, winners=[[partner]], buncos={0: [partner]}, seed=2)
    rows = table_rows(season)
    assert (rows[partner].standing.wins, rows[partner].standing.buncos) == (2, 1)
    assert (rows[partner].rank, rows[partner].tied) == (1, False)
    assert rows[ANN].rank > 1 and rows[ANN].nights == 2


def test_a_substitute_has_results_of_their_own_and_the_regular_who_sent_them_none(group):
    season = season_of(group)
    first = plan(group, dt.date(2026, 2, 5))
    play_night(first, winners=[[BEA]])
    second = plan(group, dt.date(2026, 3, 5))
    sub = group.players.get(name="Sub 1")
    attendance_set(
        attendance=second.attendances.get(player__name=ANN),
        status=Attendance.Status.SENT_SUB,
        substitute=sub,
    )
    play_night(second, winners=[["Sub 1"], ["Sub 1"]], buncos={1: ["Sub 1"]}, seed=3)
    rows = table_rows(season)
    assert rows["Sub 1"].nights == 1
    assert (rows["Sub 1"].standing.wins, rows["Sub 1"].standing.buncos) == (2, 1)
    assert rows[ANN].nights == 1  # came to the first night only
    assert rows[ANN].standing.wins + rows[ANN].standing.losses == 1


def test_year_end_prizes_go_to_regulars_only_when_the_season_says_so(group):
    season = season_of(group, regulars_only=True)
    season_prizes_set(season=season, prizes=[{"code": "most_buncos", "percent": 100}])
    night = plan(group, dt.date(2026, 2, 5))
    attendance_set(
        attendance=night.attendances.get(player__name=DEE),
        status=Attendance.Status.SENT_SUB,
        substitute=group.players.get(name="Sub 2"),
    )
    pay_everyone(night)
    # One bunco a round: a bunco at the head table ends its round (docs/rules.md section 3).
    play_night(night, winners=[[CAT]] * 3, buncos={0: ["Sub 2"], 1: [CAT], 2: ["Sub 2"]})
    table = season_table(season)
    (prize,) = table.prizes
    winner = table.players[prize.winner]
    assert winner.name == CAT  # Sub 2 rolled more, but substitutes cannot win
    assert table_rows(season)["Sub 2"].standing.buncos == 2
    # The season's pot is its share (10%) of the night's $40 of dues.
    assert table.pot_cents == 400 and prize.amount_cents == 400


def test_a_night_with_a_ghost_counts_only_the_people_who_played(group):
    """Section 5.5: a ghost has no results; a bunco rolled for the ghost is its partner's."""
    group.rules = {**group.rules, "fill": "ghosts"}
    group.save()
    group.__dict__.pop("rules_obj", None)
    season = season_of(group)
    night = plan(group, dt.date(2026, 4, 2))
    attendance_set(
        attendance=night.attendances.get(player__name=DEE), status=Attendance.Status.ABSENT
    )
    play_night(night, winners=[[ANN]], buncos={0: [ANN]})
    ghost_partner = partner_of(night, None)
    rows = table_rows(season)
    assert len(rows) == 7 and DEE not in rows and ghost_partner is None
    assert sum(s.standing.wins + s.standing.losses for s in rows.values()) == 7
    assert rows[ANN].standing.buncos == 1


def test_a_recorded_tie_break_holds_while_the_players_stay_tied(group):
    season = season_of(group)
    season_prizes_set(season=season, prizes=[{"code": BEST_ATTENDANCE, "percent": 50}])
    night = plan(group, dt.date(2026, 2, 5))
    play_night(night, winners=[[ANN]])
    (prize,) = season_table(season).prizes
    assert prize.tied and len(prize.candidates) == 8
    bea = group.players.get(name=BEA)
    season_tiebreak_record(season=season, code=BEST_ATTENDANCE, player=bea)
    (prize,) = season_table(season).prizes
    assert prize.winner == bea.pk and prize.broken_by_host
    # Bea misses the next night: she is no longer tied, the tie-break no longer counts.
    nxt = plan(group, dt.date(2026, 3, 5))
    attendance_set(
        attendance=nxt.attendances.get(player__name=BEA),
        status=Attendance.Status.SENT_SUB,
        substitute=group.players.get(name="Sub 1"),
    )
    play_night(nxt, winners=[[ANN]], seed=4)
    (prize,) = season_table(season).prizes
    assert prize.tied and bea.pk not in prize.candidates and prize.winner is None


def test_nights_outside_the_season_do_not_count(group):
    season = season_of(group)
    play_night(plan(group, dt.date(2025, 12, 4)), winners=[[ANN]])
    assert season_table(season).rows == []
    player_add(group=group, name="Newcomer", kind=Player.Kind.SUBSTITUTE)
    assert season_table(season).nights == []
