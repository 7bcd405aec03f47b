"""The group-between-nights pages make as many queries for 100 players as for 12: no query
per player, per answer or per substitute asked."""

import datetime as dt

import pytest
from django.urls import reverse

from bunco_night.groups.services import hosting_turn_set, season_create
from bunco_night.invites.messages import Links
from bunco_night.invites.services import answer_record, call_start, link_for
from bunco_night.nights.services import night_create, prepayment_record
from tests.test_query_counts import a_night, queries

pytestmark = pytest.mark.django_db

LINKS = Links(lambda path: "http://testserver" + path)


def with_season(night):
    """The night's group with a season, a rotation, dues paid ahead, answers and a call."""
    group = night.group
    season = season_create(
        group=group, name="2026", starts=dt.date(2026, 1, 1), ends=dt.date(2026, 12, 31)
    )
    regulars = list(group.players.filter(kind="regular").order_by("pk"))
    hosting_turn_set(season=season, month=night.date, host=regulars[0], brings="Bea: pie")
    for player in regulars[:3]:
        prepayment_record(player=player, amount_cents=1000, starts=dt.date(2026, 1, 1))
    later = night_create(group=group, date=night.date + dt.timedelta(days=28))
    for player in regulars[:4]:
        answer_record(player=player, night=later, choice="coming", links=LINKS, note="Yes!")
    call_start(attendance=later.attendances.get(player=regulars[5]), mode="all", links=LINKS)
    offer = later.attendances.get(player=regulars[5]).calls.get().offers.first()
    return season, later, regulars[1], offer


def pages(night) -> dict[str, str]:
    season, later, player, offer = with_season(night)
    group = night.group
    return {
        "seasons": reverse("seasons:list", args=[group.slug]),
        "season": season.get_absolute_url(),
        "season money": reverse("seasons:ledger", args=[season.pk]),
        "rotation": reverse("seasons:rotation", args=[season.pk]),
        "history": reverse("seasons:history", args=[group.slug, player.pk]),
        "answers": reverse("invites:answers", args=[later.pk]),
        "answers poll": reverse("invites:answers", args=[later.pk]) + "?embedded=1&v=0&poll",
        "send": reverse("invites:send", args=[later.pk, "reminder"]),
        "texts": reverse("invites:texts", args=[later.pk]) + "?all=1&kind=reminder",
        "her page": reverse("invites:mine", args=[link_for(player).token]),
        "offer page": reverse("invites:offer", args=[offer.token]),
        "night with carried dues": later.get_absolute_url(),
        "roster import": reverse("groups:roster_import", args=[group.slug]),
        "roster export": reverse("groups:roster_export", args=[group.slug]),
    }


@pytest.mark.slow
def test_every_page_makes_as_many_queries_for_100_players_as_for_12(client):
    small, large = a_night(12, "Kitchen Table"), a_night(100, "Charity Hall")
    small_pages, large_pages = pages(small), pages(large)
    counts = {
        name: (
            queries(client, small.group.memberships.get().user, small_pages[name]),
            queries(client, large.group.memberships.get().user, large_pages[name]),
        )
        for name in small_pages
    }
    differ = {name: c for name, c in counts.items() if c[0] != c[1]}
    assert differ == {}, differ
