"""The host's night page says nothing to the browser's console while it keeps itself up to
date and the host arranges the seating by hand: real headless Chromium.

The page's panels disable their buttons while a request is on its way; a request that
comes from no button (the answers panel refreshing itself every 5 s, a link that picks
a seat or says No) has none to disable, and htmx must not be asked to find one."""

import pytest
from playwright.sync_api import expect

from bunco_night.nights.services import seating_draw
from tests.browser.helpers import host_page
from tests.factories import make_group, make_night, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_night_page_refreshing_its_answers_and_following_links_logs_no_htmx_error(
    contexts, live_server
):
    night = make_night(make_group(user=make_user()))
    seating_draw(night=night, seed=1)
    page = host_page(contexts, live_server, night, path=night.get_absolute_url())
    console, polls = [], []
    page.on("console", lambda m: console.append(f"{m.type}: {m.text}"))
    page.on("request", lambda r: polls.append(r.url) if "/answers/" in r.url else None)
    expect(page.locator("#answers h2")).to_contain_text("Players' answers")

    page.wait_for_timeout(6_000)  # the answers panel asks again every 5 s
    assert polls, "the answers panel asked for its news"

    # A seat picked by hand, then the same seat again to cancel: links, not buttons.
    seating = page.locator("#seating")
    seating.locator("a.seat-body").first.click()
    expect(seating.locator(".seat.picked")).to_have_count(1)
    seating.locator(".seat.picked a.seat-body").click()
    expect(seating.locator(".seat.picked")).to_have_count(0)
    # A payment taken back, then not: "No" is a link too.
    dues = page.locator("#dues")
    dues.get_by_role("button", name="Mark $5.00 paid for Regular 1", exact=True).click()
    dues.get_by_role("button", name="Take back $5.00 from Regular 1").click()
    dues.get_by_role("link", name="No").click()
    expect(dues.get_by_role("button", name="Take back $5.00 from Regular 1")).to_be_visible()

    assert [m for m in console if "hx-disabled-elt" in m] == [], console
