"""The room screen on a TV, with names of about 30 characters (26 to 33): twelve tables and the side
column fit one screen at 1280x720 and at 1920x1080, with no text running out of its box,
whether the tables show their scores or where to sit next; a table whose names do not fit
gets smaller names (js/fit.js, as the seating TV's), never smaller than 0.8 % of the
screen's width, and never a word broken. A table the poll swaps in, and a page that turns,
is fitted too."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import host_page, named_night, until
from tests.play.helpers import play_round, tap

SHOTS = Path("/tmp/shots")

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FIRST = ["Maximiliana", "Bartholomew", "Evangeline", "Christopher", "Gwendolyn", "Alexandria"]
LAST = [
    "Featherstonehaugh",
    "Fontaine-Baxter",
    "Montgomery-Smythe",
    "Worthington-Lee",
    "Vanderbilt-Hughes",
    "Richardson-Clarke",
    "Cavendish-Bentinck",
    "Wolfeschlegel",
    "Higginbottom-Price",
]


def long_names(count: int) -> list[str]:
    """``count`` different names of 26 to 33 characters ("Evangeline M. Montgomery-Smythe")."""
    names = [
        f"{FIRST[i % len(FIRST)]} {chr(65 + i % 26)}. {LAST[i // len(FIRST) % len(LAST)]}"
        for i in range(count)
    ]
    assert len(set(names)) == count and all(26 <= len(n) <= 33 for n in names)
    return names


# What shows: how far the document scrolls, the screen, each box that must hold its text
# (the tables shown and the side column) with how much of it is cut off and whether it
# lies on the screen, and each name shown: its size, whether it lies inside its box, and
# the parts of its words (a hyphen may end a line) that are split over two lines.
SHOWN = """() => {
  const shows = el => !!el.offsetParent && !el.closest('[hidden]');
  const boxes = [...document.querySelectorAll('.room-table, .room-side')].filter(shows);
  return {
    scroll: [document.scrollingElement.scrollWidth, document.scrollingElement.scrollHeight],
    screen: [innerWidth, innerHeight],
    page: ([...document.querySelectorAll('[data-page]')].find(p => !p.hidden) || {}).dataset,
    boxes: boxes.map(box => {
      const r = box.getBoundingClientRect();
      return {what: (box.querySelector('h3, h2') || box).textContent.trim(),
              cut: [box.scrollWidth - box.clientWidth, box.scrollHeight - box.clientHeight],
              on_screen: r.left >= 0 && r.top >= 0 && r.right <= innerWidth + 0.5
                         && r.bottom <= innerHeight + 0.5,
              names: [...box.querySelectorAll('.room-name')].map(name => {
                const n = name.getBoundingClientRect(), text = name.firstChild, split = [];
                for (const m of text.data.matchAll(/[^\\s-]+-?/g)) {
                  const range = document.createRange();
                  range.setStart(text, m.index);
                  range.setEnd(text, m.index + m[0].length);
                  const tops = new Set([...range.getClientRects()].map(q => Math.round(q.top)));
                  if (tops.size > 1) split.push(m[0]);
                }
                return {text: text.data, size: parseFloat(getComputedStyle(name).fontSize),
                        inside: n.left >= r.left - 0.5 && n.right <= r.right + 0.5
                                && n.top >= r.top - 0.5 && n.bottom <= r.bottom + 0.5,
                        split: split};
              })};
    })};
}"""


def check_fits(shown: dict, what: str, tables: int) -> list[float]:
    """The page does not scroll; every box shown holds its text whole, on the screen, and
    its names whole, none smaller than 0.8 % of the screen's width. Gives the names' sizes."""
    width, height = shown["screen"]
    assert shown["scroll"] == [width, height], f"{what}: the screen scrolls {shown['scroll']}"
    assert len(shown["boxes"]) == tables + 1, f"{what}: {[b['what'] for b in shown['boxes']]}"
    sizes = []
    for box in shown["boxes"]:
        where = f"{what}, {box['what'][:20]}"
        assert box["cut"][0] <= 0 and box["cut"][1] <= 0, f"{where}: cut off {box['cut']}"
        assert box["on_screen"], f"{where}: off the screen"
        for name in box["names"]:
            assert name["inside"], f"{where}: {name['text']} leaves its table"
            assert not name["split"], f"{where}: {name['text']} broken at {name['split']}"
            assert name["size"] >= 0.008 * width, f"{where}: {name['text']} at {name['size']}px"
            sizes.append(name["size"])
    return sizes


@pytest.mark.parametrize("width,height", [(1280, 720), (1920, 1080)])
def test_twelve_tables_of_long_names_fit_one_screen(contexts, live_server, width, height):
    SHOTS.mkdir(parents=True, exist_ok=True)
    night = named_night(long_names(48))
    tv = host_page(contexts, live_server, night, path=f"/nights/{night.pk}/room/")
    tv.set_viewport_size({"width": width, "height": height})
    expect(tv.locator(".room-table")).to_have_count(12)
    tv.wait_for_timeout(200)  # the resize settles and the names are fitted
    scores = check_fits(tv.evaluate(SHOWN), f"round 1's scores at {width}x{height}", 12)
    assert len(scores) == 24  # each table's two teams
    tv.screenshot(path=SHOTS / f"room-fit-scores-{width}.png")

    play_round(night)  # round 1 closed: where everyone sits for round 2
    expect(tv.locator("#screen")).to_contain_text("Round 2: where to sit", timeout=10_000)
    tv.wait_for_timeout(200)
    seats = check_fits(tv.evaluate(SHOWN), f"round 2's seating at {width}x{height}", 12)
    assert len(seats) == 48
    # Most names are made no smaller than they need: a table of them fits at 1 % or more.
    assert sorted(seats)[len(seats) // 2] >= 0.01 * width, seats
    tv.screenshot(path=SHOTS / f"room-fit-seating-{width}.png")


def test_a_table_the_poll_swaps_in_and_a_page_that_turns_are_fitted(contexts, live_server):
    """13 tables of long names in play: pages of 7 and 6. A score at table 1 swaps that
    table in by the poll, fitted like the rest; page 2, when it turns, fits too."""
    night = named_night(long_names(52))
    rnd = night.current_round
    tv = host_page(contexts, live_server, night, path=f"/nights/{night.pk}/room/")
    tv.set_viewport_size({"width": 1280, "height": 720})
    until(tv, "!document.querySelector('[data-page=\"1\"]').hidden", "page 1 shows")
    tv.wait_for_timeout(200)
    check_fits(tv.evaluate(SHOWN), "page 1", 7)
    tv.evaluate("document.getElementById('room-table-1').dataset.before = '1'")
    tap(rnd.seats.get(table__number=1, number=1).table, 1, "points", 2)
    expect(tv.locator("#room-table-1 .room-scores b").first).to_have_text("2", timeout=10_000)
    # A new element came from the server; it is fitted as its page is.
    assert tv.evaluate("document.getElementById('room-table-1').dataset.before") is None
    if tv.evaluate("document.querySelector('[data-page=\"1\"]').hidden"):
        until(tv, "!document.querySelector('[data-page=\"1\"]').hidden", "page 1 again")
    check_fits(tv.evaluate(SHOWN), "page 1 after the poll", 7)
    until(tv, "!document.querySelector('[data-page=\"2\"]').hidden", "page 2 shows")
    shown = tv.evaluate(SHOWN)
    assert shown["page"] == {"page": "2"}
    check_fits(shown, "page 2", 6)
