"""How do we play? Each group's rules page, made from its own knobs, opened from a table's
link (no login), a player's link and the host's group page."""

import pytest
from django.urls import reverse

from bunco_night.groups.services import prizes_set, rules_update
from bunco_night.nights.services import seating_draw
from bunco_night.play.services import round_start
from tests.factories import make_group, make_night, make_user
from tests.play.helpers import play_round

pytestmark = pytest.mark.django_db


def text(response) -> str:
    assert response.status_code == 200
    return response.content.decode()


def test_the_table_phone_links_to_the_night_s_rules(client):
    group = make_group(regulars=8, substitutes=0, round_minutes=20)
    night = make_night(group, sets=2)
    seating_draw(night=night, seed=1)
    table = night.tables.get(number=1)
    page = text(client.get(reverse("play:table", args=[table.token])))
    rules_url = reverse("play:table_rules", args=[table.token])
    assert f'href="{rules_url}"' in page and "How do we play?" in page
    rules = text(client.get(rules_url))
    assert "Each round has 20 minutes" in rules
    assert "the night has 2 sets" in rules  # the night's sets, not the group's four
    assert "Most wins: the most wins. 42% of the pot." in rules
    assert f'href="{reverse("play:table", args=[table.token])}"' in rules  # back
    # A night keeps its rules: changing the group's later does not change the night's page.
    rules_update(group=group, changes={"round_minutes": 0, "mini_points": 4})
    prizes_set(group=group, prizes=[{"code": "most_wins", "percent": 30}])  # and its prizes
    rules = text(client.get(rules_url))
    assert "Each round has 20 minutes" in rules and "a mini bunco: 5 points" in rules
    assert "Most wins: the most wins. 42% of the pot." in rules


def test_the_table_phone_offers_how_do_we_play_once_on_each_screen(client):
    """Before the night, in play, between rounds and at the end: one way to the rules."""
    night = make_night(make_group(regulars=8, substitutes=0), sets=1)
    seating_draw(night=night, seed=1)
    table = night.tables.get(number=2)
    url = reverse("play:table", args=[table.token])
    rules_url = f'href="{reverse("play:table_rules", args=[table.token])}"'

    def screen() -> str:
        page = text(client.get(url))
        assert page.count(rules_url) == 1, page.count(rules_url)
        return page

    assert "Waiting for the host to start round 1" in screen()
    round_start(night=night)
    assert 'id="taps"' in screen()
    play_round(night)
    assert "Where to sit next" in screen()
    for _ in range(night.total_rounds - 1):
        round_start(night=night)
        play_round(night)
    assert "That's the night!" in screen()


def test_a_player_s_link_opens_the_rules_too(client):
    night = make_night(make_group(rules="two_dice", regulars=8, substitutes=0))
    attendance = night.attendances.first()
    page = text(client.get(reverse("play:player", args=[attendance.token])))
    url = reverse("play:player_rules", args=[attendance.token])
    assert f'href="{url}"' in page
    assert "A roll is two dice." in text(client.get(url))
    assert client.get(reverse("play:player_rules", args=["nope"])).status_code == 404


def test_the_group_page_links_to_how_we_play(client, group):
    page = text(client.get(group.get_absolute_url()))
    url = reverse("groups:how_we_play", args=[group.slug])
    assert f'href="{url}"' in page
    rules = text(client.get(url))
    assert "The head table controls the round" in rules  # the house rules
    rules_update(group=group, changes={"round_end": "every_table", "bunco_ends_round": True})
    rules = text(client.get(url))
    assert "Every table plays to its target" in rules
    assert "A BUNCO ends the round at every table" in rules


def test_another_host_cannot_read_a_group_s_page(client, group):
    client.force_login(make_user("stranger", "pw-stranger-1"))
    assert client.get(reverse("groups:how_we_play", args=[group.slug])).status_code == 404
