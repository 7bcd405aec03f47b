"""The room screen on a TV across a living room: the whole seating of up to 12 tables on
one screen without scrolling, even pages that turn by themselves beyond that (every page
shown, and the screen scrolling, without scripts), and text at a contrast of 7:1 or
better."""

import pytest
from playwright.sync_api import expect

from bunco_night.nights.selectors import current_round
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


# How many lines an element's text takes.
LINES = """e => {
  const range = document.createRange();
  range.selectNodeContents(e);
  return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size;
}"""


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


# The pages of the screen: for each, whether it is hidden, its tables, and whether each
# of them shows.
PAGES = """() => [...document.querySelectorAll('[data-page]')].map(p => ({
  number: Number(p.dataset.page), hidden: p.hidden,
  note: (p.querySelector('.room-note') || {}).textContent || '',
  tables: [...p.querySelectorAll('.room-table h3')].map(h => [
    h.textContent.replace(' \u2714', '').trim(), !!h.offsetParent])
}))"""


def test_thirteen_tables_come_in_two_even_pages_that_turn_by_themselves(contexts, live_server):
    """13 tables: pages of 7 and 6 (not 12 and 1), each saying "Page N of 2", one shown at a
    time, turning by themselves."""
    night = make_night(make_group(regulars=52, substitutes=0), sets=1)
    start_night(night, seed=4)
    play_round(night)  # the screen shows where everyone sits for round 2
    tv = host_page(contexts, live_server, night, path=f"/nights/{night.pk}/room/")
    tv.set_viewport_size({"width": 1280, "height": 720})
    first, second = tv.locator("[data-page='1']"), tv.locator("[data-page='2']")
    expect(first).to_be_visible()
    expect(second).to_be_hidden()
    pages = tv.evaluate(PAGES)
    assert [len(p["tables"]) for p in pages] == [7, 6]
    assert [p["hidden"] for p in pages] == [False, True]
    assert [t for p in pages for t, _ in p["tables"]] == [
        f"Table {n}" + (" · head" if n == 1 else "") for n in range(1, 14)
    ]
    assert "Page 1 of 2" in pages[0]["note"] and "Page 2 of 2" in pages[1]["note"]
    assert fits(tv)
    expect(second).to_be_visible(timeout=12_000)  # the page turns after a few seconds
    expect(first).to_be_hidden()
    expect(second).to_contain_text("Table 13")
    assert fits(tv)
    assert tv.evaluate(LOWEST_CONTRAST)[0][0] >= 7


def test_a_score_the_poll_brings_stays_on_its_page(contexts, live_server):
    """A round in play on 13 tables: a tap at table 13 (page 2) and one at table 1 (page 1)
    reach the screen by its poll, each table swapped in on its own page and shown only
    with it."""
    night = make_night(make_group(regulars=52, substitutes=0), sets=1)
    rnd = start_night(night, seed=4)
    tv = host_page(contexts, live_server, night, path=f"/nights/{night.pk}/room/")
    tv.set_viewport_size({"width": 1280, "height": 720})
    expect(tv.locator("[data-page='1']")).to_be_visible()
    tap(rnd.seats.get(table__number=13, number=1).table, 1, "points", 2)
    tap(rnd.seats.get(table__number=1, number=1).table, 1, "points", 1)
    expect(tv.locator("#room-table-13 .room-scores b")).to_have_text(["2", "0"])
    expect(tv.locator("#room-table-1 .room-scores b")).to_have_text(["1", "0"])
    seen = set()
    for _ in range(2):  # whichever page shows now, then the other
        pages = tv.evaluate(PAGES)
        assert [len(p["tables"]) for p in pages] == [7, 6]
        assert [t for p in pages for t, _ in p["tables"]] == [
            f"Table {n}" + (" · head" if n == 1 else "") for n in range(1, 14)
        ]
        assert sum(not p["hidden"] for p in pages) == 1, pages
        for p in pages:
            assert all(shows == (not p["hidden"]) for _, shows in p["tables"]), p
        shown = next(p["number"] for p in pages if not p["hidden"])
        seen.add(shown)
        assert fits(tv)
        other = 3 - shown
        expect(tv.locator(f"[data-page='{other}']")).to_be_visible(timeout=12_000)
    assert seen == {1, 2}
    expect(tv.locator("[data-page='2'] #room-table-13 .room-scores b")).to_have_text(["2", "0"])
    expect(tv.locator("[data-page='1'] #room-table-1 .room-scores b")).to_have_text(["1", "0"])


def test_without_scripts_every_page_shows(contexts, live_server):
    """A TV that runs no scripts shows every table, page after page, and scrolls."""
    night = make_night(make_group(regulars=52, substitutes=0), sets=1)
    start_night(night, seed=4)
    play_round(night)
    tv = host_page(contexts, live_server, night, path=f"/nights/{night.pk}/room/", scripts=False)
    tv.set_viewport_size({"width": 1280, "height": 720})
    pages = tv.evaluate(PAGES)
    assert [p["hidden"] for p in pages] == [False, False]
    assert all(shows for p in pages for _, shows in p["tables"])
    assert len([t for p in pages for t in p["tables"]]) == 13


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
    tap(current_round(night).seats.get(table__number=3, number=1).table, 1, "bunco")
    tv = host_page(contexts, live_server, night, path=f"/nights/{night.pk}/room/")
    tv.set_viewport_size({"width": viewport[0], "height": viewport[1]})
    expect(tv.locator(".room-table")).to_have_count(12)
    expect(tv.locator(".prize-list")).to_contain_text("Last bunco of the night")
    expect(tv.locator(".set-winners")).to_contain_text("Set 1 leaders")
    assert fits(tv)
    for prize in tv.locator(".prize-list li").all():
        title, amount = prize.locator(".prize-title"), prize.locator(".prize-amount")
        assert abs(title.bounding_box()["y"] - amount.bounding_box()["y"]) < 4, prize.inner_text()
    # The $2 the shares leave over is in most wins (docs/rules.md section 7.8), said in one
    # line: a longer one takes a standings row from the side column.
    leftover = tv.locator(".room-side .leftover-line")
    expect(leftover).to_have_text("Most wins includes $2.00 left over")
    assert leftover.evaluate(LINES) == 1
    assert tv.evaluate(LOWEST_CONTRAST)[0][0] >= 7
