"""The table phone's message on a keyboard: Escape or its Close button closes it, and it
never takes the focus from the button that was pressed, nor covers it (docs/rules.md
section 3.1: Done is refused until everyone has rolled, and the message says why)."""

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import SHOTS, phone
from tests.browser.test_table_phone import (
    bell_rung_before_anyone_rolled_at,
    check_uncovered,
    scroll_to_put,
)
from tests.factories import make_group, make_night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FOCUSED = (
    "document.activeElement.getAttribute('aria-label') || document.activeElement.textContent.trim()"
)


@pytest.mark.parametrize("width,height", [(390, 844), (320, 568)])
def test_a_keyboard_closes_the_message_and_keeps_its_place(contexts, live_server, width, height):
    night = make_night(make_group(regulars=12, substitutes=0), sets=1)
    table = bell_rung_before_anyone_rolled_at(night, 2)
    page = phone(contexts, f"{live_server.url}/t/{table.token}/", width=width, height=height)
    done = page.get_by_role("button", name="Done ✔")
    toast = page.locator(".toast")
    close = page.get_by_role("button", name="Close this message")
    for where in ("bottom", "top"):
        scroll_to_put(page, done, where)
        done.focus()
        page.keyboard.press("Enter")  # Done refused: the message says why
        check_uncovered(page, done)
        expect(done).to_be_focused()  # the message did not take the focus
        box, cross = toast.bounding_box(), close.bounding_box()
        assert cross["width"] >= 44 and cross["height"] >= 44, cross
        assert box["x"] <= cross["x"] and cross["x"] + cross["width"] <= box["x"] + box["width"]
        page.screenshot(path=SHOTS / f"toast-{width}-{where}.png")
        page.keyboard.press("Escape")
        expect(toast).to_have_count(0)
        expect(done).to_be_focused()
    # Its Close button is in the keyboard's way through the page, and gives the focus
    # back to where it came from.
    done.focus()
    page.keyboard.press("Enter")
    expect(toast).to_contain_text("Everyone rolls at least once")
    before = None
    for _ in range(60):
        if page.evaluate("!!document.activeElement.closest('.toast')"):
            break
        before = page.evaluate(FOCUSED)
        page.keyboard.press("Tab")
    expect(close).to_be_focused()
    page.keyboard.press("Enter")
    expect(toast).to_have_count(0)
    assert page.evaluate(FOCUSED) == before
