"""A host deletes a night planned by mistake, on a small phone, in real headless Chromium.

The night page's Edit link, the question first (No keeps the night), then Yes: the group
page says so and lists only the other night; a night with dues taken says why it
cannot go and links to its dues. A table phone left open on a deleted night is told its
link no longer works. Pages are photographed into helpers.SHOTS.
"""

import datetime as dt

import pytest
from playwright.sync_api import expect

from bunco_night.nights.models import Night
from bunco_night.nights.services import night_delete, payment_record, seating_draw
from tests.browser.helpers import SHOTS, fits, phone
from tests.factories import make_group, make_night, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_host_deletes_a_night_planned_by_mistake(contexts, live_server):
    group = make_group(user=make_user())
    kept = make_night(group, date=dt.date(2026, 12, 5))
    mistake = make_night(group, date=dt.date(2026, 12, 12))
    page = phone(
        contexts, f"{live_server.url}/accounts/login/?next=/nights/{mistake.pk}/", 360, 740
    )
    page.get_by_label("Username").fill("host")
    page.get_by_label("Password").fill("bunco")
    page.get_by_role("button", name="Log in").click()
    page.locator("summary", has_text="More").click()  # the night's other pages
    page.get_by_role("link", name="Edit night").click()

    # A first tap only asks; No keeps the night.
    page.get_by_role("button", name="Delete this night").click()
    question = page.get_by_role("alertdialog")
    expect(question).to_contain_text("Delete the night of Saturday, December 12?")
    expect(question).to_contain_text("Its list of 12 players")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SHOTS / "night-delete-question-phone.png", full_page=True)
    assert fits(page)
    question.get_by_role("link", name="No, keep it").click()
    expect(page.get_by_role("heading", name="Change the night")).to_be_visible()
    expect(page.get_by_role("alertdialog")).to_have_count(0)
    assert Night.objects.filter(pk=mistake.pk).exists()

    page.get_by_role("button", name="Delete this night").click()
    page.get_by_role("alertdialog").get_by_role("button", name="Yes, delete it").click()
    expect(page.locator(".messages")).to_contain_text(
        "The night of Saturday, December 12 is deleted."
    )
    expect(page.get_by_role("heading", level=1)).to_have_text(group.name)
    expect(page.get_by_role("link", name="Saturday, December 5")).to_be_visible()
    expect(page.get_by_role("link", name="Saturday, December 12")).to_have_count(0)
    page.screenshot(path=SHOTS / "night-deleted-group-phone.png", full_page=True)
    assert fits(page)
    assert list(Night.objects.all()) == [kept]

    # A night with dues taken says why it cannot go, and where the payments are.
    payment_record(attendance=kept.attendances.first(), amount_cents=500)
    page.goto(f"{live_server.url}/nights/{kept.pk}/edit/")
    expect(page.get_by_text("take those payments back first")).to_be_visible()
    expect(page.get_by_role("button", name="Delete this night")).to_have_count(0)
    page.get_by_role("link", name="The night's dues").click()
    expect(page.locator("#dues")).to_be_in_viewport()
    page.screenshot(path=SHOTS / "night-delete-refused-phone.png")


def test_a_table_phone_open_on_a_deleted_night_is_told_its_link_no_longer_works(
    contexts, live_server
):
    night = make_night(make_group(user=make_user()))
    seating_draw(night=night, seed=1)
    table = night.tables.order_by("number").first()
    page = phone(contexts, f"{live_server.url}/t/{table.token}/", 360, 740)
    expect(page.locator("#board")).to_contain_text("Waiting for the host")
    notice = page.locator("#offline")
    expect(notice).to_be_hidden()

    night_delete(night=night)
    # The board's next poll (every 2 s) is answered "not found".
    expect(notice).to_contain_text("This link no longer works", timeout=10_000)
    expect(notice).to_contain_text("or called the night off. Ask the host.")
    page.screenshot(path=SHOTS / "night-deleted-table-phone.png")
    assert fits(page)
