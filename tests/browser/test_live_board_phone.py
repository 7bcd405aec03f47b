"""The host's live board on a phone: the links at its top read cleanly at every width (a
list with room between its links, no "·" left at the start or end of a line), and
whether each table is playing or done is on the first screen, as the polls change it."""

import pytest
from playwright.sync_api import expect

from bunco_night.play.services import table_done
from tests.browser.helpers import host_phone
from tests.factories import make_group, make_night
from tests.play.helpers import ring_the_bell, start_night, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = [(360, 740), (390, 844)]

# Each "·" the page shows above the tables, with whether it stands between two words
# on its line (not first or last on a line, nor cut off at the edge).
SEPARATORS = """() => {
  const top = document.querySelector('#board .live-tables, #board h2');
  const found = [];
  const walker = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (top && (top.compareDocumentPosition(node) & Node.DOCUMENT_POSITION_FOLLOWING)) break;
    for (let i = node.data.indexOf('·'); i >= 0; i = node.data.indexOf('·', i + 1)) {
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      found.push(range.getBoundingClientRect());
    }
  }
  const marks = [...document.querySelectorAll('main .dots > li')].map(li => {
    const before = getComputedStyle(li, '::before');
    return before.content === 'none' ? null : li;
  }).filter(Boolean);
  // A "·" is seen where a tap at its middle finds its item (not cut off); it must then
  // follow an item on its line.
  return {text: found.length, dots: marks.map(li => {
    const box = li.getBoundingClientRect();
    const width = parseFloat(getComputedStyle(li, '::before').width);
    const seen = document.elementFromPoint(box.left + width / 2, box.top + box.height / 2) === li;
    const prev = li.previousElementSibling;
    const between = prev && Math.abs(prev.getBoundingClientRect().top - box.top) < 2;
    return {text: li.textContent.trim(), ok: !seen || !!between, seen};
  })};
}"""


def started(players):
    night = make_night(make_group(regulars=players, substitutes=0), sets=1)
    start_night(night, seed=3)
    return night


@pytest.mark.parametrize("width,height", SIZES)
def test_the_top_links_read_cleanly(contexts, live_server, width, height):
    night = started(12)
    page = host_phone(contexts, live_server, f"/nights/{night.pk}/live/", width, height)
    links = page.get_by_role("navigation", name="This night").get_by_role("link")
    expect(links).to_have_count(5)
    shown = page.evaluate(SEPARATORS)
    assert shown["text"] == 0, f"a '·' typed as text above the tables on {width}px"
    bad = [d for d in shown["dots"] if not d["ok"]]
    assert [d["text"] for d in shown["dots"] if d["seen"]], "no '·' between the round's words"
    assert bad == [], f"a separator at a line's start or end on {width}px: {bad}"
    for link in links.all():  # each link whole, on the screen's width
        box = link.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width
        assert box["height"] >= 44  # a finger's size


@pytest.mark.parametrize("players", [12, 24])
@pytest.mark.parametrize("width,height", SIZES)
def test_every_tables_status_is_on_the_first_screen(contexts, live_server, width, height, players):
    night = started(players)
    tables = players // 4
    page = host_phone(contexts, live_server, f"/nights/{night.pk}/live/", width, height)
    status = page.get_by_role("list", name="Tables now")
    items = status.get_by_role("listitem")
    expect(items).to_have_count(tables)
    for number in range(1, tables + 1):
        item = status.locator(f"#glance-{number}")
        expect(item).to_have_text(f"Table {number} playing")
        expect(item).to_be_in_viewport(ratio=1)
    # The head table reaches its target: the bell. The list follows the poll, as the
    # tables' own boxes below do.
    ring_the_bell(night)
    expect(status.locator("#glance-1")).to_have_text("Table 1 ✔ done")
    for number in range(1, tables + 1):
        card = page.locator(f"#live-table-{number} .live-state")
        expect(status.locator(f"#glance-{number}")).to_have_text(
            f"Table {number} {card.inner_text().strip()}"
        )
    # Table 2 finishes its turn and taps Done: a change of its scores alone, which the
    # poll brings as that table's box and item.
    expect(status.locator("#glance-2")).to_have_text("Table 2 finishing…")
    second = night.tables.get(number=2)
    for seat in range(1, 5):
        tap(second, seat, "miss")
    table_done(table=second)
    expect(status.locator("#glance-2")).to_have_text("Table 2 ✔ done")
    expect(page.locator("#live-table-2 .live-state")).to_have_text("✔ done")
    # A tap on an item goes to its table's box.
    status.get_by_role("link", name=f"Table {tables}").click()
    expect(page.locator(f"#live-table-{tables}")).to_be_in_viewport()


# Each prize's line boxes: its title's, who wins it and its amount, and the row's.
PRIZE_ROWS = """() => [...document.querySelectorAll('#board .prize-list li')].map(li => {
  const box = el => {
    const rects = [...el.getClientRects()];
    const most = (side, pick) => pick(...rects.map(r => r[side]));
    return {top: most('top', Math.min), bottom: most('bottom', Math.max),
            right: most('right', Math.max), lines: new Set(rects.map(r => r.top)).size};
  };
  const range = document.createRange();
  range.selectNodeContents(li.querySelector('.prize-title'));
  const titleLines = new Set([...range.getClientRects()].map(r => Math.round(r.top))).size;
  return {text: li.innerText, row: box(li), titleLines, who: box(li.querySelector('.prize-who')),
          amount: box(li.querySelector('.prize-amount'))};
})"""


@pytest.mark.parametrize("width,height", SIZES)
def test_each_prize_reads_as_title_then_who_wins_it_and_the_amount(
    contexts, live_server, width, height
):
    """A prize's title on its own line if need be, never broken; who wins it and the amount
    together, the amount at the right of who wins it ("Last bunco of the night" then
    "nobody yet" and its amount, not the amount alone on a line)."""
    night = make_night(make_group(regulars=12, substitutes=0), sets=1)
    start_night(night, seed=3)
    page = host_phone(contexts, live_server, f"/nights/{night.pk}/live/", width, height)
    rows = page.evaluate(PRIZE_ROWS)
    assert any("Last bunco of the night" in row["text"] for row in rows), rows
    for row in rows:
        assert row["titleLines"] == 1, f"the title is broken: {row}"
        assert row["amount"]["lines"] == 1, f"the amount is broken: {row}"
        amount, who = row["amount"], row["who"]
        assert who["top"] <= amount["top"] < who["bottom"], f"the amount is apart: {row}"
        assert abs(amount["right"] - row["row"]["right"]) <= 1, f"not at the right: {row}"
