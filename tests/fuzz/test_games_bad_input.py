"""No post to a Buck Dice table's or a Bonanza ledger's phone produces a 500: random
strings, numbers and unicode in every field the pages send (hypothesis), each answered
with the page or a message, and the game's rows of another night untouched."""

from __future__ import annotations

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bunco_night.games.models import BonanzaStep, BuckGame
from bunco_night.games.services import bonanza_table_create, buck_game_start, buck_table_open
from tests.factories import make_group, make_night, make_user
from tests.fuzz.test_bad_input import values_for
from tests.search import examples

pytestmark = pytest.mark.django_db

SPECIAL = {
    "tap": st.sampled_from(["points:1", "points:²", "bunco", "miss", "dice", "points:" + "9" * 30]),
    "action": st.sampled_from(["hand", "deal", "widow", "space", "bonanza", "end", "x"]),
}


def field_values(name: str):
    key = "t_" if name.startswith("t_") else name
    special = SPECIAL.get(key)
    return st.one_of(special, values_for(name)) if special is not None else values_for(name)


@pytest.fixture
def world():
    host = make_user()
    buck_night = make_night(
        make_group(user=host, rules="buck_dice", regulars=5, substitutes=0), sets=1
    )
    buck = buck_table_open(night=buck_night)
    buck_game_start(table=buck)
    night = make_night(make_group(user=host, name="Elm Street", regulars=6, substitutes=0))
    players = list(night.group.players.order_by("name").values_list("pk", flat=True)[:4])
    bonanza = bonanza_table_create(night=night, player_ids=players, start_chips=50)
    other = bonanza_table_create(night=make_night(night.group), player_ids=players[:2])
    return {"buck": buck, "bonanza": bonanza, "players": players, "other": other}


def endpoints(world) -> dict[str, tuple[str, list[str]]]:
    buck, bonanza, players = world["buck"].token, world["bonanza"].token, world["players"]
    cards = [f"cards_{p}" for p in players]
    return {
        "buck order": (reverse("games:buck_order", args=[buck]), ["t_1", "t_x", "t_²"]),
        "buck point": (reverse("games:buck_point", args=[buck]), ["point"]),
        "buck throw": (reverse("games:buck_throw", args=[buck]), ["nonce", "tap", "d1", "d2"]),
        "bonanza step": (
            reverse("games:bonanza_step", args=[bonanza]),
            ["nonce", "action", "player", "space", "chips", *cards],
        ),
    }


@pytest.mark.parametrize("name", ["buck order", "buck point", "buck throw", "bonanza step"])
@settings(
    max_examples=examples(20),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_no_post_to_a_game_s_phone_makes_a_500(client, world, name, data):
    url, fields = endpoints(world)[name]
    chosen = data.draw(st.lists(st.sampled_from(fields), unique=True))
    payload = {f: data.draw(field_values(f), label=f) for f in chosen}
    if name == "bonanza step" and data.draw(st.booleans(), label="a player's id"):
        payload["player"] = str(world["players"][0])
    before = list(BonanzaStep.objects.filter(table=world["other"]).values())
    response = client.post(url, payload)
    assert response.status_code < 500, (name, payload)
    assert list(BonanzaStep.objects.filter(table=world["other"]).values()) == before


def test_a_total_that_is_not_a_number_is_said_on_the_buck_page(client, world):
    game = BuckGame.objects.get(table=world["buck"])
    first = next(iter(game.players))
    url = reverse("games:buck_order", args=[world["buck"].token])
    response = client.post(url, {f"t_{first}": "twelve"})
    assert response.status_code == 400
    assert "Enter each total as a number from 3 to 18." in response.content.decode()
    assert 'value="twelve"' in response.content.decode()
