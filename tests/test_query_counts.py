"""Every page makes a constant number of queries, whatever the night's size.

The same night is built with 12 and with 100 players, its first round played and its
second started with a tap at every table; each page type is then fetched and its
queries counted. The counts must be equal (no query per player, per table or per round).
"""

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from bunco_night.groups.models import Player
from bunco_night.play.services import round_start
from bunco_night.play.state import round_board
from tests.factories import make_group, make_night, make_user
from tests.play.helpers import play_round, start_night, tap

pytestmark = pytest.mark.django_db


def a_night(players: int, name: str):
    """A night of ``players`` with round 1 closed and round 2 under way."""
    group = make_group(
        user=make_user(f"host-{players}"), regulars=players, substitutes=2, name=name
    )
    night = make_night(group, sets=2)
    start_night(night, seed=players)
    play_round(night)
    round_start(night=night)
    rnd = night.rounds.get(number=2)
    for tr in round_board(rnd).tables:
        tap(tr.table, 1, "points", 1)
    return night


def pages(night) -> dict[str, str]:
    """Every page type of the site for ``night``, by name."""
    group = night.group
    table = night.tables.get(number=2)
    attendance = night.attendances.order_by("pk").first()
    player = Player.objects.filter(group=group).order_by("pk").first()
    return {
        "groups": reverse("groups:index"),
        "group": group.get_absolute_url(),
        "roster": reverse("groups:roster", args=[group.slug]),
        "player": reverse("groups:player_edit", args=[group.slug, player.pk]),
        "rules": reverse("groups:rules", args=[group.slug]),
        "night": night.get_absolute_url(),
        "night edit": reverse("nights:edit", args=[night.pk]),
        "tv chart": reverse("nights:tv", args=[night.pk]),
        "live board": reverse("play:live", args=[night.pk]),
        "live board poll": reverse("play:live_state", args=[night.pk]) + "?v=0.0",
        "room screen": reverse("play:room", args=[night.pk]),
        "room screen poll": reverse("play:room_state", args=[night.pk]) + "?v=0.0",
        "links": reverse("play:links", args=[night.pk]),
        "standings": reverse("play:standings", args=[night.pk]),
        "correct a table": reverse("play:table_fix", args=[night.pk, 2]) + "?round=2",
        "print": reverse("printing:index", args=[night.pk]),
        "table phone": reverse("play:table", args=[table.token]),
        "table phone poll": reverse("play:table_state", args=[table.token]) + "?v=0.0",
        "player page": reverse("play:player", args=[attendance.token]),
        "player page poll": reverse("play:player_state", args=[attendance.token]) + "?v=0",
    }


def queries(client, user, url: str) -> int:
    client.force_login(user)
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, HTTP_HX_REQUEST="true" if "poll" in url else None)
    assert response.status_code == 200, (url, response.status_code)
    return len(captured)


@pytest.mark.slow
def test_every_page_makes_as_many_queries_for_100_players_as_for_12(client):
    small, large = a_night(12, "Kitchen Table"), a_night(100, "Charity Hall")
    small_pages, large_pages = pages(small), pages(large)
    counts = {}
    for name in small_pages:
        counts[name] = (
            queries(client, small.group.memberships.get().user, small_pages[name]),
            queries(client, large.group.memberships.get().user, large_pages[name]),
        )
    differ = {name: c for name, c in counts.items() if c[0] != c[1]}
    assert differ == {}, differ


def test_the_seasons_list_makes_as_many_queries_for_four_seasons_as_for_one(client):
    """Each season's card says the share its played nights kept (seasons.shares): read for
    every season at once, not with a query per season."""
    from bunco_night.groups.services import season_update
    from tests.seasons.helpers import play_night, season_of

    counts = []
    for seasons in (1, 4):
        user = make_user(f"host-{seasons}")
        group = make_group(user=user, regulars=8, substitutes=0, name=f"Seasons {seasons}")
        for year in range(2020, 2020 + seasons):
            season = season_of(group, year=year, pot_percent=10)
            night = make_night(group, date=dt.date(year, 3, 15), sets=1)
            play_night(night, winners=[[]])
            season_update(
                season=season,
                name=season.name,
                starts=season.starts,
                ends=season.ends,
                pot_percent=20,
                regulars_only=season.regulars_only,
            )
        counts.append(queries(client, user, reverse("seasons:list", args=[group.slug])))
    assert counts[0] == counts[1], counts
