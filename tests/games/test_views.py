"""The Buck Dice and Bonanza pages: plain forms that work without JavaScript, a clear
message for bad input, never a server error."""

import re

import pytest
from django.urls import reverse

from bunco_night.games.models import BonanzaTable, BuckTable
from bunco_night.nights.models import Night
from tests.factories import make_group, make_night

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return response.content.decode()


@pytest.fixture
def buck_night(host):
    group = make_group(user=host, rules="buck_dice", regulars=4, substitutes=0, name="Buckers")
    return make_night(group, sets=1)


def open_buck(client, night) -> str:
    response = client.post(reverse("games:buck_open", args=[night.pk]))
    table = BuckTable.objects.get(night=night)
    assert response["Location"] == reverse("games:buck", args=[table.token])
    return table.token


def test_the_night_page_opens_the_buck_dice_table(client, buck_night):
    page = text(client.get(buck_night.get_absolute_url()))
    assert "Open the Buck Dice table" in page
    token = open_buck(client, buck_night)
    assert open_buck(client, buck_night) == token  # the same table every time
    draw = client.post(reverse("nights:draw", args=[buck_night.pk]), follow=True)
    assert "Buck Dice has no seating" in text(draw)


def test_a_game_from_the_phone(client, buck_night):
    token = open_buck(client, buck_night)
    client.logout()  # the table's link needs no login
    url = reverse("games:buck", args=[token])
    assert "Start game 1" in text(client.get(url))
    client.post(reverse("games:buck_start", args=[token]))
    page = text(client.get(url))
    assert "Who goes first?" in page
    names = re.findall(r'name="(t_\d+)"', page)
    assert len(names) == 4
    # A total that is not a number, or not 3 to 18: a message, nothing stored, and the
    # page keeps what was typed, to correct one total rather than type them all again.
    typed = dict.fromkeys(names, "12") | {names[0]: "x"}
    response = client.post(reverse("games:buck_order", args=[token]), typed)
    assert response.status_code == 400 and "Enter each total as a number" in text(response)
    assert text(response).count('value="12"') == 3 and 'value="x"' in text(response)
    response = client.post(reverse("games:buck_order", args=[token]), dict.fromkeys(names, "19"))
    assert response.status_code == 400 and "Three dice total 3 to 18" in text(response)
    assert text(response).count('value="19"') == 4
    assert "Who goes first?" in text(client.get(url))
    totals = {name: str(17 - i) for i, name in enumerate(names)}
    client.post(reverse("games:buck_order", args=[token]), totals)
    page = text(client.get(url))
    assert "throws one die for the point number" in page
    client.post(reverse("games:buck_point", args=[token]), {"point": "3"})
    page = text(client.get(url))
    assert "Point number <b>3</b>" in page and "To throw:" in page
    nonce = re.search(r'name="nonce" value="([^"]+)"', page)[1]
    throw = reverse("games:buck_throw", args=[token])
    client.post(throw, {"nonce": nonce, "tap": "points:2"})
    client.post(throw, {"nonce": nonce, "tap": "points:2"})  # a double submit: stored once
    page = text(client.get(url))
    assert re.search(r'data-testid="buck-score-1">2<', page)
    client.post(throw, {"nonce": "n" * 20, "tap": "dice", "d1": "3", "d2": "3", "d3": "3"})
    page = text(client.get(url))
    assert re.search(r'data-testid="buck-score-1">15<', page) and "out 1st" in page
    client.post(throw, {"nonce": "m" * 20, "tap": "dice", "d1": "3", "d2": "9"})
    assert "A roll is three dice" in text(client.get(url))
    for n in range(3):  # three more Big Bucks in turn: the last player is left
        client.post(throw, {"nonce": f"big{n}" * 4, "tap": "bunco"})
    page = text(client.get(url))
    assert "the loser!" in page and "Close game 1" in page
    client.post(reverse("games:buck_close", args=[token]))
    page = text(client.get(url))
    assert "That's the night!" in page and "lost" in page
    assert Night.objects.get(pk=buck_night.pk).is_over


def test_buck_dice_posts_without_a_game_are_refused_clearly(client, buck_night):
    token = open_buck(client, buck_night)
    for name in ("buck_point", "buck_throw", "buck_undo", "buck_close"):
        response = client.post(reverse(f"games:{name}", args=[token]), {"point": "x"})
        assert response.status_code == 302
    assert "No game is being played" in text(client.get(reverse("games:buck", args=[token])))
    response = client.post(reverse("games:buck_order", args=[token]), {"t_1": "12"})
    assert response.status_code == 400 and "No game is being played" in text(response)
    assert client.get(reverse("games:buck", args=["nosuchlink"])).status_code == 404


def test_the_buck_dice_rules_from_the_table_link(client, buck_night):
    token = open_buck(client, buck_night)
    client.logout()
    page = text(client.get(reverse("games:buck_rules", args=[token])))
    assert "exactly 15" in page and "Little Buck" in page


def test_a_bonanza_ledger_from_the_night_page(client, host):
    night = make_night(make_group(user=host, regulars=6, substitutes=0, name="Cards"))
    assert "Bonanza ledger" in text(client.get(night.get_absolute_url()))
    new = reverse("games:bonanza_new", args=[night.pk])
    page = text(client.get(new))
    ids = re.findall(r'name="players" value="(\d+)"', page)
    response = client.post(new, {"players": ids[:1], "start_chips": "20", "poker": "on"})
    assert "Bonanza is played by 2 to 9 players" in text(response)
    response = client.post(new, {"players": ids[:3], "start_chips": "20", "poker": "on"})
    table = BonanzaTable.objects.get(night=night)
    assert response["Location"] == reverse("games:bonanza", args=[table.token])
    client.logout()  # the ledger's link needs no login
    url = reverse("games:bonanza", args=[table.token])
    step = reverse("games:bonanza_step", args=[table.token])
    client.post(step, {"nonce": "deal" * 5, "action": "deal"})
    page = text(client.get(url))
    assert 'data-testid="on-cloth">30<' in page and "add up to 0 ✓" in page
    a, b, c = table.players
    client.post(step, {"nonce": "take" * 5, "action": "take", "space": "joker", "player": b})
    refused = client.post(
        step,
        {
            "nonce": "call" * 5,
            "action": "call_bonanza",
            "player": a,
            f"cards_{b}": "3",
            f"cards_{c}": "x",
        },
    )
    # Shown again as typed, with the reason: one slip to mend, not every hand to type again.
    assert refused.status_code == 400
    page = text(refused)
    assert "Regular 3: cards left are 0 to 53" in page
    assert f'name="cards_{b}" inputmode="numeric" value="3"' in page
    assert f'name="cards_{c}" inputmode="numeric" value="x"' in page
    assert f'<option value="{a}" selected>' in page
    client.post(
        step,
        {"nonce": "cal2" * 5, "action": "call_bonanza", "player": a, f"cards_{b}": "3"},
    )
    page = text(client.get(url))
    assert f'data-testid="chips-{a}">{20 - 10 + 3 + 3}<' in page
    assert "add up to 0 ✓" in page and "called Bonanza" in page
    client.post(reverse("games:bonanza_undo", args=[table.token]))
    page = text(client.get(url))
    assert "Undone: bonanza called." in page and "Bonanza!" in page  # in the hand again


@pytest.mark.parametrize(
    "data",
    [
        {"action": "take", "space": "joker", "player": "x"},
        {"action": "sell_widow", "player": "1", "chips": "99999999999999"},
        {"action": "nothing"},
        {"action": "settle", "space": "\x00"},
        {},
    ],
)
def test_bad_bonanza_steps_are_messages_not_errors(client, host, data):
    night = make_night(make_group(user=host, regulars=3, substitutes=0, name="Odd"))
    ids = list(night.group.players.values_list("pk", flat=True))
    from bunco_night.games.services import bonanza_table_create

    table = bonanza_table_create(night=night, player_ids=ids)
    response = client.post(
        reverse("games:bonanza_step", args=[table.token]), data | {"nonce": "z" * 12}
    )
    assert response.status_code == 302
    assert 'class="error"' in text(client.get(response["Location"]))
