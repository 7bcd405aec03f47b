"""Everyone who played a night is counted everywhere: the live board, the room screen, the
prize standings, the tally sheets, the master sheet, the results CSV, the season and each
player's history. A list that shows fewer says how many more there are and where.

The night: thirteen regulars, one of them sends a substitute; after round 1 a regular and
the substitute leave and a late arrival comes; three rounds are played, then the night ends.
"""

import csv
import io
import re

import pytest

from bunco_night.nights.models import Attendance, Night
from bunco_night.nights.played import who_played
from bunco_night.nights.services import attendance_leave, attendance_set, guest_add
from bunco_night.play.live import live_board
from bunco_night.play.room import room_screen
from bunco_night.play.services import night_finish, round_start
from bunco_night.printing import documents
from tests.built import BUILT_HOST, once_per_module
from tests.factories import make_group, make_night, make_user
from tests.play.helpers import play_round, start_night
from tests.printing.helpers import words
from tests.seasons.helpers import pay_everyone, season_of

pytestmark = pytest.mark.django_db

LINKS = documents.PlayLinks(lambda path: "http://testserver" + path)
PLAYED = {f"Regular {i}" for i in range(1, 13)} | {"Sub 1", "Sub 3"}
LEAVERS = {"Regular 5", "Sub 3"}


def build():
    host = make_user(BUILT_HOST)
    group = make_group(user=host, regulars=13, substitutes=3, name="Maple Street Bunco")
    season_of(group)
    night = make_night(group, sets=1)
    attendance_set(
        attendance=night.attendances.get(player__name="Regular 13"),
        status=Attendance.Status.SENT_SUB,
        substitute=group.players.get(name="Sub 3"),
    )
    pay_everyone(night)
    start_night(night, seed=5)
    play_round(night)
    attendance_leave(attendance=night.attendances.get(player__name="Regular 5"))
    attendance_leave(attendance=night.attendances.get(player__name="Regular 13"))  # Sub 3 goes
    guest_add(night=night, player=group.players.get(name="Sub 1"))
    for _ in range(2):
        round_start(night=night)
        play_round(night)
    night_finish(night=night)
    return host.pk, night.pk


built = once_per_module(build)


@pytest.fixture
def night(built, client, django_user_model):
    """The played night, its host logged in on the test client."""
    host, night = built
    client.force_login(django_user_model.objects.get(pk=host))
    return Night.objects.get(pk=night)


def names_in(markup: str, region: str) -> set[str]:
    """The players named in the ``<table>`` of ``markup`` labelled ``region`` (a name's
    cell may say after it when she came or went)."""
    grid = re.search(rf'aria-label="{region}"><table.*?</table>', markup, re.S)
    assert grid, region
    return {n for n in PLAYED if re.search(rf"<td>{n}(</td>| <small)", grid[0])}


def test_who_played_is_everyone_who_sat_at_a_table(night):
    played = {p.player.name: p for p in who_played(night)}
    assert set(played) == PLAYED
    assert {n for n, p in played.items() if p.left} == LEAVERS
    assert played["Regular 5"].attendance.player.name == "Regular 5"
    assert played["Regular 5"].last_round == 1
    assert played["Sub 3"].attendance is None  # her row is Regular 13's, who did not play


def test_every_tally_sheet_is_printed_the_leavers_too(night):
    sheets = documents.tally_sheets(night=night, links=LINKS).sheets
    assert {s.name for s in sheets} == PLAYED
    assert len(sheets) == len(PLAYED)
    by_name = {s.name: s for s in sheets}
    assert by_name["Regular 5"].note == "Left after round 1"
    assert by_name["Regular 5"].link  # her own page: where her tally stays
    assert by_name["Sub 3"].link == "" and by_name["Regular 1"].note == ""


def test_the_master_sheet_and_the_prizes_sheet_have_everyone(night):
    master = documents.master_sheet(night=night)
    assert {r.name for b in master.blocks for r in b.rows} == PLAYED
    assert {line.name for line in documents.prize_sheet(night=night).standings} == PLAYED


def test_the_live_board_and_the_standings_page_list_everyone(client, night):
    live = client.get(f"/nights/{night.pk}/live/").content.decode()
    assert names_in(live, "Standings") == PLAYED
    page = client.get(f"/nights/{night.pk}/standings/").content.decode()
    assert names_in(page, "Standings") == PLAYED


def test_the_room_screen_shows_some_and_says_how_many_more(night):
    room = room_screen(night)
    assert len(room.standings_shown) + room.standings_more == len(PLAYED)


def test_the_results_csv_has_everyone(client, night):
    body = client.get(f"/nights/{night.pk}/results.csv").content.decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(body)))
    assert {r["player"] for r in rows} == PLAYED


def test_the_season_and_every_history_count_the_night(client, night):
    season = night.group.seasons.get()
    page = words(client.get(season.get_absolute_url()).content.decode())
    assert {n for n in PLAYED if re.search(rf"{n}(?!\d)", page)} == PLAYED
    for name in sorted(PLAYED):
        player = night.group.players.get(name=name)
        history = client.get(f"/seasons/group/{night.group.slug}/players/{player.pk}/")
        text = words(history.content.decode())
        assert "Saturday, December 5" in text or "Dec 5" in text, name
        assert ("left after round 1" in text.lower()) == (name in LEAVERS), name
    regular = night.group.players.get(name="Regular 13")
    history = client.get(f"/seasons/group/{night.group.slug}/players/{regular.pk}/")
    assert "Sent a substitute, who left early" in words(history.content.decode())


def test_the_live_board_shows_at_most_sixteen_and_says_where_the_rest_are(host):
    group = make_group(user=host, regulars=30, substitutes=0)
    night = make_night(group, sets=1)
    start_night(night, seed=2)
    play_round(night)
    board = live_board(night)
    assert len(board.standings_shown) == 16 and board.standings_more == 14
