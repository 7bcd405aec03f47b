"""The group's money over a season adds up, and the season's year-end sheet prints."""

import datetime as dt

import pytest
from django.urls import reverse

from bunco_night.groups.services import season_prizes_set
from bunco_night.nights.models import Attendance
from bunco_night.nights.services import attendance_set, payment_record, prepayment_record
from bunco_night.seasons.ledger import season_ledger
from tests.printing.pdftools import page_count, pages_text
from tests.seasons.helpers import plan, play_night, season_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(group):
    season = season_of(group, pot_percent=15)
    season_prizes_set(
        season=season,
        prizes=[
            {"code": "most_buncos", "percent": 50},
            {"code": "best_attendance", "amount_cents": 300},
        ],
    )
    prepayment_record(
        player=group.players.get(name="Regular 5"), amount_cents=700, starts=dt.date(2026, 1, 1)
    )
    for month, unpaid in ((1, {"Regular 2"}), (2, set()), (3, {"Regular 3", "Regular 4"})):
        night = plan(group, dt.date(2026, month, 15))
        if month == 2:
            attendance_set(
                attendance=night.attendances.get(player__name="Regular 1"),
                status=Attendance.Status.ABSENT,
            )
        for a in night.attendances.select_related("player"):
            if a.player.name not in unpaid | {"Regular 5"}:
                payment_record(attendance=a, amount_cents=500 if month != 2 else 700)
        play_night(night, winners=[["Regular 1"]], buncos={0: ["Regular 6"]}, seed=month)
    return season


def test_every_night_and_the_season_add_up(season):
    """Section 7.4 and 8.6-8.7: on every night the dues collected are the night's prizes,
    the season's share and what is left; the season's shares are the year-end pot."""
    ledger = season_ledger(season)
    assert len(ledger.nights) == 3
    for n in ledger.nights:
        assert n.collected_cents == n.cash_cents + n.prepaid_cents
        assert n.collected_cents == n.prizes_cents + n.season_cents + n.left_cents
        assert n.season_cents == n.collected_cents * 15 // 100
        assert n.left_cents >= 0
    assert ledger.collected_cents == ledger.prizes_cents + ledger.season_pot_cents + (
        ledger.left_cents
    )
    # Regular 5's $7 paid ahead covers January's $5 and $2 of February's.
    assert [n.prepaid_cents for n in ledger.nights] == [500, 200, 0]
    assert ledger.year_end_prizes_cents == ledger.season_pot_cents // 2 + 300
    assert ledger.season_left_cents == ledger.season_pot_cents - ledger.year_end_prizes_cents
    owed = {b.player.name: b.account.balance_cents for b in ledger.owed}
    # Regular 2 never paid January; Regular 3 and 4 did not pay March; Regular 5 owes
    # $3 of February and March's $5 once the $7 ran out. February's $7 each is $2 credit.
    assert owed == {"Regular 2": 300, "Regular 3": 300, "Regular 4": 300, "Regular 5": 800}
    assert ledger.owed_cents == sum(owed.values())


def test_the_money_page_shows_the_totals(client, season):
    page = client.get(reverse("seasons:ledger", args=[season.pk])).content.decode()
    ledger = season_ledger(season)
    assert f"${ledger.collected_cents // 100:,}.{ledger.collected_cents % 100:02d}" in page
    assert "Regular 5" in page and "Who owes" in page


def test_the_year_end_sheet_prints_prizes_and_standings(client, season):
    response = client.get(reverse("printing:season_standings", args=[season.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert 'filename="maple-street-bunco-season-2026.pdf"' in response["Content-Disposition"]
    pdf = response.content
    assert page_count(pdf) == 3
    first, second, third = (" ".join(page.split()) for page in pages_text(pdf))
    assert "Season 2026: year-end prizes" in first
    assert "Most buncos of the" in first and "Regular 6" in first
    assert "Best attendance" in first and "TIE" in first  # most came every night
    assert "Season 2026: standings" in second
    for i in range(1, 13):
        assert f"Regular {i}" in second and f"Regular {i}" in third
    assert "Season 2026: wins and buncos" in third


def test_the_standings_headers_are_never_split_inside_a_word(client, season):
    """Narrow columns wrap their headers between words only: "Nights", not "Night / s"."""
    from io import BytesIO

    from pypdf import PdfReader

    pdf = client.get(reverse("printing:season_standings", args=[season.pk])).content
    page = PdfReader(BytesIO(pdf)).pages[1].extract_text()
    words = page.split()
    for header in ("Place", "Player", "Nights", "Wins", "Losses", "Buncos", "Minis", "Prizes"):
        assert header in words, (header, page[:400])
    for piece in ("Night", "Losse", "Mini", "Prize", "Plac", "s"):
        assert piece not in words, (piece, page[:400])
