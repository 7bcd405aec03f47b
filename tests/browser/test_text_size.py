"""Bigger text on the phone pages: one tap, remembered by the phone, on before the first
paint, and the table page still fits a 320 px phone."""

import pytest
from playwright.sync_api import expect

from bunco_night.play.services import bell_ring
from tests.browser.helpers import score
from tests.browser.test_phone_fit import WIDEST
from tests.factories import make_group, make_night
from tests.play.helpers import start_night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Whether <html> has the class at the moment <body> first appears, before anything is painted.
AT_FIRST_BODY = """
new MutationObserver(function (records, observer) {
  if (!document.body) return;
  window.biggerAtBody = document.documentElement.classList.contains("text-bigger");
  observer.disconnect();
}).observe(document, { childList: true, subtree: true });
"""


def font_px(locator) -> float:
    return locator.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")


def test_bigger_text_is_remembered_by_the_phone_from_the_first_paint(contexts, live_server):
    night = make_night(make_group(regulars=8, substitutes=0), sets=1)
    start_night(night, seed=1)
    bell_ring(night=night)
    table_url = f"{live_server.url}/t/{night.tables.get(number=1).token}/"
    context = contexts(viewport={"width": 320, "height": 568}, has_touch=True)
    context.add_init_script(AT_FIRST_BODY)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(table_url)

    toggle = page.get_by_role("button", name="Bigger text")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    normal = font_px(score(page, 0))
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    assert font_px(score(page, 0)) >= normal * 1.15

    page.reload()
    assert page.evaluate("window.biggerAtBody") is True
    expect(page.get_by_role("button", name="Bigger text")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#board")).to_contain_text("BELL!")
    wide, screen = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert wide <= screen, f"{wide} px wide on a {screen} px phone: {page.evaluate(WIDEST)}"

    attendance = night.attendances.order_by("pk").first()
    page.goto(f"{live_server.url}/p/{attendance.token}/")  # the same phone, a player's page
    assert page.evaluate("window.biggerAtBody") is True
    wide, screen = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert wide <= screen, (
        f"the player's page: {wide} px wide on a {screen} px phone: {page.evaluate(WIDEST)}"
    )
    page.get_by_role("button", name="Bigger text").click()
    page.reload()
    assert page.evaluate("window.biggerAtBody") is False
    toggle = page.get_by_role("button", name="Bigger text")
    expect(toggle).to_have_attribute("aria-pressed", "false")
