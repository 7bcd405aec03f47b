"""The table phone's screen stays on while a round is in play, and may sleep between rounds.

Headless Chromium has no Screen Wake Lock, so each page gets a stand-in that counts the
requests and releases, the way a phone's browser would grant them.
"""

import pytest
from playwright.sync_api import expect

from bunco_night.nights.services import seating_draw
from bunco_night.play.services import round_start
from tests.browser.helpers import score, tap, until
from tests.factories import make_group, make_night
from tests.play.helpers import play_round, start_night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WAKE_LOCK_STUB = """
window.wake = { requests: 0, held: null };
Object.defineProperty(navigator, "wakeLock", { configurable: true, value: {
  request: function (type) {
    var lock = new EventTarget();
    lock.type = type;
    lock.released = false;
    lock.release = function () {
      if (!lock.released) {
        lock.released = true;
        if (window.wake.held === lock) window.wake.held = null;
        lock.dispatchEvent(new Event("release"));
      }
      return Promise.resolve();
    };
    window.wake.requests += 1;
    window.wake.held = lock;
    return Promise.resolve(lock);
  },
} });
"""


def requests(page) -> int:
    return page.evaluate("window.wake.requests")


def held(page) -> bool:
    return page.evaluate("window.wake.held !== null")


def test_the_screen_stays_on_while_a_round_is_in_play(contexts, live_server):
    night = make_night(make_group(regulars=8, substitutes=0), sets=1)
    seating_draw(night=night, seed=1)
    table = night.tables.get(number=1)
    context = contexts(viewport={"width": 390, "height": 844}, has_touch=True)
    context.add_init_script(WAKE_LOCK_STUB)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/t/{table.token}/")

    expect(page.locator("#board")).to_contain_text("Waiting for the host to start")
    page.wait_for_timeout(2_500)  # a poll has come and gone
    assert requests(page) == 0 and not held(page)

    round_start(night=night)  # the page draws the round in place
    expect(page.locator("#board.status-playing")).to_be_visible()
    until(page, "window.wake.held !== null", "no wake lock in play")
    assert requests(page) == 1

    # The browser lets the lock go when the phone is put away; back on screen, it is asked again.
    page.evaluate("window.wake.held.release()")
    assert not held(page)
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    until(page, "window.wake.held !== null", "no wake lock back on screen")
    assert requests(page) == 2

    # The round ends (where to sit next), drawn in place, even with a tap still on its way:
    # the same page lets the screen sleep.
    page.route("**/entry/", lambda route: None)  # the tap never arrives
    tap(page, 1, "miss")
    play_round(night)
    expect(page.locator("#board")).to_contain_text("Round 1 is over")
    until(page, "window.wake.held === null", "the wake lock kept after the round")
    assert requests(page) == 2


def test_without_the_api_the_table_phone_plays_on_quietly(contexts, live_server):
    night = make_night(make_group(regulars=8, substitutes=0), sets=1)
    start_night(night, seed=1)
    context = contexts(viewport={"width": 390, "height": 844}, has_touch=True)
    context.add_init_script("delete Navigator.prototype.wakeLock;")
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors = []
    page.on("pageerror", lambda error: errors.append(error))
    page.goto(f"{live_server.url}/t/{night.tables.get(number=1).token}/")
    assert page.evaluate("'wakeLock' in navigator") is False
    tap(page, 1, "points:2")
    expect(score(page, 0)).to_have_text("2")
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    assert errors == []
