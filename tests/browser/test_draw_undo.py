"""A first "Draw seating" tapped by mistake, taken back on a phone in real headless
Chromium (docs/rules.md section 4.4): the night page is as it was before the draw, and the
live board has no seating. Pages are photographed into helpers.SHOTS.
"""

import pytest
from playwright.sync_api import expect

from bunco_night.nights.models import Night
from tests.browser.helpers import SHOTS, fits, phone
from tests.factories import make_group, make_night, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_first_draw_can_be_taken_back(contexts, live_server):
    night = make_night(make_group(user=make_user()))
    page = phone(contexts, f"{live_server.url}/accounts/login/?next=/nights/{night.pk}/")
    page.get_by_label("Username").fill("host")
    page.get_by_label("Password").fill("bunco")
    page.get_by_role("button", name="Log in").click()
    seating = page.locator("#seating")

    seating.get_by_role("button", name="Draw seating").click()
    expect(seating.locator(".table-card")).to_have_count(3)
    undo = seating.get_by_role("button", name="Undo the draw: back to no seating")
    expect(undo).to_be_visible()
    SHOTS.mkdir(parents=True, exist_ok=True)
    undo.scroll_into_view_if_needed()
    page.screenshot(path=SHOTS / "first-draw-undo-phone.png")
    assert fits(page)

    undo.click()
    expect(seating.locator(".table-card")).to_have_count(0)
    expect(seating.get_by_role("button", name="Draw seating")).to_be_visible()
    expect(seating.get_by_role("button", name=r"Undo the draw")).to_have_count(0)
    expect(seating).not_to_contain_text("draw the seating again")
    assert not Night.objects.get(pk=night.pk).rounds.exists()
    page.goto(f"{live_server.url}/nights/{night.pk}/live/")
    expect(page.locator(".round-line")).to_have_text("No seating yet.")
