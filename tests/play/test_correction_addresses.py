"""The host's corrections at a table (docs/rules.md section 6.2), each at its own address:
the Correct page's forms post to them, each answers back on the Correct page of the round
(or with the money question on a finished night), and the page's own address still
answers a page drawn before (its ``action`` names the correction)."""

import re

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from bunco_night.nights.models import NightAction
from bunco_night.nights.selectors import current_round
from bunco_night.nights.services import payment_record
from bunco_night.play.models import Entry
from bunco_night.play.services import bell_ring, night_finish, table_done
from bunco_night.play.state import round_board
from tests.factories import make_group, make_night, make_user
from tests.play.helpers import play_round, start_night, tap

pytestmark = pytest.mark.django_db

CORRECTIONS = ["undo", "put_back", "add", "winner", "tiebreak"]


@pytest.fixture
def night(group):
    night = make_night(group, sets=1)
    start_night(night)
    return night


def url(name, night, number=2):
    return reverse(f"play:table_fix_{name}", args=[night.pk, number])


def correct_page(night, number=2, rnd=1):
    return reverse("play:table_fix", args=[night.pk, number]) + f"?round={rnd}"


def said(response) -> str:
    """What the post added to the messages the Correct page shows next (unread ones before
    it wait in the session)."""
    return [str(m) for m in get_messages(response.wsgi_request)][-1]


def forms(html: str) -> dict[str, str]:
    """Each correction form's address, with the form's markup."""
    found = re.findall(r'<form method="post" action="([^"]+)"[^>]*>(.*?)</form>', html, re.S)
    return {action: body for action, body in found if "/live/table/" in action}


def tied_at_table_3(night):
    """Everyone at table 3 missed, the bell rang: table 3 is done, tied 0 to 0."""
    t3 = night.tables.get(number=3)
    for seat in range(1, 5):
        tap(t3, seat, "miss")
    bell_ring(night=night)
    table_done(table=t3)
    return t3


def test_the_correct_page_s_forms_post_to_their_own_addresses(client, night):
    tied_at_table_3(night)
    entry = tap(night.tables.get(number=3), 1, "points", 1)
    tap(night.tables.get(number=3), 2, "points", 1)
    client.post(url("undo", night, 3), {"round": "1", "entry": str(entry.pk)})
    html = client.get(correct_page(night, 3)).content.decode()
    posted = forms(html)
    assert set(posted) == {url(name, night, 3) for name in CORRECTIONS}
    for body in posted.values():
        assert '<input type="hidden" name="round" value="1">' in body
        assert 'name="action"' not in body
    assert 'name="nonce"' in posted[url("add", night, 3)]  # an added entry counts once


def test_an_entry_undone_and_put_back_at_their_addresses(client, night):
    t2 = night.tables.get(number=2)
    entry = tap(t2, 2, "points", 2)
    response = client.post(url("undo", night), {"round": "1", "entry": str(entry.pk)})
    assert response.status_code == 302 and response.url == correct_page(night)
    assert said(response) == "Saved."
    assert Entry.objects.get(pk=entry.pk).undone_at is not None
    response = client.post(url("put_back", night), {"round": "1", "entry": str(entry.pk)})
    assert response.url == correct_page(night) and said(response) == "Saved."
    assert Entry.objects.get(pk=entry.pk).undone_at is None
    assert round_board(current_round(night)).table(t2.pk).scores[1] == 2


def test_an_entry_added_at_its_address_counts_once_however_often_it_is_sent(client, night):
    data = {"round": "1", "seat": "2", "tap": "points:2", "nonce": "correct-add-0001"}
    for _ in range(2):
        response = client.post(url("add", night), data)
        assert response.url == correct_page(night) and said(response) == "Saved."
    t2 = night.tables.get(number=2)
    assert Entry.objects.filter(table=t2, by_host=True).count() == 1
    assert round_board(current_round(night)).table(t2.pk).scores[1] == 2


def test_a_winner_set_and_as_the_scores_say_at_its_address(client, night):
    t2 = night.tables.get(number=2)
    response = client.post(url("winner", night), {"round": "1", "side": "1"})
    assert said(response) == "Saved."
    assert round_board(current_round(night)).table(t2.pk).winner_side == 1
    response = client.post(url("winner", night), {"round": "1", "side": ""})
    assert said(response) == (
        "Saved. Table 2 plays on: the scores decide its winner when its play stops."
    )
    assert round_board(current_round(night)).table(t2.pk).winner_side is None


def test_who_won_the_tie_recorded_at_its_address(client, night):
    t3 = tied_at_table_3(night)
    response = client.post(url("tiebreak", night, 3), {"round": "1", "side": "0"})
    assert response.url == correct_page(night, 3) and said(response) == "Saved."
    assert round_board(current_round(night)).table(t3.pk).winner_side == 0


def test_a_correction_refused_says_why_on_the_correct_page(client, night):
    response = client.post(url("tiebreak", night), {"round": "1", "side": "0"}, follow=True)
    assert response.redirect_chain == [(correct_page(night), 302)]
    assert "Pick one of the tied sides." in response.content.decode()


def test_a_correction_on_a_finished_night_asks_first_and_comes_back_to_its_address(client, night):
    for a in night.attendances.all():
        payment_record(attendance=a, amount_cents=500)
    play_round(night)
    night_finish(night=night)
    fix = {"round": "1", "seat": "1", "tap": "bunco", "nonce": "late-bunco-0001"}
    response = client.post(url("add", night, 1), fix)
    html = response.content.decode()
    assert "Change the prize money of a night that is over?" in html
    assert "A correction to round 1 at table 1" in html
    assert f'action="{url("add", night, 1)}"' in html  # sent again to the same address
    assert not Entry.objects.filter(round__night=night, kind="bunco").exists()
    token = re.search(r'name="money_ok" value="([0-9a-f]+)"', html)[1]
    response = client.post(url("add", night, 1), fix | {"money_ok": token})
    assert response.url == correct_page(night, 1)
    assert Entry.objects.filter(round__night=night, kind="bunco").count() == 1
    assert NightAction.objects.filter(night=night, kind="correction").exists()


def test_the_correct_page_s_own_address_still_takes_a_page_drawn_before(client, night):
    t2 = night.tables.get(number=2)
    entry = tap(t2, 2, "points", 2)
    response = client.post(correct_page(night), {"action": "undo", "round": "1", "entry": entry.pk})
    assert response.url == correct_page(night) and said(response) == "Saved."
    assert Entry.objects.get(pk=entry.pk).undone_at is not None
    response = client.post(correct_page(night), {"action": "nonsense", "round": "1"})
    assert response.url == correct_page(night) and said(response) == "Unknown action."


def test_only_the_host_posts_corrections_and_only_by_post(client, night):
    for name in CORRECTIONS:
        assert client.get(url(name, night)).status_code == 405
    client.force_login(make_user("stranger"))
    for name in CORRECTIONS:
        assert client.post(url(name, night), {"round": "1"}).status_code == 404
    client.logout()
    for name in CORRECTIONS:
        assert client.post(url(name, night), {"round": "1"}).status_code == 302  # to log in


def test_a_card_party_s_correct_page_offers_no_winner_yet_not_the_scores(client, host):
    """The card party has no scores (docs/rules.md section 9.1): the empty choice of the
    winner clears it, and says so, instead of "As the scores say"."""
    night = make_night(make_group(user=host, name="Cards", rules="card_1904", regulars=9), sets=1)
    start_night(night)
    page = client.get(correct_page(night)).content.decode()
    assert '<option value="">No winner yet</option>' in page
    assert "As the scores say" not in page
