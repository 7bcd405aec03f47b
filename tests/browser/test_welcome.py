"""The welcome page and the host's login in a real headless Chromium."""

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_host_logs_in_on_a_phone(page, live_server):
    get_user_model().objects.create_user("host", password="bunco")
    page.goto(live_server.url)
    assert page.locator("h1").inner_text() == "Bunco Night"
    page.get_by_role("link", name="Host log in").first.click()
    page.get_by_label("Username").fill("host")
    page.get_by_label("Password").fill("wrong")
    page.get_by_role("button", name="Log in").click()
    # The refusal is a new page: wait for it, not for the old form still on screen.
    expect(page.get_by_role("alert")).to_be_visible()
    expect(page.get_by_role("alert")).to_contain_text("username and password")
    page.get_by_label("Password").fill("bunco")
    page.get_by_role("button", name="Log in").click()
    # A host with no group yet lands on the list of groups, where they can start one.
    page.wait_for_url(f"{live_server.url}/groups/")
    assert page.locator(".who").inner_text() == "host"
