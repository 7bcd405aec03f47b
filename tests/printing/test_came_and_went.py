"""A late arrival's sheets say when she came, as a leaver's say when she went
(docs/rules.md section 10): her tally sheet and her row of the master sheet read "Arrived
for round 2", the leaver's "Left after round 1", read from the PDF's own text."""

import io

import pytest
from pypdf import PdfReader

from bunco_night.nights.services import attendance_leave, guest_add
from bunco_night.play.services import night_finish, round_start
from tests.play.helpers import play_round, start_night

from .helpers import get_pdf

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(night):
    """Round 1 played by the twelve regulars; then Regular 5 went home and Sub 1 came;
    round 2 played."""
    start_night(night)
    play_round(night)
    attendance_leave(attendance=night.attendances.get(player__name="Regular 5"))
    guest_add(night=night, player=night.group.players.get(name="Sub 1"))
    round_start(night=night)
    play_round(night)
    return night


def pdf_pages(pdf: bytes) -> list[str]:
    """Each page's text, in one line of words."""
    return [" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(pdf)).pages]


def test_the_late_arrival_s_tally_sheet_says_when_she_came(client, night):
    pages = pdf_pages(get_pdf(client, night, "tally_sheets"))
    sheets = {name: [p for p in pages if p.startswith(f"{name} ")] for name in NAMES}
    assert all(len(found) == 1 for found in sheets.values()), sheets
    assert "Maple Street Bunco · Arrived for round 2" in sheets["Sub 1"][0]
    assert "Maple Street Bunco · Left after round 1" in sheets["Regular 5"][0]
    assert "Arrived" not in sheets["Regular 1"][0] and "Left" not in sheets["Regular 1"][0]
    assert sum("Arrived for round" in p for p in pages) == 1


def test_the_master_sheet_says_who_came_late_and_who_left(client, night):
    (page,) = pdf_pages(get_pdf(client, night, "master_sheet"))
    assert "Sub 1 · Arrived for round 2" in page
    assert "Regular 5 · Left after round 1" in page
    assert page.count("Arrived for round") == 1 and page.count("Left after round") == 1


NAMES = ("Sub 1", "Regular 5", "Regular 1")


def test_the_roster_counts_everyone_who_played_a_leaver_and_a_late_arrival_too(client, night):
    """Twelve played round 1, Regular 5 left and Sub 1 came for round 2: 13 played, as the
    night page counts them (who_played)."""
    first = pdf_pages(get_pdf(client, night, "roster"))[0]
    assert "PLAYING 13" in first.upper(), first[:300]
    night_finish(night=night)
    night.refresh_from_db()
    first = pdf_pages(get_pdf(client, night, "roster"))[0]
    assert "PLAYED 13" in first.upper(), first[:300]
