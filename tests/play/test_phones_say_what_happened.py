"""A player's own page and a table's phone say what happened: a player who left early is
told her night is over (with her tally), a prize winner is told what she won, and once
the night is finished every table's phone shows the prizes and who won them."""

import re

import pytest
from django.urls import reverse

from bunco_night.nights.services import attendance_leave
from bunco_night.play.pages import table_page
from bunco_night.play.services import round_close, winner_set
from bunco_night.play.standings import night_standings
from tests.factories import make_group, make_night
from tests.play.helpers import play_round, start_night
from tests.printing.helpers import words
from tests.seasons.helpers import pay_everyone, play_night

pytestmark = pytest.mark.django_db


@pytest.fixture
def night():
    night = make_night(make_group(regulars=12, substitutes=0), sets=1)
    pay_everyone(night)
    start_night(night, seed=4)
    play_round(night)
    return night


def page_words(client, name: str, *args) -> str:
    response = client.get(reverse(name, args=args))
    assert response.status_code == 200
    return words(response.content.decode()).replace(" :", ":")


def test_a_player_who_left_is_told_her_night_is_over_with_her_tally(client, night):
    row = night.attendances.select_related("player").get(player__name="Regular 3")
    attendance_leave(attendance=row)
    text = page_words(client, "play:player", row.token)
    assert "Waiting for the host" not in text
    assert "You left after round 1: your night is over. Thanks for playing!" in text
    assert re.search(r"My card Round Table and partner Result 1 1s Table \d", text)
    # Her card stays as it was, and a poll brings the same.
    poll = client.get(reverse("play:player_state", args=[row.token]))
    assert "You left after round 1" in words(poll.content.decode())


def test_a_player_still_playing_waits_for_the_host_between_rounds(client, night):
    """The words a leaver no longer reads stay for those who play on, once the host has
    taken the next round's seating back (a re-draw pending)."""
    row = night.attendances.get(player__name="Regular 4")
    text = page_words(client, "play:player", row.token)
    assert "Round 2: sit at" in text and "left after" not in text


@pytest.fixture
def finished():
    """A night of three rounds: Regular 1 wins them all and rolls a bunco in each."""
    night = make_night(make_group(regulars=12, substitutes=0), sets=1)
    pay_everyone(night)
    play_night(night, winners=[["Regular 1"]] * 3, buncos={i: ["Regular 1"] for i in range(3)})
    return night


def test_a_prize_winner_is_told_on_her_own_page_and_the_others_see_the_prizes(client, finished):
    night, standings = finished, night_standings(finished)
    won = {}
    for row in standings.prize_rows:
        for winner, _paid, cents in row.lines:
            won.setdefault(winner.pk, []).append((row.prize.title, cents))
    assert won, "somebody won a prize"
    for a in night.attendances.select_related("player"):
        text = page_words(client, "play:player", a.token)
        assert "Prizes" in text
        mine = won.get(a.player_id, [])
        for title, cents in mine:
            assert f"You won {title}: ${cents // 100}.{cents % 100:02d}" in text, a.player
        assert ("You won" in text) == bool(mine), a.player


def test_every_table_phone_shows_the_prizes_when_the_night_is_over(client, finished):
    night, standings = finished, night_standings(finished)
    for table in night.tables.all():
        text = page_words(client, "play:table", table.token)
        assert "That's the night!" in text and "The host has the prize standings" not in text
        for row in standings.prize_rows:
            assert row.prize.title in text
            if row.winner:
                assert row.winner.name in text


def test_after_a_card_round_the_table_phone_says_who_won_without_a_score(client):
    # The card party's winner is the host's pick, fewest cards left (docs/rules.md
    # section 9.1): the phone names the winner and gives no score.
    night = make_night(make_group(rules="card_1904", regulars=8, substitutes=0), sets=1)
    rnd = start_night(night, seed=4)
    for table in night.tables.all():
        winner_set(rnd=rnd, table=table, side=0)
    round_close(rnd=rnd)
    table = night.tables.get(number=2)
    winner = table_page(table).here.side_names()[0]
    text = page_words(client, "play:table", table.token)
    assert f"Round 1 is over. {winner} won at this table. Where to sit next" in text
