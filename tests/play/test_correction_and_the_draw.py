"""A host's correction to a closed round and a draw of the next round (docs/rules.md
sections 4.4 and 6.2): a correction that seats the next round again from new winners
takes away the draw's undo, since the seating the draw replaced followed the old winners,
and says so; a correction that moves no winner leaves the draw's undo as it was."""

import html

import pytest
from django.urls import reverse

from bunco_night.core.errors import ServiceError
from bunco_night.nights.services import seating_draw, seating_draw_undo
from bunco_night.play.services import SEATING_DRAWN_AGAIN, entry_record, winner_set
from tests.factories import make_group, make_night
from tests.play.helpers import nonce, play_round, start_night

pytestmark = pytest.mark.django_db

UNDO = "Undo the draw"


def seating(rnd):
    return sorted(rnd.seats.values_list("table__number", "number", "player_id"))


@pytest.fixture
def movement():
    """Round 2's seating as the movement made it from round 1's winners."""
    return {}


@pytest.fixture
def night(movement):
    """Twelve at three tables: round 1 closed, round 2 seated by the movement from it,
    then drawn again at random by the host (an undo point: the movement's seating)."""
    night = make_night(make_group())
    start_night(night)
    play_round(night)
    movement["round 2"] = seating(night.rounds.get(number=2))
    seating_draw(night=night, seed=7)
    assert seating(night.rounds.get(number=2)) != movement["round 2"]
    return night


def night_page(client, night) -> str:
    client.login(username="host", password="bunco")
    return client.get(reverse("nights:detail", args=[night.pk])).content.decode()


def test_a_correction_that_seats_the_next_round_again_takes_away_the_draw_s_undo(
    client, night, movement
):
    rnd, nxt = night.rounds.get(number=1), night.rounds.get(number=2)
    assert UNDO in night_page(client, night)
    done = winner_set(rnd=rnd, table=night.tables.get(number=1), side=1).recomputed
    assert done.next_seating == SEATING_DRAWN_AGAIN and done.draw_undo_lost
    moved = seating(nxt)  # the movement from the new winners
    nxt.refresh_from_db()
    assert nxt.replaced_seating is None
    assert UNDO not in night_page(client, night)
    with pytest.raises(ServiceError) as caught:
        seating_draw_undo(night=night)
    assert caught.value.code == "nothing_to_undo"
    assert seating(nxt) == moved  # the old winners' seating did not come back
    assert moved != movement["round 2"]


def test_the_correction_page_says_the_draw_can_no_longer_be_undone(client, night):
    """The host who meant to undo the draw is told why the button went away."""
    client.login(username="host", password="bunco")
    url = reverse("play:table_fix", args=[night.pk, 1]) + "?round=1"
    response = client.post(url, {"action": "winner", "side": "1", "round": "1"}, follow=True)
    page = html.unescape(response.content.decode())
    assert (
        "Round 2 was seated again from the corrected winners; the draw can no longer be "
        "undone." in page
    )
    assert UNDO not in night_page(client, night)


def test_a_correction_that_moves_no_winner_says_nothing_of_the_draw(client, night):
    client.login(username="host", password="bunco")
    url = reverse("play:table_fix", args=[night.pk, 2]) + "?round=1"
    data = {"action": "add", "round": "1", "seat": "2", "tap": "miss", "nonce": nonce()}
    page = client.post(url, data, follow=True).content.decode()
    assert "Saved." in page and "seated again" not in page and "undone" not in page
    assert UNDO in night_page(client, night)


def test_an_undo_tapped_on_a_page_from_before_the_correction_puts_nothing_back(client, night):
    """The night page shown before the correction still offers the undo: tapped, it says
    there is nothing to take back and the seating stays."""
    rnd, nxt = night.rounds.get(number=1), night.rounds.get(number=2)
    winner_set(rnd=rnd, table=night.tables.get(number=1), side=1)
    moved = seating(nxt)
    client.login(username="host", password="bunco")
    response = client.post(reverse("nights:draw_undo", args=[night.pk]), follow=True)
    assert "There is no draw to take back." in response.content.decode()
    assert seating(nxt) == moved


def test_a_correction_that_moves_no_winner_keeps_the_draw_s_undo(client, night, movement):
    rnd, nxt = night.rounds.get(number=1), night.rounds.get(number=2)
    drawn = seating(nxt)
    t2 = night.tables.get(number=2)
    done = entry_record(table=t2, nonce=nonce(), seat=2, kind="miss", rnd=rnd, by_host=True)
    assert done.recomputed.next_seating is None
    assert seating(nxt) == drawn
    assert UNDO in night_page(client, night)
    seating_draw_undo(night=night)
    assert seating(nxt) == movement["round 2"]  # from the same winners: it still fits
