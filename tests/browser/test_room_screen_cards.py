"""The room screen's cards, read across a room: at 1280x720 and 1920x1080, at every size of
table (2, 3 and 4 players) and of night (3 to 30 tables), with long names, no text leaves
its card or runs over a table's score, on every page; every table says its target; the
names are no smaller than the standings' text; and a tied rank ("11=") keeps to one line."""

import pytest
from playwright.sync_api import expect

from bunco_night.nights.selectors import current_round, seated_tables
from bunco_night.play.services import bell_ring
from tests.browser.helpers import host_page, until
from tests.browser.test_room_screen_fit import SCREENS, close_round, party_names, round_two

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Long names, with words that are long too, as a tester typed them.
LONG = [
    "Rosalind Featherstonehaugh-Montgomery",
    "Mary-Catherine Vanderbilt-Okonkwo",
    "Guest 00 Rosalind Featherstonehaugh-Montgomery",
    "Evangeline Abernathy-Worthington",
]

# What overlaps on the screen shown: every text (its glyphs' boxes, line by line) that
# leaves the inside of its box (a table's card inside its border and padding, a cell of
# prizes, the side column), every table's name that meets its score, every rank of the
# standings not on one line inside its cell; and each table card's target and its names'
# size, and the standings' text size.
OVERLAPS = """() => {
  const shows = el => !!el.offsetParent && !el.closest('[hidden]');
  const texts = el => {
    const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT), out = [];
    while (walk.nextNode()) {
      const t = walk.currentNode;
      if (t.data.trim() && shows(t.parentElement)) out.push(t);
    }
    return out;
  };
  const rects = t => {
    const range = document.createRange();
    range.selectNodeContents(t);
    return [...range.getClientRects()].filter(q => q.width > 0 && q.height > 0);
  };
  const inside = el => {
    const r = el.getBoundingClientRect(), s = getComputedStyle(el), px = v => parseFloat(v);
    return {left: r.left + px(s.borderLeftWidth) + px(s.paddingLeft),
            right: r.right - px(s.borderRightWidth) - px(s.paddingRight),
            top: r.top + px(s.borderTopWidth) + px(s.paddingTop),
            bottom: r.bottom - px(s.borderBottomWidth) - px(s.paddingBottom)};
  };
  const within = (q, b) => q.left >= b.left - 0.5 && q.right <= b.right + 0.5
    && q.top >= b.top - 0.5 && q.bottom <= b.bottom + 0.5;
  const meet = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
    && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const where = q => `[${[q.left, q.top, q.right, q.bottom].map(Math.round)}]`;
  const problems = [];
  const boxes = [...document.querySelectorAll('.room-table, .room-extra, .room-side')]
    .filter(shows);
  for (const box of boxes) {
    const b = inside(box);
    const what = (box.querySelector('h3, h2') || box).textContent.trim().slice(0, 24);
    for (const t of texts(box)) {
      // A standings name too long for its cell ends in "..." (its start tells who).
      if (t.parentElement.closest('.room-side td:nth-child(2)')) continue;
      for (const q of rects(t)) {
        if (!within(q, b))
          problems.push(`${what}: "${t.data.trim()}" at ${where(q)} leaves ${where(b)}`);
      }
    }
    for (const li of box.querySelectorAll('.room-scores li')) {
      const name = li.querySelector('.room-name'), score = li.querySelector('b');
      const n = texts(name).flatMap(rects), s = texts(score).flatMap(rects);
      if (n.some(a => s.some(c => meet(a, c))))
        problems.push(`${what}: "${name.textContent.trim()}" runs over its score`);
    }
  }
  const ranks = [...document.querySelectorAll('.room-side tr[data-rank-row] td:first-child')]
    .filter(shows);
  for (const td of ranks) {
    const q = texts(td).flatMap(rects), c = inside(td);
    if (new Set(q.map(r => Math.round(r.top))).size > 1 || !q.every(r => within(r, c)))
      problems.push(`standings: rank "${td.textContent}" is not one line inside its cell`);
  }
  const cards = [...document.querySelectorAll('.room-table')].filter(shows);
  return {
    problems: problems,
    ranks: ranks.map(td => td.textContent.trim()),
    targets: Object.fromEntries(cards.map(card => [card.querySelector('h3').textContent.trim(),
      (card.querySelector('.room-target') || {}).textContent || ''])),
    names: cards.flatMap(card => [...card.querySelectorAll('.room-name')])
      .map(n => parseFloat(getComputedStyle(n).fontSize)),
    standings: Math.max(0, ...[...document.querySelectorAll('.room-side td')].filter(shows)
      .map(td => parseFloat(getComputedStyle(td).fontSize))),
  };
}"""


def party(players: int, *, long: bool = True, paid: bool = True):
    """A night of ``players`` (prizes so far if ``paid``), round 1 closed and round 2 in
    play; with ``long`` the last table's first two seats and table 1's first are given
    the names of ``LONG`` (the last table is a table of 2 or 3 when the players do not
    come in fours)."""
    night = round_two(party_names(players), paid=paid)
    if long:
        rnd = current_round(night)
        last = rnd.seats.order_by("-table__number").first().table.number
        seats = [(last, 1), (1, 1), (last, 2), (last - 1, 1)]
        for name, (table, number) in zip(LONG, seats, strict=True):
            player = rnd.seats.get(table__number=table, number=number).player
            player.name = name
            player.save(update_fields=["name"])
    return night


def every_page(tv):
    """Show each page of tables in turn (as js/pages.js does), fitted: yields its number."""
    pages = tv.evaluate("document.querySelectorAll('[data-page]').length")
    for number in range(1, pages + 1):
        tv.evaluate("delete document.documentElement.dataset.fitted")
        tv.evaluate(
            """n => { const pages = [...document.querySelectorAll('[data-page]')];
                 pages.forEach(p => { p.hidden = Number(p.dataset.page) !== n; });
                 pages[n - 1].dispatchEvent(new CustomEvent('bunco:page', {bubbles: true})); }""",
            number,
        )
        until(tv, "document.documentElement.dataset.fitted === '1'", "the page is fitted")
        yield number


def on_screen(tv, width: int, height: int):
    """The screen at ``width`` x ``height``, once js/fit.js has fitted it."""
    tv.evaluate("delete document.documentElement.dataset.fitted")
    tv.set_viewport_size({"width": width, "height": height})
    until(tv, "document.documentElement.dataset.fitted === '1'", "the screen is fitted")


@pytest.mark.parametrize(
    "players,long,bell",
    [
        (10, True, False),
        (13, True, True),
        (38, True, False),
        (118, True, False),
        (13, False, True),
        (13, False, False),
        (118, False, False),
    ],
    ids=["3t-long", "4t-long-bell", "10t-long", "30t-long", "4t-bell", "4t", "30t"],
)
def test_no_text_leaves_its_card_nor_runs_over_a_score(contexts, live_server, players, long, bell):
    """Round 2 in play, then (the round closed) where to sit for round 3; with ``long``
    names at table 1 and at the last tables (of 2 or 3 players when the players do not
    come in fours); with the bell rung in round 2 if ``bell``. On every page, at 1280x720
    and 1920x1080, every text lies inside its card, no name meets its score, and every
    table says its target. Without long names the room has space for the names: they are
    no smaller than the standings' text (tables of 4 with the bell rung, the tester's
    screen, had them smaller)."""
    night = party(players, long=long)
    if bell:
        bell_ring(night=night)
    tv = host_page(contexts, live_server, night, path=f"/nights/{night.pk}/room/")
    for state in ("round 2's scores", "round 3's seating"):
        if state == "round 3's seating":
            close_round(night)
            tv.reload()
            expect(tv.locator("#screen")).to_contain_text("Round 3: where to sit")
        rnd = night.rounds.get(number=2 if state == "round 2's scores" else 3)
        targets = {t.table.number: t.target for t in seated_tables(rnd)}
        assert sorted(set(targets.values())) == ([11, 21] if players % 4 else [21])
        expect(tv.locator(".room-bell")).to_have_count(1 if bell and "scores" in state else 0)
        for width, height in SCREENS:
            on_screen(tv, width, height)
            for page in every_page(tv):
                what = f"{state}, {players} players, page {page} at {width}x{height}"
                shown = tv.evaluate(OVERLAPS)
                assert not shown["problems"], f"{what}: {shown['problems']}"
                for title, target in shown["targets"].items():
                    number = int(title.split()[1])
                    assert target == f"to {targets[number]}", f"{what}: {title} says {target!r}"
                assert shown["names"] and shown["standings"], what
                if not long:
                    assert min(shown["names"]) >= shown["standings"], (
                        f"{what}: names at {sorted(set(shown['names']))} px, "
                        f"the standings at {shown['standings']} px"
                    )


@pytest.mark.parametrize("width,height", SCREENS)
def test_a_tied_rank_of_two_digits_keeps_to_one_line(contexts, live_server, width, height):
    """20 players at 5 tables, round 1 closed: ten winners are "1=", ten losers "11=";
    each rank shown is one line inside its cell."""
    night = party(20, long=False)
    tv = host_page(contexts, live_server, night, path=f"/nights/{night.pk}/room/")
    on_screen(tv, width, height)
    shown = tv.evaluate(OVERLAPS)
    assert "11=" in shown["ranks"], shown["ranks"]
    assert not shown["problems"], shown["problems"]
