"""A phone whose browser refuses the page any storage (some private windows, a full
quota), in real headless Chromium: taps are still sent and counted, and the page keeps
working, from this page's memory."""

import pytest
from playwright.sync_api import expect

from bunco_night.play.models import Entry
from tests.browser.helpers import score, tap
from tests.factories import make_group, make_night
from tests.play.helpers import start_night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

REFUSE_STORAGE = """
for (const name of ["localStorage", "sessionStorage"]) {
  Object.defineProperty(window, name, {
    configurable: true,
    get() { throw new DOMException("The page may not use storage.", "SecurityError"); },
  });
}
"""


def test_taps_are_sent_and_counted_when_storage_is_refused(contexts, live_server):
    night = make_night(make_group(regulars=12, substitutes=0), sets=1)
    start_night(night, seed=3)
    t2 = night.tables.get(number=2)
    context = contexts(
        viewport={"width": 390, "height": 844}, has_touch=True, service_workers="block"
    )
    context.add_init_script(REFUSE_STORAGE)
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{live_server.url}/t/{t2.token}/")
    assert page.evaluate(
        "(() => { try { localStorage; return false } catch (e) { return true } })()"
    )
    tap(page, 1, "points:2")
    expect(score(page, 0)).to_have_text("2")
    tap(page, 2, "points:1")
    expect(score(page, 1)).to_have_text("1")
    expect(page.locator("#recent li")).to_have_count(2)
    assert Entry.objects.filter(table=t2).count() == 2
    assert errors == []
