"""A host reads a night's history on a phone, and is asked before a payment changes the
money of a finished night, in real headless Chromium (docs/rules.md sections 6.6 and
7.9). Pages are photographed into helpers.SHOTS."""

import pytest
from playwright.sync_api import expect

from bunco_night.nights.models import MoneyRecord, Payment
from bunco_night.nights.services import payment_record
from bunco_night.play.services import night_finish
from tests.browser.helpers import SHOTS, fits, host_phone
from tests.factories import make_group, make_night, make_user
from tests.play.helpers import play_round, start_night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def finished_night():
    group = make_group(user=make_user(), name="Maple Street Bunco")
    night = make_night(group, sets=1)
    for a in night.attendances.select_related("player"):
        if a.player.name != "Regular 1":
            payment_record(attendance=a, amount_cents=500)
    start_night(night)
    play_round(night)
    night_finish(night=night)
    return night


def test_a_payment_on_a_finished_night_asks_in_its_dues_line_then_the_history_says_so(
    contexts, live_server
):
    night = finished_night()
    regular = night.attendances.get(player__name="Regular 1")
    page = host_phone(contexts, live_server, f"/nights/{night.pk}/#dues-{regular.pk}", 360, 740)
    row = page.locator(f"#dues-{regular.pk}")
    row.get_by_role("button", name="Mark $5.00 paid").click()

    question = row.get_by_role("alertdialog")
    expect(question).to_contain_text("Change the prize money of a night that is over?")
    expect(question).to_contain_text("$55.00")
    expect(question).to_contain_text("$60.00")
    assert fits(page)
    SHOTS.mkdir(exist_ok=True)
    question.scroll_into_view_if_needed()
    page.screenshot(path=SHOTS / "money-question-360.png")
    assert not Payment.objects.filter(attendance=regular).exists()

    question.get_by_role("button", name="Yes, change the night's money").click()

    expect(row.get_by_role("alertdialog")).to_have_count(0)
    expect(row).to_contain_text("paid $5.00")
    assert MoneyRecord.objects.get(night=night).pot_cents == 6000

    page.reload()
    page.locator("#history summary").click()
    items = page.locator(".history-list li")
    expect(items).to_have_count(2)
    expect(items.first).to_contain_text("Changed the night's money after it ended")
    expect(items.nth(1)).to_contain_text("Marked $5.00 paid for Regular 1")
    expect(items.nth(1)).to_contain_text("host")
    assert fits(page)
    page.locator("#history").scroll_into_view_if_needed()
    page.screenshot(path=SHOTS / "night-history-360.png")


def test_no_keeps_the_night_s_money_as_it_was(contexts, live_server):
    night = finished_night()
    regular = night.attendances.get(player__name="Regular 1")
    page = host_phone(contexts, live_server, f"/nights/{night.pk}/#dues-{regular.pk}", 390, 844)
    row = page.locator(f"#dues-{regular.pk}")
    row.get_by_role("button", name="Mark $5.00 paid").click()
    row.get_by_role("link", name="No, keep it as it is").click()
    expect(row.get_by_role("alertdialog")).to_have_count(0)
    expect(row.get_by_role("button", name="Mark $5.00 paid")).to_be_visible()
    assert not Payment.objects.filter(attendance=regular).exists()
    assert MoneyRecord.objects.get(night=night).pot_cents == 5500
