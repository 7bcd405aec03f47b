"""A season's share changed after nights were played: those nights kept the share they
had when they ended (docs/rules.md section 7.9), and the season's pages and sheet say so
instead of showing today's share as every night's."""

import datetime as dt

import pytest
from django.urls import reverse

from bunco_night.groups.services import season_update
from bunco_night.printing.documents.season import season_sheet
from bunco_night.seasons.shares import season_share
from tests.printing.pdftools import pages_text
from tests.seasons.helpers import pay_everyone, plan, play_night, season_of

pytestmark = pytest.mark.django_db

SAID = "25% of each night's dues from now on; nights already played kept their share (10%)."


@pytest.fixture
def season(group):
    season = season_of(group, pot_percent=10)
    night = plan(group, dt.date(2026, 3, 15))
    pay_everyone(night)
    play_night(night, winners=[["Regular 1"]])
    season_update(
        season=season,
        name=season.name,
        starts=season.starts,
        ends=season.ends,
        pot_percent=25,
        regulars_only=season.regulars_only,
    )
    return season


def test_the_share_kept_by_played_nights_is_said(season):
    share = season_share(season)
    assert (share.percent, share.kept) == (25, (10,))
    assert share.sentence == SAID


def test_a_share_no_night_kept_otherwise_is_every_night_s(group):
    season = season_of(group, pot_percent=10)
    night = plan(group, dt.date(2026, 3, 15))
    play_night(night, winners=[["Regular 1"]])
    assert season_share(season).sentence == "10% of every night's dues goes to this pot."


@pytest.mark.parametrize("page", ["seasons:detail", "seasons:ledger"])
def test_the_season_pages_say_the_share_truly(client, season, page):
    html = " ".join(client.get(reverse(page, args=[season.pk])).content.decode().split())
    assert SAID.replace("'", "&#x27;") in html
    assert "25% of every night" not in html


def test_the_season_sheet_says_the_share_truly(client, season):
    sheet = season_sheet(season=season)
    assert sheet.share.kept == (10,)
    pdf = client.get(reverse("printing:season_standings", args=[season.pk])).content
    first = " ".join(pages_text(pdf)[0].split())
    assert "25%" in first and "from now on; played nights kept 10%" in first


def test_the_seasons_list_says_the_share_truly(client, season):
    """The season's card on the list says what the season page says: the share from now
    on, and the share the nights already played kept."""
    page = client.get(reverse("seasons:list", args=[season.group.slug])).content.decode()
    card = " ".join(page.split()).replace("&#x27;", "'")
    assert (
        "25% of the dues to the year-end pot from now on; "
        "nights already played kept their share (10%)" in card
    )
    assert "25% of the dues to the year-end pot</span>" not in card
