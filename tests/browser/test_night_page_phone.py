"""The night page on a 360x740 phone: its first screen shows what the host does next (draw
the seating, start the round, the live board, the prizes, the invitations), the night's
sections and a More menu, not a wall of links; a side game is not in the night's main
navigation; More opens without scripts."""

import datetime as dt

import pytest
from playwright.sync_api import expect

from bunco_night.nights.services import seating_draw
from bunco_night.play.services import night_finish, round_start
from tests.browser.helpers import host_page
from tests.conftest import TESTS_TODAY
from tests.factories import make_night
from tests.play.helpers import play_round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}

# The links and buttons the first screen shows (in the page's main part), by name.
FIRST_SCREEN = """() => [...document.querySelectorAll('main a, main button, main summary')]
  .filter(el => { const r = el.getBoundingClientRect();
                  return el.checkVisibility({visibilityProperty: true})
                         && r.top < innerHeight && r.bottom > 0; })
  .map(el => [el.textContent.trim().replace(/\\s+/g, ' '), el.getBoundingClientRect().bottom])"""


def first_screen(page) -> dict[str, float]:
    """Each link or button on the first screen, with where it ends."""
    page.evaluate("window.scrollTo(0, 0)")
    return dict(page.evaluate(FIRST_SCREEN))


def check_next_step(page, name: str, what: str):
    shown = first_screen(page)
    assert name in shown, f"{what}: {name!r} is not on the first screen: {sorted(shown)}"
    assert shown[name] <= PHONE["height"], f"{what}: {name!r} ends at {shown[name]} px"
    # The rest is a few links: the night's group, its sections and More, not every page.
    assert len(shown) <= 8, f"{what}: {sorted(shown)}"
    assert not any("Bonanza" in n for n in shown), f"{what}: {sorted(shown)}"


def test_the_first_phone_screen_shows_the_hosts_next_step(contexts, live_server, group):
    later = make_night(group, date=TESTS_TODAY + dt.timedelta(days=8))
    tonight = make_night(group, date=TESTS_TODAY)
    page = host_page(contexts, live_server, later, path=later.get_absolute_url())
    page.set_viewport_size(PHONE)
    check_next_step(page, "Invitations & answers", "a night to come")

    page.goto(f"{live_server.url}{tonight.get_absolute_url()}")
    check_next_step(page, "Draw seating for round 1", "tonight, not seated")
    page.get_by_role("button", name="Draw seating for round 1").click()
    expect(page.locator("#seating .table-card")).to_have_count(3)
    check_next_step(page, "▶ Start round 1", "seated")
    page.get_by_role("button", name="▶ Start round 1").click()
    expect(page.locator("h1")).to_have_text("Live board")
    expect(page.locator("main")).to_contain_text("Round 1 started")

    page.goto(f"{live_server.url}{tonight.get_absolute_url()}")
    check_next_step(page, "▶ Live board", "round 1 in play")


def test_a_night_over_shows_its_prizes_first(contexts, live_server, group):
    night = make_night(group, date=TESTS_TODAY)
    seating_draw(night=night, seed=1)
    round_start(night=night)
    play_round(night)
    night_finish(night=night)
    page = host_page(contexts, live_server, night, path=night.get_absolute_url())
    page.set_viewport_size(PHONE)
    check_next_step(page, "Prize standings", "the night over")


def test_more_opens_without_scripts_and_holds_the_side_game(contexts, live_server, group):
    night = make_night(group, date=TESTS_TODAY)
    page = host_page(contexts, live_server, night, path=night.get_absolute_url(), scripts=False)
    page.set_viewport_size(PHONE)
    bonanza = page.get_by_role("link", name="Side game: Bonanza ledger")
    expect(bonanza).to_be_hidden()
    page.locator("summary", has_text="More").click()
    expect(bonanza).to_be_visible()
    for name in ("Edit night", "Table links & QR", "Room screen (TV)", "Print"):
        expect(page.get_by_role("link", name=name)).to_be_visible()
