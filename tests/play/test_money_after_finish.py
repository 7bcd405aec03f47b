"""docs/rules.md section 7.9: a host's change to a finished night that would move its
money (a payment or its taking back, a correction, a tie-break changed) is made only
once the host has seen the money before and after and said yes; naming the winner of a
tie or drawing the door prize after the night moves nobody's money, and asks nothing."""

import re

import pytest
from django.urls import reverse

from bunco_night.nights.models import MoneyRecord, NightAction, Payment
from bunco_night.nights.selectors import dues_summary
from bunco_night.nights.services import payment_record
from bunco_night.play.models import PrizeTiebreak
from bunco_night.play.services import night_finish
from bunco_night.play.standings import night_standings
from bunco_night.rules.money import money_of, unbalanced
from tests.factories import make_night
from tests.play.helpers import door_prize_night, play_round, start_night

pytestmark = pytest.mark.django_db


def words(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


@pytest.fixture
def night(group):
    """A night of 12 who all paid but Regular 1, one round played, then ended."""
    night = make_night(group, sets=1)
    for a in night.attendances.select_related("player"):
        if a.player.name != "Regular 1":
            payment_record(attendance=a, amount_cents=500)
    start_night(night)
    play_round(night)
    night_finish(night=night)
    night.refresh_from_db()
    return night


def recorded(night):
    return MoneyRecord.objects.get(night=night).as_figures


def test_a_payment_on_a_finished_night_asks_first_and_changes_nothing_until_yes(client, night):
    regular = night.attendances.get(player__name="Regular 1")
    url = reverse("nights:pay", args=[night.pk, regular.pk])
    before = recorded(night)
    assert before.pot_cents == 5500

    response = client.post(url, {"nonce": "pay-after-the-night-1", "last_seen": "0"})

    page = words(response)
    assert "Change the prize money of a night that is over?" in page
    assert "Mark $5.00 paid for Regular 1" in page
    assert "Dues collected was $55.00 → becomes $60.00" in page
    assert "Prize pot was $55.00 → becomes $60.00" in page
    assert "record the payment on the next night instead" in page
    assert not Payment.objects.filter(attendance=regular).exists()
    assert recorded(night) == before
    token = re.search(r'name="money_ok" value="([0-9a-f]+)"', response.content.decode())[1]

    client.post(url, {"nonce": "pay-after-the-night-1", "last_seen": "0", "money_ok": token})

    assert Payment.objects.filter(attendance=regular).count() == 1
    after = recorded(night)
    assert after.pot_cents == 6000 and unbalanced(after) == []
    assert dues_summary(night).pot_cents == 6000
    assert night_standings(night).pot_cents == 6000
    texts = list(NightAction.objects.filter(night=night).values_list("kind", "by_name", "text"))
    assert texts[0][:2] == ("money", "host") and "Prize pot $55.00 → $60.00" in texts[0][2]
    assert texts[1][:2] == ("payment", "host") and "Regular 1" in texts[1][2]


def test_an_old_yes_is_not_a_yes_to_a_different_change(client, night):
    regular = night.attendances.get(player__name="Regular 1")
    url = reverse("nights:pay", args=[night.pk, regular.pk])
    client.post(url, {"nonce": "pay-after-the-night-2", "last_seen": "0", "money_ok": "0" * 20})
    assert not Payment.objects.filter(attendance=regular).exists()


def test_the_question_comes_in_the_dues_line_with_htmx(client, night):
    regular = night.attendances.get(player__name="Regular 1")
    url = reverse("nights:pay", args=[night.pk, regular.pk])
    response = client.post(
        url, {"nonce": "pay-after-the-night-3", "last_seen": "0"}, HTTP_HX_REQUEST="true"
    )
    html = response.content.decode()
    assert f'id="dues-{regular.pk}"' in html and 'role="alertdialog"' in html
    assert f'hx-post="{url}"' in html and 'name="money_ok"' in html
    assert "hx-swap-oob" not in html  # nothing changed: the totals stay as they are


def test_taking_back_a_payment_on_a_finished_night_asks_with_the_money(client, night):
    payment = Payment.objects.filter(attendance__night=night).first()
    url = reverse("nights:payment_undo", args=[night.pk, payment.pk])
    response = client.post(url, {"attendance": payment.attendance_id})
    page = words(response)
    assert f"Take back $5.00 paid for {payment.attendance.player.name}" in page
    assert "Prize pot was $55.00 → becomes $50.00" in page
    token = re.search(r'name="money_ok" value="([0-9a-f]+)"', response.content.decode())[1]
    client.post(url, {"attendance": payment.attendance_id, "money_ok": token})
    assert not Payment.objects.filter(pk=payment.pk).exists()
    assert recorded(night).pot_cents == 5000


def test_a_correction_that_changes_a_prize_asks_and_then_records(client, night):
    """A bunco added to round 1 after the night: most buncos and the last bunco, which
    nobody won, now pay the roller."""
    url = reverse("play:table_fix", args=[night.pk, 1]) + "?round=1"
    fix = {"action": "add", "round": "1", "seat": "1", "tap": "bunco", "nonce": "late-bunco-1"}
    before = recorded(night)
    roller = night.rounds.get(number=1).seats.get(table__number=1, number=1).player

    response = client.post(url, fix)

    page = words(response)
    assert "Change the prize money of a night that is over?" in page
    assert "A correction to round 1 at table 1" in page
    assert f"Most buncos was nobody ($18.00) → becomes {roller.name} $18.00" in page
    assert recorded(night) == before
    assert not night.rounds.get(number=1).entries.filter(kind="bunco").exists()
    token = re.search(r'name="money_ok" value="([0-9a-f]+)"', response.content.decode())[1]

    client.post(url, fix | {"money_ok": token})

    after = recorded(night)
    most = next(r for r in after.awards.results if r.code == "most_buncos")
    assert most.payouts == ((roller.pk, 1800),)
    assert after.pot_cents == before.pot_cents and unbalanced(after) == []
    kinds = list(NightAction.objects.filter(night=night).values_list("kind", flat=True))
    assert kinds == ["money", "correction"]  # newest first


def test_a_correction_that_moves_no_money_asks_nothing(client, night):
    """One round played: most wins is a tie either way, and nobody is paid it yet."""
    url = reverse("play:table_fix", args=[night.pk, 1]) + "?round=1"
    before = recorded(night)
    response = client.post(url, {"action": "winner", "side": "1", "round": "1"})
    assert response.status_code == 302
    assert night.rounds.get(number=1).seats.get(table__number=1, number=2).won
    assert money_of(recorded(night)) == money_of(before)


def test_naming_a_tied_prize_s_winner_after_the_night_asks_nothing(client, night):
    """The Dec 18 night: the most buncos tie-break recorded after the night ended."""
    prize = next(p for p in night_standings(night).prizes if p.tied)
    url = reverse("play:standings", args=[night.pk])

    response = client.post(url, {"code": prize.key, "player": prize.candidates[0]}, follow=True)

    assert "Tie-break recorded." in words(response)
    shown = next(p for p in night_standings(night).prizes if p.key == prize.key)
    assert shown.winner == prize.candidates[0] and shown.amount_cents == prize.amount_cents
    assert recorded(night).pot_cents == 5500

    # Taking it back, or naming another, moves money already named: the host is asked.
    response = client.post(url, {"code": prize.key})
    assert "Change the prize money of a night that is over?" in words(response)
    assert PrizeTiebreak.objects.filter(night=night, code=prize.key).exists()


def test_the_door_prize_drawn_after_the_night_is_recorded_without_asking(client, group):
    night = door_prize_night(group)
    night_finish(night=night)
    waiting = next(r for r in recorded(night).awards.results if r.code == "door_prize")
    assert waiting.seed is None and not waiting.payouts

    response = client.post(reverse("play:standings", args=[night.pk]), {"action": "door"})

    assert response.status_code == 302
    door = next(r for r in recorded(night).awards.results if r.code == "door_prize")
    assert door.payouts == ((door.winner, 600),) and door.seed is not None
    line = NightAction.objects.get(night=night)
    assert line.kind == "door" and line.by_name == "host"


def test_the_night_page_says_a_finished_night_s_money_is_as_it_ended(client, night):
    page = words(client.get(night.get_absolute_url()))
    assert "The night is over: its money is as it was when the night ended." in page
    assert "Tonight's prize pot" not in page and "Collected (the pot) $55.00" in page
