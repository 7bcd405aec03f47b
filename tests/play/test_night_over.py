"""The host's screens once the night is over, played to the end or ended early
(docs/rules.md section 7.4: "The host can end the night early"): nothing is "so far"
any more, and the live board says the night is over."""

import pytest
from django.urls import reverse

from bunco_night.play.services import night_finish, round_start
from bunco_night.play.standings import night_standings
from tests.factories import make_group, make_night
from tests.play.helpers import play_round, start_night

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(host):
    """Four players at one table, three rounds a set (the marks 1 to 3), two sets: six
    rounds in all. Rounds 1 and 2 are played: seat 1 wins the first, seat 2 the second, so
    two players are level in set 1."""
    group = make_group(user=host, regulars=4, substitutes=0, marks=(1, 2, 3))
    night = make_night(group, sets=2)
    start_night(night)
    play_round(night, winners=[1])
    round_start(night=night)
    play_round(night, winners=[2])
    return night


def pages(client, night):
    live = client.get(reverse("play:live", args=[night.pk])).content.decode()
    standings = client.get(reverse("play:standings", args=[night.pk])).content.decode()
    return live, standings


def test_while_the_night_goes_on_its_standings_are_so_far(client, night):
    live, standings = pages(client, night)
    assert "<li>Round 3 of 6</li><li>Not started</li>" in live
    assert "Prizes so far" in live and "Standings so far" in live
    assert "Set 1 <span" in standings and "(so far)" in standings
    assert "2 rounds played · pot" in standings
    # Two players are level in set 1, whose roll-off waits for the set's end.
    assert night_standings(night).sets[0].tied
    assert "Who won the roll-off?" not in standings


def test_a_night_ended_early_says_it_is_over(client, night):
    night_finish(night=night)
    live, standings = pages(client, night)
    assert "Night over after round 2 of 6" in live
    assert "Round 2 of 6" not in live and "· Closed" not in live
    assert "so far" not in live.lower()
    assert "<h2>Prizes</h2>" in live and "<h2>Standings</h2>" in live
    assert "Tables in round 2, the last one played" in live
    # Nobody rolled a bunco, and nobody will now.
    assert "Last bunco: <b>none</b>" in live and "nobody yet" not in live
    assert "so far" not in standings.lower() and "nobody yet" not in standings
    assert "Night over after round 2 of 6 · pot" in standings
    assert "Set 1 <span" in standings and "Set 2" not in standings  # set 2 was never played
    assert "(2 of 3 rounds: the night ended)" in standings
    room = client.get(reverse("play:room", args=[night.pk])).content.decode()
    assert "Night over after round 2 of 6" in room and "Round 2 of 6" not in room
    assert "so far" not in room.lower() and "nobody yet" not in room
    # The screen's main column, empty of tables now, shows the prizes.
    main = room[room.index('<div class="room-main">') : room.index('<div class="room-side"')]
    assert '<div class="room-prizes">' in main and "Most wins" in main
    assert "Most wins" not in room[room.index('<div class="room-side"') :]
    # All four are shown: the screen's "and N more" stays hidden.
    assert 'data-total="4" hidden>and <span data-more>0</span> more' in room
    # The Prizes PDF says it too, and a table phone no longer shows a round to roll for.
    from tests.printing.helpers import sheet_html, words

    assert "Night over after round 2 of 6" in words(sheet_html(night, "prizes"))
    phone = client.get(reverse("play:table", args=[night.tables.get(number=1).token]))
    phone = phone.content.decode()
    assert "That's the night!" in phone and "Roll for" not in phone and "Round 2 of" not in phone


def test_a_night_ended_before_its_first_round_says_so(client, host):
    night = make_night(make_group(user=host), sets=1)
    night_finish(night=night)
    live, standings = pages(client, night)
    assert "Night over before any round was played" in live and "No seating yet" not in live
    assert "Night over before any round was played · pot" in standings
    assert "No round was played." in standings


def test_a_set_cut_short_by_the_end_of_the_night_can_have_its_roll_off(client, night):
    """docs/rules.md section 7.1: a tie in a set is settled by a roll-off the host records.
    A set the night ended in the middle of is over: its roll-off can be recorded."""
    night_finish(night=night)
    first = night_standings(night).sets[0]
    assert first.complete and first.tied
    url = reverse("play:standings", args=[night.pk])
    assert "Who won the roll-off?" in client.get(url).content.decode()
    winner = first.level[0]
    client.post(url, {"code": first.code, "player": winner.pk})
    assert night_standings(night).sets[0].leaders == [winner]
    room = client.get(reverse("play:room", args=[night.pk])).content.decode()
    assert f"Set 1 winner: <b>{winner.name}</b>" in room


def test_a_night_played_to_its_last_round_says_it_is_over(client, night):
    for _ in range(4):
        round_start(night=night)
        play_round(night, winners=[1])
    night.refresh_from_db()
    assert night.is_over
    live, standings = pages(client, night)
    assert "Night over: all 6 rounds played" in live and "· Closed" not in live
    assert "Night over: all 6 rounds played · pot" in standings
    assert "so far" not in live.lower() and "so far" not in standings.lower()
    assert "the night ended)" not in standings  # both sets were played to their end
