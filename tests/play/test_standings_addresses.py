"""The prize standings' posts, each at its own address: the door prize drawn
(docs/rules.md section 7.7) and a tied prize's or set's tie-break recorded or cleared
(section 7.6). Each answers back on the standings (or with the money question on a
finished night), and the standings' own address still answers a page drawn before (its
``action`` "door" draws, anything else is a tie-break)."""

import re

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from bunco_night.nights.models import Night
from bunco_night.play.models import PrizeTiebreak
from bunco_night.play.services import night_finish
from bunco_night.play.standings import night_standings
from tests.factories import make_group, make_night, make_user
from tests.play.helpers import door_prize_night, play_round, start_night

pytestmark = pytest.mark.django_db


def url(name, night):
    return reverse(f"play:standings_{name}", args=[night.pk])


def standings(night):
    return reverse("play:standings", args=[night.pk])


def said(response) -> str:
    """What the post added to the messages the standings show next."""
    return [str(m) for m in get_messages(response.wsgi_request)][-1]


def forms(html: str) -> list[tuple[str, str]]:
    """Each form of the page: its address ("" for the page's own), with its markup."""
    found = re.findall(r'<form method="post"([^>]*)>(.*?)</form>', html, re.S)
    posted = [(m[1] if (m := re.search(r'action="([^"]+)"', a)) else "", b) for a, b in found]
    return [(address, body) for address, body in posted if "/accounts/" not in address]


@pytest.fixture
def night(group):
    """A night with a door prize, one round played: a prize is tied, the door not drawn."""
    return door_prize_night(group)


def tied(night):
    """The tied prize: its key and its candidates' ids."""
    prize = next(p for p in night_standings(Night.objects.get(pk=night.pk)).prizes if p.tied)
    return prize.key, list(prize.candidates)


def test_the_standings_forms_post_to_their_own_addresses(client, night):
    html = client.get(standings(night)).content.decode()
    posted = forms(html)
    assert {address for address, _ in posted} == {url("door", night), url("tiebreak", night)}
    for _, body in posted:
        assert 'name="action"' not in body
    door = next(body for address, body in posted if address == url("door", night))
    assert "Draw the door prize" in door


def test_the_door_prize_drawn_at_its_address_once(client, night):
    response = client.post(url("door", night))
    assert response.status_code == 302 and response.url == standings(night)
    assert said(response) == "Door prize drawn."
    seed = Night.objects.get(pk=night.pk).door_seed
    assert seed is not None
    client.post(url("door", night))  # a second draw changes nothing
    assert Night.objects.get(pk=night.pk).door_seed == seed


def test_a_tie_break_recorded_and_cleared_at_its_address(client, night):
    key, candidates = tied(night)
    winner = candidates[1]
    response = client.post(url("tiebreak", night), {"code": key, "player": winner})
    assert response.status_code == 302 and response.url == standings(night)
    assert said(response) == "Tie-break recorded."
    assert PrizeTiebreak.objects.get(night=night, code=key).player_id == winner
    response = client.post(url("tiebreak", night), {"code": key, "player": ""})
    assert response.url == standings(night) and said(response) == "Tie-break cleared."
    assert not PrizeTiebreak.objects.filter(night=night).exists()


def test_a_tie_break_refused_says_why_on_the_standings(client, night):
    who = night.group.players.first()
    response = client.post(url("tiebreak", night), {"code": "nonsense", "player": who.pk})
    assert response.url == standings(night) and said(response) == "Pick one of the prizes."
    response = client.post(url("door", night), {"money_ok": "x" * 201})
    assert said(response) == "That confirmation is not one this site gave: try again."
    assert Night.objects.get(pk=night.pk).door_seed is None


def test_a_tie_break_cleared_after_the_night_asks_first_at_its_own_address(client, night):
    key, candidates = tied(night)
    client.post(url("tiebreak", night), {"code": key, "player": candidates[0]})
    night_finish(night=night)
    response = client.post(url("tiebreak", night), {"code": key, "player": ""})
    html = response.content.decode()
    assert "Change the prize money of a night that is over?" in html
    assert "Clear the tie-break" in html
    assert f'action="{url("tiebreak", night)}"' in html  # sent again to the same address
    assert PrizeTiebreak.objects.filter(night=night, code=key).exists()
    token = re.search(r'name="money_ok" value="([0-9a-f]+)"', html)[1]
    data = {"code": key, "player": "", "money_ok": token}
    response = client.post(url("tiebreak", night), data)
    assert response.url == standings(night) and said(response) == "Tie-break cleared."
    assert not PrizeTiebreak.objects.filter(night=night, code=key).exists()


def test_the_standings_own_address_still_takes_a_page_drawn_before(client, night):
    key, candidates = tied(night)
    winner = candidates[0]
    response = client.post(standings(night), {"code": key, "player": winner})
    assert response.url == standings(night) and said(response) == "Tie-break recorded."
    assert PrizeTiebreak.objects.get(night=night, code=key).player_id == winner
    response = client.post(standings(night), {"action": "door"})
    assert response.url == standings(night) and said(response) == "Door prize drawn."
    assert Night.objects.get(pk=night.pk).door_seed is not None


def test_only_the_host_posts_to_the_standings_and_only_by_post(client, night):
    for name in ("door", "tiebreak"):
        assert client.get(url(name, night)).status_code == 405
    client.force_login(make_user("stranger"))
    for name in ("door", "tiebreak"):
        assert client.post(url(name, night)).status_code == 404
    client.logout()
    for name in ("door", "tiebreak"):
        assert client.post(url(name, night)).status_code == 302  # to log in
    assert Night.objects.get(pk=night.pk).door_seed is None


def test_a_set_s_roll_off_is_recorded_at_the_tie_break_s_address(client, host):
    """A set ended level (docs/rules.md section 7.3): its roll-off form posts there too."""
    night = make_night(make_group(user=host, name="Sets", regulars=8, substitutes=0), sets=1)
    start_night(night)
    play_round(night, winners=[1, 2])
    s = night_standings(Night.objects.get(pk=night.pk))
    (level,) = [st for st in s.sets if st.tied]
    html = client.get(standings(night)).content.decode()
    assert f'action="{url("tiebreak", night)}"' in html
    response = client.post(
        url("tiebreak", night), {"code": level.code, "player": level.level[0].pk}
    )
    assert said(response) == "Tie-break recorded."
    assert PrizeTiebreak.objects.filter(night=night, code=level.code).exists()
