"""The host's round controls, each at its own address: the live board's buttons post to
them, each parses its post with a form, and the one address they had before still
answers a page drawn before (its ``action`` names the control)."""

import re

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from bunco_night.nights.models import Night
from bunco_night.play.models import Entry
from bunco_night.play.services import round_start
from tests.factories import make_group, make_night
from tests.play.helpers import play_round, start_night, tap

pytestmark = pytest.mark.django_db


def url(name, night):
    return reverse(f"play:{name}", args=[night.pk])


def said(response) -> str:
    """What the post added to the messages the live board shows next (unread ones before
    it wait in the session)."""
    return [str(m) for m in get_messages(response.wsgi_request)][-1]


def form_actions(html: str) -> set[str]:
    return set(re.findall(r'(?:action|formaction)="([^"]+)"', html))


def test_a_night_is_run_from_the_live_board_s_own_addresses(client, group):
    night = make_night(group, sets=1)
    live = url("live", night)
    assert url("live_draw", night) in form_actions(client.get(live).content.decode())
    response = client.post(url("live_draw", night))
    assert response.status_code == 302 and response.url == live
    assert said(response) == "Seating drawn."
    html = client.get(live).content.decode()
    assert url("live_start", night) in form_actions(html)
    assert (
        said(client.post(url("live_start", night)))
        == f"Round 1 started: roll for {night.rounds.get(number=1).mark}!"
    )
    html = client.get(live).content.decode()
    assert {url("live_bell", night), url("live_close", night)} <= form_actions(html)
    assert (
        said(client.post(url("live_bell", night)))
        == "Bell rung: every table finishes the turn in play."
    )
    assert night.rounds.get(number=1).bell_by_host
    play_round(night, close=False)
    assert (
        said(client.post(url("live_close", night))) == "Round 1 closed. Everyone moves for round 2."
    )
    assert url("live_finish", night) in form_actions(client.get(live).content.decode())
    assert said(client.post(url("live_finish", night))) == "The night is over."
    assert Night.objects.get(pk=night.pk).is_over


def test_the_night_page_s_next_step_starts_the_round_at_its_own_address(client, group):
    night = make_night(group, sets=1)
    client.post(url("live_draw", night))
    html = client.get(night.get_absolute_url()).content.decode()
    assert url("live_start", night) in form_actions(html)
    assert url("live_action", night) not in html


def test_a_late_entry_is_accepted_or_discarded_at_its_own_address(client, group):
    night = make_night(group, sets=1)
    start_night(night)
    play_round(night)
    round_start(night=night)
    late = [tap(night.tables.get(number=3), 2, "miss", round_number=1) for _ in range(2)]
    html = client.get(url("live", night)).content.decode()
    assert {url("live_late_accept", night), url("live_late_discard", night)} <= form_actions(html)
    response = client.post(url("live_late_accept", night), {"entry": late[0].pk})
    assert said(response).startswith("Late entry counted.")
    response = client.post(url("live_late_discard", night), {"entry": late[1].pk})
    assert said(response) == "Late entry discarded."
    decisions = [Entry.objects.get(pk=e.pk).late_decision for e in late]
    assert decisions == [Entry.Late.ACCEPTED, Entry.Late.DISCARDED]


def test_a_card_party_s_winner_is_entered_at_its_own_address(client, host):
    night = make_night(make_group(user=host, name="Cards", rules="card_1904", regulars=9), sets=1)
    start_night(night)
    assert url("live_winner", night) in form_actions(
        client.get(url("live", night)).content.decode()
    )
    response = client.post(url("live_winner", night), {"table": "2", "side": "1"})
    assert said(response) == "Table 2: winner recorded."


@pytest.mark.parametrize(
    ("name", "data", "words"),
    [
        ("live_winner", {}, "Pick a table of the round being played."),
        ("live_winner", {"table": "²", "side": "0"}, "Pick a table of the round being played."),
        ("live_winner", {"table": "1", "side": "9" * 5000}, "Pick the table's winner."),
        ("live_late_accept", {"entry": "x"}, "Pick a late entry from the list."),
        ("live_late_discard", {"entry": "9" * 40}, "Pick a late entry from the list."),
        ("live_close", {"money_ok": "x" * 5000}, "not one this site gave"),
        ("live_bell", {"money_ok": "a\x00b"}, "null character"),
    ],
)
def test_a_bad_post_is_said_on_the_live_board(client, group, name, data, words):
    night = make_night(group, sets=1)
    start_night(night)
    response = client.post(url(name, night), data)
    assert response.status_code == 302 and response.url == url("live", night)
    assert words in said(response)


def test_a_late_entry_of_another_night_is_not_found(client, group):
    night, other = make_night(group, sets=1), make_night(group, sets=1)
    for n in (night, other):
        start_night(n)
    play_round(other)
    round_start(night=other)
    late = tap(other.tables.get(number=1), 1, "miss", round_number=1)
    assert client.post(url("live_late_accept", night), {"entry": late.pk}).status_code == 404


@pytest.mark.parametrize(
    "name",
    ["live_draw", "live_start", "live_bell", "live_close", "live_winner"]
    + ["live_late_accept", "live_late_discard", "live_finish"],
)
def test_round_controls_take_posts_only(client, group, name):
    night = make_night(group, sets=1)
    assert client.get(url(name, night)).status_code == 405


def test_the_old_address_still_runs_each_control(client, group):
    """A page drawn before the controls had their own addresses posts ``action``."""
    night = make_night(group, sets=1)
    old = url("live_action", night)
    assert said(client.post(old, {"action": "draw"})) == "Seating drawn."
    assert night.rounds.get(number=1).is_pending
    client.post(old, {"action": "start"})
    assert night.rounds.get(number=1).is_playing
    assert said(client.post(old, {"action": "nonsense"})) == "Unknown action."
    assert said(client.post(old, {})) == "Unknown action."
