"""The Bonanza ledger's steps (docs/rules.md section 9.4), each at its own address: the
ledger page's forms post to them, each parses its post with a form and comes back to
the ledger, and the one address they had before still answers a page drawn before (its
``action`` names the step)."""

import re

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from bunco_night.games.models import BonanzaStep
from bunco_night.games.services import bonanza_table_create
from tests.factories import make_group, make_night

pytestmark = pytest.mark.django_db

STEPS = ["deal", "take", "call", "sell_widow", "poker_bet", "settle"]


@pytest.fixture
def table(client, host):
    night = make_night(make_group(user=host, regulars=3, substitutes=0, name="Cards"))
    ids = list(night.group.players.order_by("name").values_list("pk", flat=True))
    client.logout()  # the ledger's link needs no login
    return bonanza_table_create(night=night, player_ids=ids)


def url(name, table):
    return reverse(f"games:bonanza_{name}", args=[table.token])


def ledger(table):
    return reverse("games:bonanza", args=[table.token])


def said(response) -> str:
    return [str(m) for m in get_messages(response.wsgi_request)][-1]


def posted_to(html: str) -> dict[str, str]:
    """Each form's address, with its markup."""
    found = re.findall(r'<form method="post" action="([^"]+)"[^>]*>(.*?)</form>', html, re.S)
    return dict(found)


def steps(table) -> list[str]:
    return list(
        BonanzaStep.objects.filter(table=table).order_by("pk").values_list("action", flat=True)
    )


def test_the_ledger_s_forms_post_to_their_own_addresses(client, table):
    html = client.get(ledger(table)).content.decode()
    assert set(posted_to(html)) == {url("deal", table)}  # before the first hand
    client.post(url("deal", table), {"nonce": "deal" * 5})
    forms = posted_to(client.get(ledger(table)).content.decode())
    in_hand = {url(name, table) for name in ("take", "call", "sell_widow", "poker_bet")}
    assert set(forms) == in_hand | {url("undo", table)}
    for body in forms.values():
        assert 'name="action"' not in body
    a, b, c = table.players
    client.post(url("call", table), {"nonce": "call" * 5, "player": a, f"cards_{b}": "3"})
    forms = posted_to(client.get(ledger(table)).content.decode())
    assert set(forms) == {url(name, table) for name in ("deal", "settle", "undo")}
    assert 'name="action"' not in forms[url("settle", table)]


def test_a_hand_is_kept_at_the_steps_addresses(client, table):
    a, b, c = table.players
    response = client.post(url("deal", table), {"nonce": "deal" * 5})
    assert response.status_code == 302 and response.url == ledger(table)
    for name, data in [
        ("sell_widow", {"player": c, "chips": "2"}),
        ("poker_bet", {"player": b, "chips": "1"}),
        ("take", {"space": "joker", "player": b}),
        ("call", {"player": a, f"cards_{b}": "3", f"cards_{c}": "0"}),
        ("settle", {"space": "poker", "player": c}),
    ]:
        response = client.post(url(name, table), data | {"nonce": f"{name}-0001"})
        assert response.status_code == 302 and response.url == ledger(table), name
    assert steps(table) == ["deal", "sell_widow", "poker_bet", "take", "call_bonanza", "settle"]
    page = client.get(ledger(table)).content.decode()
    assert "add up to 0 ✓" in page and "called Bonanza" in page


def test_a_step_counts_once_however_often_it_is_sent(client, table):
    for _ in range(2):
        client.post(url("deal", table), {"nonce": "deal" * 5})
    assert steps(table) == ["deal"]


def test_a_refused_bonanza_call_shows_the_cards_again_as_typed(client, table):
    a, b, c = table.players
    client.post(url("deal", table), {"nonce": "deal" * 5})
    data = {"nonce": "call" * 5, "player": a, f"cards_{b}": "3", f"cards_{c}": "x"}
    refused = client.post(url("call", table), data)
    assert refused.status_code == 400
    page = refused.content.decode()
    assert "Regular 3: cards left are 0 to 53" in page
    assert f'name="cards_{c}" inputmode="numeric" value="x"' in page
    assert f'<option value="{a}" selected>' in page
    assert steps(table) == ["deal"]


def test_another_step_refused_says_why_on_the_ledger(client, table):
    response = client.post(url("take", table), {"nonce": "take" * 5, "space": "joker"})
    assert response.status_code == 302 and response.url == ledger(table)
    assert 'class="error"' in client.get(ledger(table)).content.decode()
    assert steps(table) == []


def test_the_old_address_still_takes_a_page_drawn_before(client, table):
    old = reverse("games:bonanza_step", args=[table.token])
    a, b, c = table.players
    response = client.post(old, {"nonce": "deal" * 5, "action": "deal"})
    assert response.status_code == 302 and response.url == ledger(table)
    data = {"nonce": "call" * 5, "action": "call_bonanza", "player": a, f"cards_{c}": "x"}
    assert client.post(old, data).status_code == 400  # shown again as typed
    client.post(old, {"nonce": "take" * 5, "action": "take", "space": "joker", "player": b})
    assert steps(table) == ["deal", "take"]
    response = client.post(old, {"nonce": "what" * 5, "action": "nonsense"})
    assert response.url == ledger(table) and said(response) == "Unknown step."
    assert steps(table) == ["deal", "take"]


def test_the_steps_are_posts_to_a_ledger_that_exists(client, table):
    for name in STEPS:
        assert client.get(url(name, table)).status_code == 405
        unknown = reverse(f"games:bonanza_{name}", args=["x" * 22])
        assert client.post(unknown, {"nonce": "deal" * 5}).status_code == 404
    assert steps(table) == []
