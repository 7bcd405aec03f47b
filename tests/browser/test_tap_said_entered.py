"""A tap that was entered, or waits on the phone, is never said "not entered"
(docs/rules.md section 2.3): a player told a tap was lost taps again, one roll too many."""

import pytest
from playwright.sync_api import expect

from bunco_night.play.models import Entry
from tests.browser.helpers import next_round_held, phone, until
from tests.factories import make_group, make_night
from tests.play.helpers import play_round, start_night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SETTLED = "!document.querySelector('#board [data-settling], #controls [data-settling]')"


def finger(page, locator):
    """A finger's tap (touch, not a mouse) at the middle of ``locator``."""
    box = locator.bounding_box()
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


@pytest.mark.parametrize(
    "width,height,online", [(360, 740, False), (360, 640, False), (360, 640, True)]
)
def test_two_finger_taps_both_entered_say_nothing_was_lost(
    contexts, live_server, width, height, online
):
    night = make_night(make_group(regulars=12, substitutes=0), sets=1)
    start_night(night, seed=3)
    table = night.tables.get(number=2)
    page = phone(contexts, f"{live_server.url}/t/{table.token}/", width=width, height=height)
    expect(page.locator("#taps button[value='points:1']")).to_be_visible()
    until(page, SETTLED, "the buttons never settled")
    # Every message shown is kept: one gone after its six seconds still counts.
    page.evaluate(
        """() => { window.saidToasts = [];
             new MutationObserver(() => document.querySelectorAll('.toast').forEach(t => {
               if (!window.saidToasts.includes(t)) window.saidToasts.push(t);
             })).observe(document.body, {childList: true, subtree: true}); }"""
    )
    if not online:
        page.context.set_offline(True)
        until(page, "navigator.onLine === false", "the page does not know it is offline")
    finger(page, page.locator("label.chip:has(input[value='1'])"))
    finger(page, page.locator("#taps button[value='points:1']"))
    if online:
        expect(page.locator("#recent .recent li")).to_have_count(1)
    else:
        expect(page.locator("#offline")).to_contain_text("1 tap waits on this phone")
    until(page, SETTLED, "the buttons never settled")
    finger(page, page.locator("#taps button[value='points:2']"))
    if online:
        expect(page.locator("#recent .recent li")).to_have_count(2)
    else:
        expect(page.locator("#offline")).to_contain_text("2 taps wait on this phone")
        page.context.set_offline(False)
    until(
        page,
        f"['[]', null].includes(localStorage.getItem('bunco-queue-{table.token}'))",
        "the taps never left the phone",
    )
    assert Entry.objects.filter(table=table).count() == 2
    said = page.evaluate("() => window.saidToasts.map(t => t.textContent)")
    assert said == []


COVERED = """() => {
  const t = document.querySelector('.toast').getBoundingClientRect();
  return [...document.querySelectorAll('#taps button, #taps label, [data-testid^=score-]')]
    .filter(el => {
      const r = el.getBoundingClientRect();
      return r.width && r.top < t.bottom && r.bottom > t.top && r.left < t.right
        && r.right > t.left;
    }).map(el => el.textContent.trim());
}"""


@pytest.mark.parametrize("width,height", [(360, 640), (360, 740), (390, 844)])
def test_both_taps_of_a_double_tap_refused_are_counted_and_cover_no_control(
    contexts, live_server, width, height
):
    night = make_night(make_group(regulars=12, substitutes=0), sets=1)
    start_night(night, seed=3)
    table = night.tables.get(number=2)
    play_round(night)
    page = phone(contexts, f"{live_server.url}/t/{table.token}/", width=width, height=height)
    expect(page.locator("#board")).to_contain_text("Round 1 is over")
    next_round_held(page, night)
    box = page.locator("#taps button[value='points:1']").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.touchscreen.tap(x, y)
    page.touchscreen.tap(x, y)  # both while the buttons settle: neither entered
    expect(page.locator(".toast")).to_have_text(
        "The screen moved: those 2 taps were not entered. Look, then tap again."
    )
    assert not Entry.objects.filter(table=table, round__number=2).exists()
    # It lies over none of the scores, names or buttons the players tap next.
    assert page.evaluate(COVERED) == []
