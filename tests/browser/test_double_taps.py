"""One rule for double taps, on every path (docs/rules.md section 2.3): every tap that enters
a roll counts once, however soon after the one before, whether it is sent at once, on slow
Wi-Fi, or later from the phone's queue; a tap sent again (an answer lost on the way back)
is stored once. The dice entry forgets its dice once it has scored them."""

import time

import pytest
from playwright.sync_api import expect

from bunco_night.play import services
from bunco_night.play.models import Entry
from tests.browser.helpers import phone, score, until
from tests.factories import make_group, make_night
from tests.play.helpers import start_night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def table_phone(contexts, live_server, width=360, height=740):
    """Round 1 in play; a phone at table 2 (seat 1 rolls first: seats 1 and 3 are "Us")."""
    night = make_night(make_group(regulars=12, substitutes=0), sets=1)
    start_night(night, seed=3)
    table = night.tables.get(number=2)
    page = phone(contexts, f"{live_server.url}/t/{table.token}/", width=width, height=height)
    expect(page.locator("#taps input[name=seat][value='1']")).to_be_checked()
    return page, table


def stored(table) -> list[tuple[int, int]]:
    """(seat, points) of the table's entries, in order."""
    return list(Entry.objects.filter(table=table).order_by("pk").values_list("seat", "points"))


def double_touch(page, locator):
    """Two taps of a finger on the middle of ``locator``, as quick as a finger makes them."""
    box = locator.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.touchscreen.tap(x, y)
    page.touchscreen.tap(x, y)


@pytest.mark.parametrize("size", [(360, 740), (390, 844), (360, 640)])
def test_a_double_tap_on_a_score_button_enters_two_rolls(contexts, live_server, size):
    page, table = table_phone(contexts, live_server, *size)
    plus_one = page.locator("#taps button[value='points:1']")
    plus_one.dblclick()
    expect(score(page, 0)).to_have_text("2")
    double_touch(page, plus_one)
    expect(score(page, 0)).to_have_text("4")
    page.wait_for_timeout(500)  # nothing more arrives
    assert stored(table) == [(1, 1)] * 4
    # A roll that scores keeps the dice: seat 1 still rolls.
    expect(page.locator("#taps input[name=seat][value='1']")).to_be_checked()
    expect(page.locator("#recent .recent li")).to_have_count(4)


def test_a_double_tap_on_slow_wifi_enters_two_rolls_and_a_tap_sent_again_counts_once(
    contexts, live_server, monkeypatch
):
    page, table = table_phone(contexts, live_server)
    record = services.entry_record

    def slowly(**kwargs):
        time.sleep(0.8)  # the answer takes its time: the second tap waits on the phone
        return record(**kwargs)

    monkeypatch.setattr(services, "entry_record", slowly)
    lost = []

    def lose_the_first_answer(route):
        if lost:
            route.continue_()
            return
        lost.append(route.request.post_data)
        route.fetch()  # the server stores the tap...
        route.abort()  # ...and the phone never hears back: it sends the same tap again

    page.route("**/entry/", lose_the_first_answer)
    page.locator("#taps button[value='points:2']").dblclick()
    expect(page.locator("#recent .recent li")).to_have_count(2)
    expect(page.locator("#offline")).to_be_hidden()  # the retry heard, the second tap too
    page.wait_for_timeout(2_500)  # a poll has come and gone: nothing more is sent
    assert lost and stored(table) == [(1, 2), (1, 2)]
    expect(score(page, 0)).to_have_text("4")


def test_a_double_tap_offline_enters_two_rolls_once_the_wifi_is_back(contexts, live_server):
    page, table = table_phone(contexts, live_server)
    page.context.set_offline(True)
    until(page, "navigator.onLine === false", "the page does not know it is offline")
    page.locator("#taps button[value='points:1']").dblclick()
    expect(page.locator("#offline")).to_contain_text("2 taps wait")
    assert stored(table) == []
    page.context.set_offline(False)
    expect(page.locator("#offline")).to_be_hidden()
    expect(page.locator("#recent .recent li")).to_have_count(2)
    expect(score(page, 0)).to_have_text("2")
    assert stored(table) == [(1, 1), (1, 1)]


def test_a_double_tap_on_score_these_dice_enters_one_roll_and_asks_for_the_next_dice(
    contexts, live_server
):
    page, table = table_phone(contexts, live_server)
    mark = table.night.rounds.get(number=1).mark
    other = [f for f in range(1, 7) if f != mark]
    page.get_by_text("Enter the dice instead").click()
    for die, face in enumerate([mark, mark, other[0]], start=1):
        page.locator(f".die-row[aria-label='Die {die}'] label:has(input[value='{face}'])").click()
    page.get_by_role("button", name="Score these dice").dblclick()
    expect(page.locator(".toast")).to_contain_text("Tap a face for each of the three dice")
    expect(score(page, 0)).to_have_text("2")
    page.wait_for_timeout(500)
    assert stored(table) == [(1, 2)]
    expect(page.locator(".dice-pick input:checked")).to_have_count(0)
