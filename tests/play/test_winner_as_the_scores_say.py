"""The host's "As the scores say" on the Correct page (docs/rules.md section 6.2) for a
table whose play stopped at the bell but that never tapped Done, as a table without a
phone never can (section 3.1): the scores decide it, and the round can close
(section 3.7). A tie is said to be one, for the host to pick; a table where someone
has not rolled yet (everyone rolls once) is not finished behind their back."""

import html
import re

import pytest
from django.urls import reverse

from bunco_night.play.services import round_close, table_done, winner_set
from bunco_night.play.state import round_board
from tests.factories import make_group, make_night
from tests.play.helpers import ring_the_bell, start_night, tap

pytestmark = pytest.mark.django_db


@pytest.fixture
def night():
    """House rules (the head table rings the bell, everyone rolls once, extra turns break
    a tie), twelve at three tables of four, round 1 in play; its host is "host"."""
    night = make_night(make_group(), sets=1)
    start_night(night)
    return night


def table(night, number):
    return night.tables.get(number=number)


def at(night, number):
    """Table ``number`` in round 1 as the host's board reads it."""
    rnd = night.rounds.get(number=1)
    return round_board(rnd).table(table(night, number).pk)


def everyone_rolls(night, number):
    for seat in range(1, 5):
        tap(table(night, number), seat, "miss")


def bell_rung_table_2_ahead_table_3_tied(night):
    """The head table rang the bell; table 2 leads 2 to 0 and table 3 is 0 to 0, everyone
    there having rolled, and neither tapped Done (no phone)."""
    ring_the_bell(night)
    everyone_rolls(night, 2)
    tap(table(night, 2), 1, "points", 2)
    everyone_rolls(night, 3)
    assert not at(night, 2).finished and not at(night, 3).finished


def test_as_the_scores_say_finishes_a_table_that_never_tapped_done(night):
    bell_rung_table_2_ahead_table_3_tied(night)
    rnd = night.rounds.get(number=1)
    winner_set(rnd=rnd, table=table(night, 2), side=None)
    t2 = at(night, 2)
    assert t2.finished and t2.winner_side == 0  # seats 1 and 3: 2 to 0
    assert t2.play.winner_side is None  # the scores' winner, not the host's choice
    # Table 3 is the only one left: tied, its tie to break, not "not done".
    winner_set(rnd=rnd, table=table(night, 3), side=None)
    t3 = at(night, 3)
    assert t3.winner_side is None and t3.outcome.needs_tiebreak
    with pytest.raises(Exception) as caught:
        round_close(rnd=rnd)
    assert caught.value.code == "tie_needs_break"
    winner_set(rnd=rnd, table=table(night, 3), side=1)
    assert round_close(rnd=rnd).number == 2
    won = rnd.seats.filter(table__number=2, won=True).values_list("number", flat=True)
    assert sorted(won) == [1, 3]


def test_as_the_scores_say_follows_the_scores_after_a_later_correction(night):
    """The scores decide, not a name fixed when the host saved: an entry the host adds
    afterwards moves the winner."""
    bell_rung_table_2_ahead_table_3_tied(night)
    rnd = night.rounds.get(number=1)
    winner_set(rnd=rnd, table=table(night, 2), side=None)
    tap(table(night, 2), 2, "points", 3, by_host=True)  # three 1s: a bunco for seats 2 and 4
    assert at(night, 2).winner_side == 1


def test_as_the_scores_say_waits_for_a_player_who_has_not_rolled(night):
    """Everyone rolls at least once (section 3.1): the host's choice does not end the
    table while someone there has not rolled, as Done would not."""
    ring_the_bell(night)
    tap(table(night, 2), 1, "points", 2)
    rnd = night.rounds.get(number=1)
    winner_set(rnd=rnd, table=table(night, 2), side=None)
    t2 = at(night, 2)
    assert not t2.finished and not t2.play.finished_turn
    assert t2.outcome.waiting_for == {2, 3, 4}


def test_as_the_scores_say_before_the_bell_lets_the_table_play_on(night):
    """Before the bell the scores decide nothing yet: clearing the host's choice does not
    end the table's play."""
    rnd = night.rounds.get(number=1)
    everyone_rolls(night, 2)
    winner_set(rnd=rnd, table=table(night, 2), side=1)
    winner_set(rnd=rnd, table=table(night, 2), side=None)
    t2 = at(night, 2)
    assert not t2.finished and not t2.play.finished_turn


def said(response) -> list[str]:
    page = response.content.decode()
    return [html.unescape(m) for m in re.findall(r'<li class="[a-z ]*">(.*?)</li>', page)]


def save_winner(client, night, number, side=""):
    url = reverse("play:table_fix", args=[night.pk, number]) + "?round=1"
    return client.post(url, {"action": "winner", "side": side, "round": "1"}, follow=True)


def test_the_correct_page_finishes_a_table_as_the_scores_say_and_the_round_closes(client, night):
    """The tester's night: no phone at a table, nobody pressed Done; the host saves "As the
    scores say" on its Correct page and closes the round."""
    bell_rung_table_2_ahead_table_3_tied(night)
    table_done(table=table(night, 3))
    winner_set(rnd=night.rounds.get(number=1), table=table(night, 3), side=0)
    client.login(username="host", password="bunco")
    names = at(night, 2).side_names()
    answer = said(save_winner(client, night, 2))
    assert answer == [f"Saved: table 2's winner is {names[0]}, as the scores say (2 to 0)."]
    closed = client.post(reverse("play:live_close", args=[night.pk]), follow=True)
    assert "Round 1 closed." in " ".join(said(closed))
    assert night.rounds.get(number=1).is_closed


def test_the_correct_page_says_plainly_that_a_tied_table_needs_a_winner_picked(client, night):
    bell_rung_table_2_ahead_table_3_tied(night)
    client.login(username="host", password="bunco")
    answer = said(save_winner(client, night, 3))
    assert answer == [
        "Table 3 is tied, 0 to 0: the scores do not decide its winner. "
        "Pick its winner below, or record who won the extra turns."
    ]
    page = client.get(reverse("play:table_fix", args=[night.pk, 3]) + "?round=1")
    assert "The extra turns were won by" in page.content.decode()


def test_the_correct_page_names_who_is_still_to_roll(client, night):
    ring_the_bell(night)
    tap(table(night, 2), 1, "points", 2)
    client.login(username="host", password="bunco")
    seats = at(night, 2).seats
    who = ", ".join(seats[n].occupant_name for n in (1, 2, 3))
    assert said(save_winner(client, night, 2)) == [
        f"Saved. Table 2 is not done: everyone rolls at least once, and {who} still to "
        "roll. Add their rolls below, or pick the winner."
    ]


def test_as_the_scores_say_in_a_closed_round_gives_the_scores_winner(night):
    """A table the host gave to a side without a Done, the round closed: the host's
    choice cleared, the scores decide, and the results follow (section 6.2)."""
    bell_rung_table_2_ahead_table_3_tied(night)
    rnd = night.rounds.get(number=1)
    winner_set(rnd=rnd, table=table(night, 2), side=1)
    winner_set(rnd=rnd, table=table(night, 3), side=0)
    round_close(rnd=rnd)
    rnd.refresh_from_db()
    play = winner_set(rnd=rnd, table=table(night, 2), side=None)
    assert [w.changed for w in play.recomputed.winners] == [False, True, False]
    won = rnd.seats.filter(table__number=2, won=True).values_list("number", flat=True)
    assert sorted(won) == [1, 3]
