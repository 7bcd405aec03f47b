"""A rules form refused on a phone (360 x 740) says so on the first screen the page lands
on: "Nothing was saved", with a link that takes the host to the field in error, far below."""

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import host_phone

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_bad_target_is_told_on_the_first_screen_and_linked(contexts, live_server, group):
    page = host_phone(contexts, live_server, f"/groups/{group.slug}/rules/", width=360, height=740)
    page.fill("#id_target_teams", "-3")
    page.get_by_role("button", name="Save rules").click()
    summary = page.locator(".error-summary")
    expect(summary).to_contain_text("Nothing was saved: fix the field marked below.")
    expect(summary).to_be_in_viewport()
    field = page.locator("#id_target_teams")
    expect(field).not_to_be_in_viewport()  # the tester's case: the field is far below
    summary.get_by_role("link").click()
    expect(field).to_be_in_viewport()
    error = page.locator(".field.has-errors .errorlist").first
    expect(error).to_contain_text("A target is at least 1.")
    expect(error).to_be_in_viewport()
