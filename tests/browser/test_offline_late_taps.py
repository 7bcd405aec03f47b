"""Taps a phone kept while offline that reach the server after the host closed their round
(docs/rules.md section 3.5): set aside for the host, and the phone says so in one message
that counts them, never over where to sit next. Pages are photographed into helpers.SHOTS."""

import pytest
from playwright.sync_api import expect

from bunco_night.play.models import Entry
from tests.browser.helpers import SHOTS, host_page, phone, tap, until
from tests.factories import make_group, make_night
from tests.play.helpers import play_round, start_night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


# The where-to-sit lines on the first screen, and those the message lies over.
COVERED = """() => {
  const toast = document.querySelector('.toast').getBoundingClientRect();
  const lines = [...document.querySelectorAll('#board .moves li')].map(li => [
    li.textContent.trim().replace(/\\s+/g, ' '), li.getBoundingClientRect()]);
  const seen = lines.filter(([, r]) => r.top < innerHeight && r.bottom > 0);
  return [lines.length, seen.filter(([, r]) => r.bottom <= innerHeight).map(([t]) => t),
          seen.filter(([, r]) => r.bottom > toast.top && r.top < toast.bottom &&
                                 r.right > toast.left && r.left < toast.right).map(([t]) => t)];
}"""


@pytest.mark.parametrize("text", ["normal", "bigger"])
@pytest.mark.parametrize("width,height", [(360, 640), (390, 844)])
def test_taps_that_arrive_after_the_round_closed_are_counted_clear_of_where_to_sit(
    contexts, live_server, width, height, text
):
    night = make_night(make_group(regulars=12, substitutes=0), sets=1)
    start_night(night, seed=3)
    table = night.tables.get(number=3)
    page = phone(contexts, f"{live_server.url}/t/{table.token}/", width=width, height=height)
    if text == "bigger":
        page.get_by_role("button", name="Bigger text").click()
        page.reload()
    page.context.set_offline(True)
    until(page, "navigator.onLine === false", "the page does not know it is offline")
    tap(page, 1, "points:1")
    tap(page, 2, "points:2")
    expect(page.locator("#offline")).to_contain_text("2 taps wait on this phone")
    play_round(night)  # the other phones play it out, and the host closes it
    page.context.set_offline(False)
    toast = page.locator(".toast")
    expect(toast).to_contain_text(
        "These 2 taps arrived after the round ended here: the host will decide."
    )
    expect(page.locator("#board")).to_contain_text("Where to sit next")
    expect(page.locator(".late-notice")).to_contain_text("2 taps arrived after the round ended")
    page.evaluate("window.scrollTo(0, 0)")
    count, whole, covered = page.evaluate(COVERED)
    page.screenshot(path=SHOTS / f"late-taps-{width}x{height}-{text}.png")
    assert count == 4
    assert whole, f"no line of where to sit next on the first screen, {text} text"
    assert covered == [], f"the message lies over {covered}"


def test_the_host_sees_when_a_late_tap_was_tapped_as_well_as_when_it_arrived(contexts, live_server):
    """A tap made offline before the round closed and sent a minute and a half later:
    the host's list of late entries says when it was tapped, by the phone's count of its
    wait, and when it arrived (docs/rules.md section 3.5)."""
    night = make_night(make_group(regulars=12, substitutes=0), sets=1)
    start_night(night, seed=3)
    table = night.tables.get(number=3)
    page = phone(contexts, f"{live_server.url}/t/{table.token}/", width=360, height=740)
    page.clock.install()
    page.context.set_offline(True)
    until(page, "navigator.onLine === false", "the page does not know it is offline")
    tap(page, 1, "points:1")
    expect(page.locator("#offline")).to_contain_text("1 tap waits on this phone")
    page.clock.fast_forward(90_000)  # the phone's own time: a minute and a half offline
    play_round(night)
    page.context.set_offline(False)
    expect(page.locator(".late-notice")).to_contain_text("1 tap arrived after the round ended")
    (late,) = Entry.objects.filter(table=table, late_at__isnull=False)
    waited = (late.late_at - late.tapped_at).total_seconds()
    assert 85 <= waited <= 120, waited
    host = host_page(contexts, live_server, night, path=f"/nights/{night.pk}/live/")
    item = host.locator(".late-list li")
    expect(item).to_contain_text("tapped ")
    expect(item).to_contain_text(", arrived ")
