"""A host's button that fails says so, in real headless Chromium: a tab left on a night
deleted in another tab, a tap while offline, and the live board's polls while offline.
Pages are photographed into helpers.SHOTS."""

import datetime as dt

import pytest
from playwright.sync_api import expect

from bunco_night.nights.services import night_delete
from tests.browser.helpers import SHOTS, fits, host_page, phone
from tests.factories import make_group, make_night, make_user
from tests.play.helpers import start_night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_host_tab_left_on_a_deleted_night_says_its_buttons_fail(contexts, live_server):
    """Another tab deleted the night; this one still shows it. A tap on Mark paid says the
    night is no longer there. Offline, a tap says it was not saved."""
    group = make_group(user=make_user())
    night = make_night(group)
    other = make_night(group, date=dt.date(2027, 1, 2))
    page = phone(contexts, f"{live_server.url}/accounts/login/?next=/nights/{other.pk}/", 360, 740)
    page.get_by_label("Username").fill("host")
    page.get_by_label("Password").fill("bunco")
    page.get_by_role("button", name="Log in").click()
    alert = page.locator(".host-alert")
    said = alert.locator(".host-alert-text")

    page.context.set_offline(True)
    page.get_by_role("button", name="Mark $5.00 paid for Regular 1", exact=True).click()
    expect(said).to_have_text(
        "No connection: that was not saved. Try again once you are back online."
    )
    page.context.set_offline(False)
    page.get_by_role("button", name="Mark $5.00 paid for Regular 1", exact=True).click()
    regular = other.attendances.get(player__name="Regular 1")
    expect(page.locator(f"#dues-{regular.pk}")).to_contain_text("✓ paid")
    expect(alert).to_be_hidden()

    page.goto(f"{live_server.url}/nights/{night.pk}/")
    night_delete(night=night)
    page.get_by_role("button", name="Mark $5.00 paid for Regular 1", exact=True).click()
    expect(said).to_contain_text("That is no longer there")
    page.screenshot(path=SHOTS / "night-deleted-host-tab-phone.png")
    assert fits(page)
    alert.click()
    expect(alert).to_be_hidden()

    page.get_by_role("button", name="Mark $5.00 paid for Regular 1", exact=True).click()
    expect(alert).to_be_visible()
    close = page.get_by_role("button", name="Close this message")
    close.focus()  # a keyboard reaches it
    page.keyboard.press("Enter")
    expect(alert).to_be_hidden()
    page.get_by_role("button", name="Mark $5.00 paid for Regular 1", exact=True).click()
    expect(alert).to_be_visible()
    page.keyboard.press("Escape")
    expect(alert).to_be_hidden()


def test_the_live_board_says_when_it_is_not_up_to_date(contexts, live_server):
    night = make_night(make_group(user=make_user()))
    start_night(night)
    page = host_page(contexts, live_server, night)
    alert = page.locator(".host-alert")
    said = alert.locator(".host-alert-text")
    page.context.set_offline(True)
    expect(said).to_have_text(
        "No connection: this page is not up to date until you are back online.", timeout=10_000
    )
    page.context.set_offline(False)
    expect(alert).to_be_hidden(timeout=10_000)
