"""What the host is told after correcting a closed round (docs/rules.md section 6.2): the
table's winner, changed or not, and the next round's seating: seated again from the new
winners while that round has not started, kept as it is once it has; a next round left
with no seating because who plays changed (section 10) is not seated by a correction."""

import html
import re

import pytest
from django.urls import reverse

from bunco_night.core.errors import ServiceError
from bunco_night.nights.models import Night
from bunco_night.nights.services import attendance_leave
from bunco_night.play.services import (
    SEATING_DRAWN_AGAIN,
    SEATING_KEPT,
    TableWinner,
    entry_record,
    late_entry_decide,
    round_start,
    winner_set,
)
from bunco_night.play.state import round_board
from tests.built import BUILT_HOST, once_per_module
from tests.factories import make_group, make_night, make_user
from tests.play.helpers import nonce, play_round, start_night, tap

pytestmark = pytest.mark.django_db


def build():
    night = make_night(make_group(user=make_user(BUILT_HOST)))
    start_night(night)
    play_round(night)
    return night.pk


built = once_per_module(build)


@pytest.fixture
def night(built):
    """Twelve at three tables: round 1 closed (seat 1's team won everywhere), round 2
    seated from it, not started; its host is BUILT_HOST."""
    return Night.objects.get(pk=built)


def seating(rnd):
    return sorted(rnd.seats.values_list("table__number", "number", "player_id"))


def side_name(rnd, number, side):
    board = round_board(rnd)
    return next(tr for tr in board.tables if tr.table.number == number).side_names()[side]


def said(response):
    """The messages the page shows, as the host reads them."""
    page = response.content.decode()
    return [html.unescape(m) for m in re.findall(r'<li class="[a-z ]*">(.*?)</li>', page)]


def fix_url(night, number=1, rnd=1):
    return reverse("play:table_fix", args=[night.pk, number]) + f"?round={rnd}"


def test_a_new_winner_while_the_next_round_is_not_started_draws_it_again(night):
    rnd, nxt = night.rounds.get(number=1), night.rounds.get(number=2)
    before = seating(nxt)
    play = winner_set(rnd=rnd, table=night.tables.get(number=1), side=1)
    done = play.recomputed
    assert done.winners[0] == TableWinner(1, side_name(rnd, 1, 1), changed=True)
    assert not any(w.changed for w in done.winners[1:])
    assert (done.next_round, done.next_seating) == (2, SEATING_DRAWN_AGAIN)
    assert not done.draw_undo_lost  # the movement seated round 2: there was no draw
    assert seating(nxt) != before


def test_a_new_winner_once_the_next_round_started_keeps_its_seating_and_says_so(night):
    rnd = night.rounds.get(number=1)
    nxt = round_start(night=night)
    before = seating(nxt)
    play = winner_set(rnd=rnd, table=night.tables.get(number=1), side=1)
    done = play.recomputed
    assert done.winners[0] == TableWinner(1, side_name(rnd, 1, 1), changed=True)
    assert (done.next_round, done.next_seating) == (2, SEATING_KEPT)
    assert seating(nxt) == before  # played from the old winners: it stays


def test_a_correction_that_moves_no_winner_says_the_seating_is_unchanged(night):
    rnd = night.rounds.get(number=1)
    round_start(night=night)
    t2 = night.tables.get(number=2)
    done = entry_record(
        table=t2, nonce=nonce(), seat=2, kind="miss", rnd=rnd, by_host=True
    ).recomputed
    assert done.winners[1] == TableWinner(2, side_name(rnd, 2, 0), changed=False)
    assert not any(w.changed for w in done.winners)
    assert done.next_seating is None


def test_a_correction_in_the_round_in_play_recomputes_nothing():
    night = make_night(make_group())
    rnd = start_night(night)
    t2 = night.tables.get(number=2)
    done = entry_record(table=t2, nonce=nonce(), seat=1, kind="miss", rnd=rnd, by_host=True)
    assert done.recomputed is None
    assert winner_set(rnd=rnd, table=t2, side=1).recomputed is None


def test_the_correction_page_says_the_started_round_keeps_its_seating(client, night):
    round_start(night=night)
    client.login(username=BUILT_HOST, password="bunco")
    response = client.post(
        fix_url(night), {"action": "winner", "side": "1", "round": "1"}, follow=True
    )
    name = side_name(night.rounds.get(number=1), 1, 1)
    assert said(response) == [
        f"Saved. Table 1's winner is now {name}. Round 2 had already started, seated "
        "from the old result: its seating stays as it is."
    ]


def test_the_correction_page_says_the_next_round_was_seated_again(client, night):
    """Round 2 was seated by the movement, with no draw to take back: the answer says it
    was seated again, and nothing about a draw."""
    client.login(username=BUILT_HOST, password="bunco")
    response = client.post(
        fix_url(night), {"action": "winner", "side": "1", "round": "1"}, follow=True
    )
    name = side_name(night.rounds.get(number=1), 1, 1)
    assert said(response) == [
        f"Saved. Table 1's winner is now {name}. Round 2 was seated again from the "
        "corrected winners."
    ]


def test_the_correction_page_says_the_winner_is_unchanged(client, night):
    round_start(night=night)
    client.login(username=BUILT_HOST, password="bunco")
    data = {"action": "add", "round": "1", "seat": "2", "tap": "miss", "nonce": nonce()}
    response = client.post(fix_url(night, 2), data, follow=True)
    name = side_name(night.rounds.get(number=1), 2, 0)
    assert said(response) == [f"Saved. Table 2's winner is still {name}."]


def test_a_late_entry_counted_in_a_closed_round_says_what_it_changed(client, night):
    """A tap for round 1 sent after it closed is late (docs/rules.md section 3.5): the host
    counts it, and is told what came of it."""
    round_start(night=night)
    t3 = night.tables.get(number=3)
    # Seat 1's team won table 3 at 22 to 0: one bunco for the other team (21) does not
    # turn it, two do.
    late = [tap(t3, 2, "bunco", round_number=1) for _ in range(2)]
    assert all(e.is_late for e in late)
    client.login(username=BUILT_HOST, password="bunco")
    url = reverse("play:live_action", args=[night.pk])
    rnd = night.rounds.get(number=1)
    before = side_name(rnd, 3, 0)
    response = client.post(url, {"action": "accept", "entry": str(late[0].pk)}, follow=True)
    assert said(response) == [f"Late entry counted. Table 3's winner is still {before}."]
    response = client.post(url, {"action": "accept", "entry": str(late[1].pk)}, follow=True)
    assert said(response) == [
        f"Late entry counted. Table 3's winner is now {side_name(rnd, 3, 1)}. Round 2 had "
        "already started, seated from the old result: its seating stays as it is."
    ]


def test_the_late_entry_service_answers_what_it_changed(night):
    round_start(night=night)
    late = tap(night.tables.get(number=3), 2, "miss", round_number=1)
    assert late_entry_decide(entry=late, accept=False).recomputed is None
    late = tap(night.tables.get(number=3), 2, "miss", round_number=1)
    done = late_entry_decide(entry=late, accept=True).recomputed
    assert not any(w.changed for w in done.winners) and done.next_seating is None


@pytest.fixture
def unseated():
    """Round 1 closed at one table of two; then one of them left, and the movement's
    seating for round 2 no longer fits (docs/rules.md section 10): round 2 is not
    seated, for the host to draw when who plays is settled."""
    night = make_night(make_group(regulars=2, substitutes=0))
    start_night(night)
    play_round(night)
    attendance_leave(attendance=night.attendances.get(player__name="Regular 2"))
    assert not night.rounds.get(number=2).seats.exists()
    return night


def test_a_correction_that_moves_no_winner_leaves_an_unseated_next_round_unseated(unseated):
    rnd = unseated.rounds.get(number=1)
    t1 = unseated.tables.get(number=1)
    done = entry_record(table=t1, nonce=nonce(), seat=2, kind="miss", rnd=rnd, by_host=True)
    assert not any(w.changed for w in done.recomputed.winners)
    assert done.recomputed.next_seating is None  # nothing was drawn again
    assert not unseated.rounds.get(number=2).seats.exists()


def test_a_new_winner_does_not_seat_who_left_in_an_unseated_next_round(unseated):
    """The movement from round 1 would seat Regular 2, who left: round 2 stays for the
    host to draw."""
    rnd = unseated.rounds.get(number=1)
    done = winner_set(rnd=rnd, table=unseated.tables.get(number=1), side=1).recomputed
    assert done.winners[0].changed and done.next_seating is None
    assert not unseated.rounds.get(number=2).seats.exists()


def test_the_correction_page_says_nothing_of_an_unseated_next_round(client, unseated):
    client.login(username="host", password="bunco")
    data = {"action": "add", "round": "1", "seat": "2", "tap": "miss", "nonce": nonce()}
    response = client.post(fix_url(unseated), data, follow=True)
    name = side_name(unseated.rounds.get(number=1), 1, 0)
    assert said(response) == [f"Saved. Table 1's winner is still {name}."]


def test_a_correction_that_ties_a_table_says_it_is_a_tie(night):
    """Table 2 won 22-0 in round 1: the host's corrections bring it to 22-22. Refused, in
    words that say the table is tied and how to settle it, not only that it has no winner."""
    rnd = night.rounds.get(number=1)
    table = night.tables.get(number=2)
    tap(table, 2, "bunco", by_host=True, rnd=rnd)
    with pytest.raises(ServiceError) as refused:
        tap(table, 2, "points", 1, by_host=True, rnd=rnd)
    assert refused.value.message == (
        "After this change table 2 is tied at 22 to 22: pick its winner or record the tie-break."
    )
