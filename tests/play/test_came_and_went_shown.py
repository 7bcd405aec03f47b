"""Wherever a player's line for a night appears, it says when someone came or went
(docs/rules.md section 10), in the words of the tally and master sheets: the host's night
page, the prize standings page, the prizes PDF, the results CSV, the player's own page and
her page of the night.

The night: twelve regulars play round 1; Regular 5 leaves and Sub 1 arrives; round 2 is
played (and, where the test says so, the night ends).
"""

import csv
import html
import io
import re

import pytest
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

from bunco_night.invites.services import link_for
from bunco_night.nights.models import Attendance
from bunco_night.nights.services import attendance_leave, attendance_set, guest_add
from bunco_night.play.services import night_finish, round_start
from tests.factories import make_night
from tests.play.helpers import play_round, start_night
from tests.printing.helpers import get_pdf

pytestmark = pytest.mark.django_db

LEFT = "Left after round 1"
ARRIVED = "Arrived for round 2"


@pytest.fixture
def night(group):
    night = make_night(group, date=timezone.localdate(), sets=1)
    start_night(night)
    play_round(night)
    attendance_leave(attendance=night.attendances.get(player__name="Regular 5"))
    guest_add(night=night, player=group.players.get(name="Sub 1"))
    round_start(night=night)
    play_round(night)
    return night


@pytest.fixture
def over(night):
    night_finish(night=night)
    night.refresh_from_db()
    return night


def words(markup: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", markup)).split())


def att_row(client, night, name) -> str:
    """The words of ``name``'s row of the night page's attendance list."""
    page = client.get(reverse("nights:detail", args=[night.pk])).content.decode()
    pk = night.attendances.get(player__name=name).pk
    row = re.search(rf'<li class="att-row[^"]*" id="att-{pk}".*?</li>', page, re.S)
    assert row, name
    return words(row[0])


def test_the_night_page_says_when_the_leaver_left_and_the_arrival_came(client, night):
    row = att_row(client, night, "Regular 5")
    assert LEFT in row and "Left early" not in row
    assert ARRIVED in att_row(client, night, "Sub 1")
    assert "Arrived" not in att_row(client, night, "Regular 1")
    assert "Left after" not in att_row(client, night, "Regular 1")


def test_a_finished_night_s_page_says_it_too(client, over):
    assert LEFT in att_row(client, over, "Regular 5")
    assert f"Played · {ARRIVED}" in att_row(client, over, "Sub 1")


def test_the_prize_standings_page_says_it_after_the_name(client, over):
    page = client.get(reverse("play:standings", args=[over.pk])).content.decode()
    grid = re.search(r'aria-label="Standings"><table.*?</table>', page, re.S)[0]
    rows = [words(r) for r in re.findall(r"<tr>.*?</tr>", grid, re.S)]
    line = {name: next(w for w in rows if f" {name} " in f" {w} ") for name in NAMES}
    assert f"Regular 5 {LEFT}" in line["Regular 5"]
    assert f"Sub 1 {ARRIVED}" in line["Sub 1"]
    assert "round" not in line["Regular 1"]
    assert words(grid).count("Left after") == 1 and words(grid).count("Arrived for") == 1


NAMES = ("Regular 5", "Sub 1", "Regular 1")


def test_the_prizes_pdf_says_it_in_the_standings(client, over):
    pdf = get_pdf(client, over, "prizes")
    text = " ".join(
        " ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(pdf)).pages
    )
    assert f"Regular 5 · {LEFT}" in text
    assert f"Sub 1 · {ARRIVED}" in text
    assert text.count("Left after") == 1 and text.count("Arrived for") == 1


def test_the_results_csv_has_a_came_and_went_column(client, over):
    body = client.get(reverse("ops:night_results", args=[over.pk])).content.decode("utf-8-sig")
    rows = {r["player"]: r for r in csv.DictReader(io.StringIO(body))}
    assert rows["Regular 5"]["came_and_went"] == LEFT
    assert rows["Sub 1"]["came_and_went"] == ARRIVED
    assert rows["Regular 1"]["came_and_went"] == ""


def player_page(client, night, name) -> str:
    token = night.attendances.get(player__name=name).token
    return words(client.get(reverse("play:player", args=[token])).content.decode())


def test_the_player_s_page_of_the_night_says_it_once_the_night_is_over(client, over):
    assert "You left after round 1" in player_page(client, over, "Regular 5")
    assert "You arrived for round 2" in player_page(client, over, "Sub 1")
    page = player_page(client, over, "Regular 1")
    assert "You left" not in page and "You arrived" not in page


def test_the_player_s_page_of_the_night_says_it_during_the_night(client, night):
    assert "You left after round 1" in player_page(client, night, "Regular 5")
    assert "You arrived for round 2" in player_page(client, night, "Sub 1")


def mine(client, night, name) -> str:
    token = link_for(night.group.players.get(name=name)).token
    return words(client.get(reverse("invites:mine", args=[token])).content.decode())


def test_the_player_s_own_page_says_it_during_the_night(client, night):
    client.logout()
    assert "You left after round 1." in mine(client, night, "Regular 5")
    assert "You arrived for round 2." in mine(client, night, "Sub 1")
    page = mine(client, night, "Regular 1")
    assert "You are playing tonight." in page and "You arrived" not in page


def substitute_left(group):
    """A night of today where Regular 12 sent Sub 2, who played round 1 and left."""
    night = make_night(group, date=timezone.localdate(), sets=1)
    attendance_set(
        attendance=night.attendances.get(player__name="Regular 12"),
        status=Attendance.Status.SENT_SUB,
        substitute=group.players.get(name="Sub 2"),
    )
    start_night(night)
    play_round(night)
    attendance_leave(attendance=night.attendances.get(player__name="Regular 12"))
    return night


def test_a_regular_whose_substitute_left_reads_that_her_substitute_did(client, group):
    """Regular 12 sent Sub 2, who played round 1 and left: Regular 12 never sat, so her
    row and her own page say her substitute left, not that she did."""
    night = substitute_left(group)
    row = att_row(client, night, "Regular 12")
    assert "Sent a substitute, who left early" in row and "Left early" not in row
    client.logout()
    page = mine(client, night, "Regular 12")
    assert "Your substitute played and left early." in page and "You left" not in page


def history_line(client, night, name) -> str:
    """The words of the night's line in ``name``'s history (the host's page of a player)."""
    player = night.group.players.get(name=name)
    url = reverse("seasons:history", args=[night.group.slug, player.pk])
    return words(client.get(url).content.decode())


def test_each_player_s_history_says_it_on_the_night_s_line(client, over):
    assert LEFT in history_line(client, over, "Regular 5")
    assert "Left early" not in history_line(client, over, "Regular 5")
    assert f"Came as a guest · {ARRIVED}" in history_line(client, over, "Sub 1")
    page = history_line(client, over, "Regular 1")
    assert "Left after" not in page and "Arrived for" not in page


def test_a_substitute_who_left_reads_it_in_her_history(client, group):
    """Sub 2 played round 1 for Regular 12 and left: her line says when."""
    night = substitute_left(group)
    round_start(night=night)
    play_round(night)
    assert f"Played · {LEFT}" in history_line(client, night, "Sub 2")
    assert "Sent a substitute, who left early" in history_line(client, night, "Regular 12")


def answer_line(client, night, name) -> str:
    """The words of ``name``'s line in the night's answers panel."""
    page = client.get(reverse("invites:answers", args=[night.pk])).content.decode()
    pk = night.attendances.get(player__name=name).pk
    item = re.search(rf'<li class="answer" id="answer-{pk}">(.*?)</li>', page, re.S)
    return words(item.group(1))


def test_the_answers_panel_says_who_left_and_when(client, over):
    """Once the night is over the answers panel is a record of it: Regular 5 played round 1
    and left, and says so with the round, as the night page does."""
    assert answer_line(client, over, "Regular 5").startswith(f"Regular 5 · played, {LEFT.lower()}")


def test_the_answers_panel_says_it_was_her_substitute_who_left(client, group):
    night = substitute_left(group)
    line = answer_line(client, night, "Regular 12")
    assert line.startswith("Regular 12 · sent a substitute, who left early"), line
    night_finish(night=night)
    line = answer_line(client, night, "Regular 12")
    assert line.startswith("Regular 12 · sent a substitute, who left early"), line
    assert "played" not in line


def test_the_roster_s_dues_say_who_left_when_and_whose_substitute_left(client, group):
    night = substitute_left(group)
    attendance_leave(attendance=night.attendances.get(player__name="Regular 5"))
    text = " ".join(
        " ".join(p.extract_text().split())
        for p in PdfReader(io.BytesIO(get_pdf(client, night, "roster"))).pages
    )
    assert "Regular 5 left after round 1" in text, text
    assert "Regular 12 sent a substitute, who left early" in text, text
