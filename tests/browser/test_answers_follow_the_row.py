"""The host marks a regular "Not coming" on the night page: the players' answers panel
follows at once (htmx, with the row), and no longer lists her as "No answer yet (down as
coming)"; the panel's poll does not bring the other sections again for it."""

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import host_phone
from tests.factories import make_night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_not_coming_takes_her_off_the_no_answer_list_at_once(contexts, live_server, group):
    night = make_night(group)
    page = host_phone(contexts, live_server, f"/nights/{night.pk}/", width=390, height=844)
    quiet = page.locator("#answers .quiet")
    expect(quiet).to_contain_text("Regular 3,")
    ann = night.attendances.get(player__name="Regular 3")
    row = page.locator(f"#att-{ann.pk}")
    # A mark on the attendance list shows that the list was not drawn again.
    page.locator("#att-list").evaluate("ul => ul.dataset.untouched = 'yes'")
    row.get_by_role("button", name="Not coming (Regular 3)").click()
    expect(row.locator(".att-status")).to_have_text("Not coming, no substitute")
    answer = page.locator(f"#answer-{ann.pk}")
    expect(answer).to_contain_text("Regular 3 · not coming", timeout=3000)
    expect(quiet).not_to_contain_text("Regular 3,", timeout=3000)
    expect(page.locator("#att-list")).to_have_attribute("data-untouched", "yes")
