"""Taps a phone kept while offline that reach the server after the host closed their round
(docs/rules.md section 3.5): set aside for the host, and the phone says so in one message
that counts them, never over where to sit next. Pages are photographed into /tmp/shots/."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import phone, tap, until
from tests.factories import make_group, make_night
from tests.play.helpers import play_round, start_night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/shots")

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
