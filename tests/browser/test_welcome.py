"""The welcome page and the host's login in a real headless Chromium."""

import pytest
from django.contrib.auth import get_user_model

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_host_logs_in_on_a_phone(page, live_server):
    get_user_model().objects.create_user("host", password="bunco")
    page.goto(live_server.url)
    assert page.locator("h1").inner_text() == "Bunco Night"
    page.get_by_role("link", name="Host log in").first.click()
    page.get_by_label("Username").fill("host")
    page.get_by_label("Password").fill("wrong")
    page.get_by_role("button", name="Log in").click()
    assert page.get_by_role("alert").is_visible()
    page.get_by_label("Password").fill("bunco")
    page.get_by_role("button", name="Log in").click()
    # A host with no group yet lands on the list of groups, where they can start one.
    page.wait_for_url(f"{live_server.url}/groups/")
    assert page.locator(".who").inner_text() == "host"
