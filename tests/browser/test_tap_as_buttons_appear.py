"""A tap as a new round's buttons appear is entered, or the phone says it was not
(docs/rules.md section 2.3): never lost without a word."""

import pytest
from playwright.sync_api import expect

from bunco_night.play.models import Entry
from tests.browser.helpers import next_round_held, phone, until
from tests.factories import make_group, make_night
from tests.play.helpers import play_round, start_night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SETTLED = "!document.querySelector('#taps [data-settling]')"


def centre(locator):
    box = locator.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_a_double_tap_across_the_settling_moment_says_the_tap_it_did_not_enter(
    contexts, live_server
):
    night = make_night(make_group(regulars=12, substitutes=0), sets=1)
    start_night(night, seed=3)
    table = night.tables.get(number=2)
    play_round(night)
    page = phone(contexts, f"{live_server.url}/t/{table.token}/", width=360, height=740)
    expect(page.locator("#board")).to_contain_text("Round 1 is over")
    next_round_held(page, night)
    x, y = centre(page.locator("#taps button[value='points:1']"))
    page.touchscreen.tap(x, y)  # the first tap, while the buttons settle: not entered
    page.clock.resume()
    until(page, SETTLED, "the buttons never settled")
    page.touchscreen.tap(x, y)  # the second, just after: entered
    expect(page.locator("#recent .recent li")).to_have_count(1)
    assert Entry.objects.filter(table=table, round__number=2).count() == 1
    # The first is said, and stays said after the second is entered.
    expect(page.locator(".toast")).to_contain_text("that tap was not entered")


def test_a_tap_whose_button_is_drawn_anew_under_the_finger_is_said_not_entered(
    contexts, live_server
):
    night = make_night(make_group(regulars=12, substitutes=0), sets=1)
    start_night(night, seed=3)
    table = night.tables.get(number=2)
    page = phone(contexts, f"{live_server.url}/t/{table.token}/", width=360, height=740)
    plus_one = page.locator("#taps button[value='points:1']")
    expect(plus_one).to_be_visible()
    until(page, SETTLED, "the buttons never settled")
    x, y = centre(plus_one)
    page.mouse.move(x, y)
    page.mouse.down()  # the finger is on +1 ...
    play_round(night)  # ... as the host closes the round: the buttons go
    expect(page.locator("#board")).to_contain_text("Round 1 is over")
    page.mouse.up()
    expect(page.locator(".toast")).to_contain_text("that tap was not entered")
    assert not Entry.objects.filter(table=table, late_at__isnull=False).exists()
