"""The room screen on a TV across a living room: the whole seating of up to 12 tables on
one screen without scrolling, pages that turn by themselves beyond that, and text at a
contrast of 7:1 or better."""

import pytest
from playwright.sync_api import expect

from bunco_night.nights.services import payment_record
from bunco_night.play.services import round_start
from tests.browser.helpers import host_page
from tests.factories import make_group, make_night
from tests.play.helpers import play_round, start_night, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The WCAG contrast ratio of every element that shows text, against the first opaque
# background behind it; returns the lowest ratios found.
LOWEST_CONTRAST = """
() => {
  function rgb(s) { const m = s.match(/[\\d.]+/g).map(Number); return m; }
  function lum([r, g, b]) {
    const c = [r, g, b].map(v => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  }
  function background(el) {
    for (let e = el; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c.length < 4 || c[3] > 0.5) return c.slice(0, 3);
    }
    return [255, 255, 255];
  }
  const out = [];
  for (const el of document.querySelectorAll("#screen *")) {
    const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (!own || !el.offsetParent) continue;
    const fg = lum(rgb(getComputedStyle(el).color)), bg = lum(background(el));
    const ratio = (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
    out.push([Math.round(ratio * 10) / 10, el.textContent.trim().slice(0, 30)]);
  }
  return out.sort((a, b) => a[0] - b[0]).slice(0, 3);
}
"""


def fits(page) -> bool:
    size = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.scrollHeight,"
        " innerWidth, innerHeight]"
    )
    return size[0] <= size[2] and size[1] <= size[3]


@pytest.mark.parametrize("viewport", [(1920, 1080), (1280, 720)])
def test_twelve_tables_fit_one_screen_and_read_from_across_the_room(
    contexts, live_server, viewport
):
    night = make_night(make_group(regulars=48, substitutes=0), sets=1)
    start_night(night, seed=4)
    play_round(night)  # round 1 closed: the screen shows where everyone sits for round 2
    tv = host_page(contexts, live_server, night, path=f"/nights/{night.pk}/room/")
    tv.set_viewport_size({"width": viewport[0], "height": viewport[1]})
    expect(tv.locator(".room-table")).to_have_count(12)
    expect(tv.locator("#screen")).to_contain_text("Round 2: where to sit")
    assert fits(tv)
    lowest = tv.evaluate(LOWEST_CONTRAST)
    assert lowest[0][0] >= 7, lowest


def test_more_than_twelve_tables_turn_pages_by_themselves(contexts, live_server):
    night = make_night(make_group(regulars=60, substitutes=0), sets=1)
    rnd = start_night(night, seed=4)
    tap(rnd.seats.get(table__number=13, number=1).table, 1, "points", 2)
    tv = host_page(contexts, live_server, night, path=f"/nights/{night.pk}/room/")
    tv.set_viewport_size({"width": 1280, "height": 720})
    first, second = tv.locator("[data-room-page='1']"), tv.locator("[data-room-page='2']")
    expect(first).to_be_visible()
    expect(second).to_be_hidden()
    assert fits(tv)
    expect(second).to_be_visible(timeout=12_000)  # the page turns after a few seconds
    expect(second.locator(".room-table")).to_have_count(3)
    expect(second).to_contain_text("Table 13")
    assert tv.evaluate(LOWEST_CONTRAST)[0][0] >= 7


@pytest.mark.parametrize("viewport", [(1920, 1080), (1280, 720)])
def test_a_round_in_play_with_standings_and_prizes_fits_one_screen(contexts, live_server, viewport):
    """Round 3 of a paid-up night: twelve tables' scores beside the standings, the bunco
    facts, the prizes (each amount on its title's line), the money left over and the set's
    leaders, all on one screen."""
    night = make_night(make_group(regulars=48, substitutes=0), sets=1)
    for a in night.attendances.all():
        payment_record(attendance=a, amount_cents=500)
    start_night(night, seed=4)
    for _ in range(2):
        play_round(night)
        round_start(night=night)
    tap(night.current_round.seats.get(table__number=3, number=1).table, 1, "bunco")
    tv = host_page(contexts, live_server, night, path=f"/nights/{night.pk}/room/")
    tv.set_viewport_size({"width": viewport[0], "height": viewport[1]})
    expect(tv.locator(".room-table")).to_have_count(12)
    expect(tv.locator(".prize-list")).to_contain_text("Last bunco of the night")
    expect(tv.locator(".set-winners")).to_contain_text("Set 1 leaders")
    assert fits(tv)
    for prize in tv.locator(".prize-list li").all():
        title, amount = prize.locator(".prize-title"), prize.locator(".prize-amount")
        assert abs(title.bounding_box()["y"] - amount.bounding_box()["y"]) < 4, prize.inner_text()
    assert tv.evaluate(LOWEST_CONTRAST)[0][0] >= 7
