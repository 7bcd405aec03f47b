"""Who rolls first, on the table phone (docs/rules.md section 2.5)."""

import pytest
from django.urls import reverse

from bunco_night.play.pages import table_page
from bunco_night.play.services import round_close, round_start
from bunco_night.play.state import round_board
from tests.factories import make_group, make_night
from tests.play.helpers import start_night, tap

pytestmark = pytest.mark.django_db


def test_at_a_party_the_scorekeeper_in_seat_1_rolls_first(client):
    night = make_night(make_group(regulars=12, substitutes=0), sets=1)
    from bunco_night.nights.services import seating_draw

    seating_draw(night=night, seed=4)
    t2 = night.tables.get(number=2)
    page = table_page(t2)
    assert page.first.number == 1 and page.first_seat == 1
    html = client.get(reverse("play:table", args=[t2.token])).content.decode()
    assert f"<b>{page.first.occupant_name}</b> rolls first" in html
    round_start(night=night)
    html = client.get(reverse("play:table", args=[t2.token])).content.decode()
    assert f"· {page.first.occupant_name} starts" in html  # until the first entry
    assert 'value="1" checked' in html  # "Who's rolling?" starts on the first roller
    tap(t2, 1, "miss")
    html = client.get(reverse("play:table", args=[t2.token])).content.decode()
    assert "starts</span>" not in html
    # A phone opened now starts where the table is: the miss passed the dice to seat 2
    # (section 2.2), a roll that scores keeps them, and seat 4's miss passes to seat 1.
    assert 'value="2" checked' in html
    for seat, kind, count, rolls_next in [
        (2, "points", 2, 2),
        (2, "miss", 0, 3),
        (3, "bunco", 0, 3),
        (3, "miss", 0, 4),
        (4, "miss", 0, 1),
    ]:
        tap(t2, seat, kind, count)
        assert table_page(t2).first_seat == rolls_next, (seat, kind)


def test_at_one_table_the_player_left_of_the_last_winner_rolls_first(client):
    """Section 2.5: "The player to the left of the round's winner picks up the dice and
    rolls first to start Round #2"."""
    night = make_night(make_group(rules="one_table", regulars=4, substitutes=0), sets=1)
    rnd = start_night(night, seed=5)
    t1 = night.tables.get(number=1)
    assert table_page(t1).first.number == 1  # round 1: the scorekeeper
    for _ in range(7):
        tap(t1, 3, "points", 3)  # seat 3 reaches 21 with a bunco: it wins
    assert round_board(rnd).tables[0].winner_side == 2
    nxt = round_close(rnd=rnd)
    round_start(night=night)
    page = table_page(t1)
    assert page.round.number == nxt.number == 2
    assert page.first.number == 4
    html = client.get(reverse("play:table", args=[t1.token])).content.decode()
    assert 'value="4" checked' in html


def test_the_bunco_question_speaks_of_ghosts_only_where_one_sits(client):
    """Section 5.5: whoever rolls for a ghost gets the bunco; a table with no ghost is not
    told about ghosts."""
    night = make_night(make_group(regulars=11, substitutes=0, fill="ghosts"), sets=1)
    start_night(night, seed=4)
    pages = {t.number: table_page(t) for t in night.tables.all()}
    assert [n for n, p in pages.items() if p.has_ghost] != list(pages)  # some have none
    for number, page in pages.items():
        html = client.get(reverse("play:table", args=[page.table.token])).content.decode()
        said = "even when rolling for a ghost" in html
        assert said == page.has_ghost == any(ghost for _, _, ghost in page.seats), number
    assert any(p.has_ghost for p in pages.values())
