"""Where to sit, on a table phone that comes back into a round after the host closed the
round before and started this one while it was away (docs/rules.md section 5): the
table's page holds who sat there and where each sits now; its polls never read it."""

import html
import re

import pytest
from django.urls import reverse

from bunco_night.nights.services import attendance_leave
from bunco_night.play.moves import moves
from bunco_night.play.pages import moves_missed, table_page
from bunco_night.play.services import round_start
from bunco_night.play.state import round_board
from tests.factories import make_group, make_night
from tests.play.helpers import play_round, start_night, tap

pytestmark = pytest.mark.django_db


def seated(rnd, number):
    """The player ids at table ``number`` in ``rnd``, in seat order (ghosts left out)."""
    table = rnd.night.tables.get(number=number)
    return [s.player_id for s in round_board(rnd).table(table.pk).seats if s.player_id]


def missed_box(client, table) -> str | None:
    html = client.get(reverse("play:table", args=[table.token])).content.decode()
    found = re.search(r'<dialog id="missed-moves".*?</dialog>', html, re.S)
    return found.group(0) if found else None


def test_the_page_of_a_new_round_says_where_last_round_s_players_sit_now(client):
    night = make_night(make_group(regulars=12, substitutes=0), sets=1)
    start_night(night, seed=3)
    t2 = night.tables.get(number=2)
    assert missed_box(client, t2) is None  # round 1: nobody sat anywhere before
    before = list(round_board(night.rounds.get(number=1)).table(t2.pk).seats)
    play_round(night)
    assert missed_box(client, t2) is None  # between rounds the board says it itself
    round_start(night=night)
    box = missed_box(client, t2)
    assert box is not None and " open" not in box.split(">")[0]  # the phone decides to open it
    assert 'data-round="1"' in box and "Round 2 has started" in box
    where = moves(night.rounds.get(number=2))
    rows = re.findall(
        r"<li><span class=\"who\">(.*?)</span> → <span class=\"where\">(.*?)</span>", box
    )
    assert len(rows) == 4
    for seat, (name, place) in zip(before, rows, strict=True):
        m = where[seat.player_id]
        assert name == seat.player.name
        # Its "·" never starts or ends a line: the spaces around it do not break.
        assert html.unescape(place) == (
            f"Table {m.table}{' (head)' if m.head else ''}\u00a0·\u00a0Seat\u00a0{m.seat}"
        )
        assert m.partner and f'<span class="partner">partner {m.partner}</span>' in box
    # And who sits at this table now, seat by seat.
    for seat in round_board(night.rounds.get(number=2)).table(t2.pk).seats:
        assert f"Seat {seat.number}: <b>{seat.occupant_name}</b>" in box


def test_a_phone_that_draws_the_new_round_in_place_asks_for_it_once(client):
    """js/bunco-round.js asks for where everyone sits now when it draws a new round in place and
    did not show the closed round's moves: the page's box, or nothing when there is none."""
    night = make_night(make_group(regulars=12, substitutes=0), sets=1)
    start_night(night, seed=3)
    t2 = night.tables.get(number=2)
    url = reverse("play:table_moves", args=[t2.token])
    assert client.get(url).status_code == 204  # round 1: nobody sat anywhere before
    play_round(night)
    assert client.get(url).status_code == 204  # between rounds the board says it itself
    round_start(night=night)
    response = client.get(url)
    assert response.status_code == 200 and response["Cache-Control"].startswith("max-age=0")
    assert response.content.decode().strip() == missed_box(client, t2)
    assert client.get(reverse("play:table_moves", args=["no-such-link-here"])).status_code == 404


def test_a_poll_never_reads_or_sends_it(client, django_assert_num_queries):
    night = make_night(make_group(regulars=12, substitutes=0), sets=1)
    start_night(night, seed=3)
    play_round(night)
    round_start(night=night)
    t2 = night.tables.get(number=2)
    tap(t2, 1, "points", 1)
    night.refresh_from_db()
    t2.refresh_from_db()
    url = reverse("play:table_state", args=[t2.token])
    # A poll of an older version: the board, drawn as before (the count of
    # tests/play/test_views.py), with no word of the round before.
    with django_assert_num_queries(10):
        html = client.get(f"{url}?v=0.0").content.decode()
    assert 'id="board"' in html and "missed-moves" not in html
    # Unchanged: one query, as ever.
    with django_assert_num_queries(1):
        assert client.get(f"{url}?v={night.version}.{t2.version}").status_code == 204


def test_a_table_with_nobody_this_round_still_says_where_its_players_went(client):
    """Small tables (section 4.1): four players leave after round 1, table 3 is not needed
    in round 2 (section 10), and its phone says where the players who sat there went."""
    night = make_night(make_group(rules="deluxe", regulars=12, substitutes=0), sets=1)
    start_night(night, seed=5)
    play_round(night)
    t3 = night.tables.get(number=3)
    first, second = night.rounds.get(number=1), night.rounds.get(number=2)
    was_at_3 = set(seated(first, 3))
    leaving = [p for p in seated(second, 1) + seated(second, 2) if p not in was_at_3][:4]
    for player in leaving:
        attendance_leave(attendance=night.attendances.get(player_id=player))
    round_start(night=night)
    assert table_page(t3).status == "not_seated"
    missed = moves_missed(table_page(t3))
    assert missed is not None and missed.closed == 1
    assert {m.table for _, m in missed.moves} <= {1, 2}
    assert len(missed.moves) == len(was_at_3)
    box = missed_box(client, t3)
    assert "Nobody sits at Table 3 in round 2." in box
