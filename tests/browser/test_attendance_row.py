"""A tap on an attendance row of the host's night page, in real headless Chromium: the row
changes in place (htmx brings it alone), and the count playing and the dues totals follow
out of band; the rest of the list stays as it was."""

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import phone
from tests.factories import make_group, make_night, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_tap_on_a_row_updates_the_row_and_the_totals(contexts, live_server):
    group = make_group(user=make_user())
    night = make_night(group)
    page = phone(contexts, f"{live_server.url}/accounts/login/?next=/nights/{night.pk}/", 390, 844)
    page.get_by_label("Username").fill("host")
    page.get_by_label("Password").fill("bunco")
    page.get_by_role("button", name="Log in").click()
    ann = night.attendances.get(player__name="Regular 3")
    row, other = page.locator(f"#att-{ann.pk}"), page.locator("#att-list > li").first
    expect(page.locator("#att-count")).to_have_text("12 playing")
    # A mark on another row shows that the list was not drawn again.
    other.evaluate("li => li.dataset.untouched = 'yes'")
    row.get_by_role("button", name="Not coming (Regular 3)").click()
    expect(row.locator(".att-status")).to_have_text("Not coming, no substitute")
    expect(row.get_by_role("button", name="Not coming (Regular 3)")).to_have_attribute(
        "aria-pressed", "true"
    )
    expect(page.locator("#att-count")).to_have_text("11 playing")
    expect(page.locator("#draw-playing")).to_contain_text("11 players tonight")
    expect(page.locator(f"#dues-{ann.pk}")).to_contain_text("(not coming)")
    expect(other).to_have_attribute("data-untouched", "yes")

    page.get_by_role("button", name="Mark $5.00 paid for Regular 3", exact=True).click()
    expect(page.locator(f"#dues-{ann.pk}")).to_contain_text("✓ paid")
    row.get_by_role("button", name="Coming (Regular 3)", exact=True).click()
    expect(row.locator(".att-status")).to_have_text("Coming")
    expect(page.locator("#att-count")).to_have_text("12 playing")
    expect(page.locator(f"#dues-{ann.pk}")).not_to_contain_text("(not coming)")
    expect(page.locator(f"#dues-{ann.pk}")).to_contain_text("✓ paid")
    collected = page.locator("#dues-totals .pot dd")
    expect(collected).to_have_text("$5.00")

    # Sending a substitute: the row says who, and neither the late-arrival list nor any
    # other row's substitute picker offers them any more (the whole list is drawn again).
    row.locator("summary").click()
    row.get_by_label("Substitute for Regular 3").select_option(label="Sub 1")
    row.get_by_role("button", name="Send this substitute").click()
    expect(row.locator(".att-status")).to_contain_text("Sends a substitute: Sub 1")
    expect(page.locator("#guest option", has_text="Sub 1")).to_have_count(0)
    expect(other.locator("select[name=substitute] option", has_text="Sub 1")).to_have_count(0)
    expect(other.locator("select[name=substitute] option", has_text="Sub 2")).to_have_count(1)


def test_a_late_arrival_added_on_a_phone_appears_in_place_without_a_reload(contexts, live_server):
    """The host types a late arrival's name: their row goes in at its place in the list (in
    name order), the count and the dues follow, and the page is not loaded again."""
    group = make_group(user=make_user())
    night = make_night(group)
    page = phone(contexts, f"{live_server.url}/accounts/login/?next=/nights/{night.pk}/", 390, 844)
    page.get_by_label("Username").fill("host")
    page.get_by_label("Password").fill("bunco")
    page.get_by_role("button", name="Log in").click()
    expect(page.locator("#att-count")).to_have_text("12 playing")
    page.evaluate("window.sameLoad = 'yes'")  # gone if the page were loaded again
    first = page.locator("#att-list > li").first
    first.evaluate("li => li.dataset.untouched = 'yes'")
    page.get_by_label("Or someone new").fill("Lou Late")
    page.locator("#guest-form").get_by_role("button", name="Add").click()

    expect(page.locator("#att-list .att-name", has_text="Lou Late")).to_have_count(1)
    lou = night.attendances.get(player__name="Lou Late")  # saved: its row is on the page
    # Before "Regular 1", the first row until now: the list stays in name order.
    expect(page.locator("#att-list > li").first).to_have_id(f"att-{lou.pk}")
    expect(page.locator("#att-list > li").nth(1)).to_have_attribute("data-untouched", "yes")
    expect(page.locator("#att-list > li.att-row")).to_have_count(13)
    expect(page.locator("#att-count")).to_have_text("13 playing")
    expect(page.locator("#draw-playing")).to_contain_text("13 players tonight")
    expect(page.locator("#dues-list > li").first).to_have_id(f"dues-{lou.pk}")
    expect(page.locator(f"#dues-{lou.pk}")).to_contain_text("$5.00 due")
    expect(page.locator("#dues-totals")).to_contain_text("$65.00")
    expect(page.get_by_label("Or someone new")).to_have_value("")  # the form is ready again
    assert page.evaluate("window.sameLoad") == "yes"

    # The new row works as any other: paying from the new dues line, and removing them.
    page.get_by_role("button", name="Mark $5.00 paid for Lou Late", exact=True).click()
    expect(page.locator(f"#dues-{lou.pk}")).to_contain_text("✓ paid")
    # A refusal says why, in the form.
    page.get_by_label("Or someone new").fill("regular 3")
    page.locator("#guest-form").get_by_role("button", name="Add").click()
    expect(page.locator("#guest-error")).to_contain_text("already on the roster")
    expect(page.locator("#att-count")).to_have_text("13 playing")
    assert page.evaluate("window.sameLoad") == "yes"
