"""The table phone on a 390 px phone (and at 320 px where it says so): the rules link,
the messages after Done, a mis-tapped Done in a tie's extra turns, and where to sit
after the phone was away while the host closed a round and started the next."""

import pytest
from playwright.sync_api import expect

from bunco_night.nights.services import seating_draw
from tests.browser.helpers import phone
from tests.factories import make_group, make_night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_waiting_screen_offers_how_do_we_play_once(contexts, live_server):
    night = make_night(make_group(regulars=12, substitutes=0), sets=1)
    seating_draw(night=night, seed=3)
    table = night.tables.get(number=2)
    page = phone(contexts, f"{live_server.url}/t/{table.token}/")
    expect(page.locator("#board")).to_contain_text("Waiting for the host to start round 1")
    rules = page.get_by_role("link", name="How do we play?")
    expect(rules).to_have_count(1)
    rules.click()
    expect(page).to_have_url(f"{live_server.url}/t/{table.token}/rules/")
