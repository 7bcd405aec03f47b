"""The room screen on a TV, with names of about 30 characters (26 to 33): twelve tables come
in pages of as many as hold such names at a size read across the room, at 1280x720 and at
1920x1080, with no text running out of its box, whether the tables show their scores or
where to sit next; a table whose names do not fit gets smaller names (js/fit.js, as the
seating TV's), never smaller than 2.2 % of the screen's height, and never a word broken.
A table the poll swaps in, and a page that turns, is fitted too. And at every size of
night, 1 to 125 tables, the screen is filled as the seating TV's is."""

import pytest
from playwright.sync_api import expect

from bunco_night.nights.selectors import current_round, seated_tables
from bunco_night.nights.services import payment_record, seating_draw
from bunco_night.play.services import round_close, round_start, winner_set
from tests.browser.helpers import SHOTS, host_page, named_night, until
from tests.factories import make_group, make_night
from tests.play.helpers import play_round, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENS = [(1280, 720), (1920, 1080)]
# The smallest text anywhere on the screen, as a share of its height: about 24 px on a
# 1080-line TV (16 px on a 720-line one), letters a third of an inch tall on a 50-inch TV,
# read from across a living room.
SMALLEST_TEXT = 0.022
# The smallest name at a table, by the most tables a page shows: a few tables have room
# for names far bigger than the smallest text.
SMALLEST_NAME = {1: 0.06, 3: 0.04, 12: SMALLEST_TEXT}
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
    its names whole, none smaller than 0.8 % of the screen's width (the room screen's
    tests ask more of it). Gives the names' sizes."""
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


def fitted(tv, change=None):
    """Wait until js/fit.js has fitted the screen again after ``change`` (a function)."""
    tv.evaluate("delete document.documentElement.dataset.fitted")
    if change is not None:
        change()
    until(tv, "document.documentElement.dataset.fitted === '1'", "the screen is fitted")


def shown_page(tv) -> int:
    """The number of the page shown, and of tables on it, once it is fitted."""
    until(tv, "[...document.querySelectorAll('[data-page]')].some(p => !p.hidden)", "a page")
    return tv.evaluate(
        "[...document.querySelectorAll('[data-page]')].find(p => !p.hidden)"
        ".querySelectorAll('.room-table').length"
    )


@pytest.mark.parametrize("width,height", [(1280, 720), (1920, 1080)])
def test_twelve_tables_of_long_names_fit_their_pages(contexts, live_server, width, height):
    SHOTS.mkdir(parents=True, exist_ok=True)
    night = named_night(long_names(48))
    tv = host_page(contexts, live_server, night, path=f"/nights/{night.pk}/room/")
    fitted(tv, lambda: tv.set_viewport_size({"width": width, "height": height}))
    expect(tv.locator(".room-table")).to_have_count(12)
    pages = tv.locator("[data-page]").count()
    assert 1 < pages <= 4  # the names need the room of fewer than twelve a page
    on_page = shown_page(tv)
    scores = check_fits(tv.evaluate(SHOWN), f"round 1's scores at {width}x{height}", on_page)
    assert len(scores) == 2 * on_page  # each table's two teams
    assert min(scores) >= SMALLEST_TEXT * height, scores
    tv.screenshot(path=SHOTS / f"room-fit-scores-{width}.png")

    fitted(tv, lambda: play_round(night))  # round 1 closed: where everyone sits for round 2
    expect(tv.locator("#screen")).to_contain_text("Round 2: where to sit", timeout=10_000)
    on_page = shown_page(tv)
    seats = check_fits(tv.evaluate(SHOWN), f"round 2's seating at {width}x{height}", on_page)
    assert len(seats) == 4 * on_page
    assert min(seats) >= SMALLEST_TEXT * height, seats
    tv.screenshot(path=SHOTS / f"room-fit-seating-{width}.png")


def test_a_table_the_poll_swaps_in_and_a_page_that_turns_are_fitted(contexts, live_server):
    """13 tables of long names in play, in even pages. A score at table 1 swaps that table
    in by the poll, fitted like the rest; page 2, when it turns, fits too."""
    night = named_night(long_names(52))
    rnd = current_round(night)
    tv = host_page(contexts, live_server, night, path=f"/nights/{night.pk}/room/")
    fitted(tv, lambda: tv.set_viewport_size({"width": 1280, "height": 720}))
    until(tv, "!document.querySelector('[data-page=\"1\"]').hidden", "page 1 shows")
    sizes = tv.evaluate(
        "[...document.querySelectorAll('[data-page]')].map(p => p.querySelectorAll('.room-table')"
        ".length)"
    )
    assert sum(sizes) == 13 and max(sizes) - min(sizes) <= 1, sizes
    check_fits(tv.evaluate(SHOWN), "page 1", sizes[0])
    tv.evaluate("document.getElementById('room-table-1').dataset.before = '1'")
    tap(rnd.seats.get(table__number=1, number=1).table, 1, "points", 2)
    expect(tv.locator("#room-table-1 .room-scores b").first).to_have_text("2", timeout=10_000)
    # A new element came from the server; it is fitted as its page is.
    assert tv.evaluate("document.getElementById('room-table-1').dataset.before") is None
    if tv.evaluate("document.querySelector('[data-page=\"1\"]').hidden"):
        until(tv, "!document.querySelector('[data-page=\"1\"]').hidden", "page 1 again")
    check_fits(tv.evaluate(SHOWN), "page 1 after the poll", sizes[0])
    until(tv, "!document.querySelector('[data-page=\"2\"]').hidden", "page 2 shows")
    shown = tv.evaluate(SHOWN)
    assert shown["page"] == {"page": "2"}
    check_fits(shown, "page 2", sizes[1])


# The room screen fills a TV (1280x720 and 1920x1080) at every size of night, as the
# seating TV does: 1 to 125 tables, in pages of at most twelve.
FIRSTS = ["Sally", "Mary-Catherine", "Joan", "Renée", "Zoë", "Terri", "Barb", "Susan", "Gail",
          "Linda", "Patty", "Donna", "Evangeline", "Bo", "Christopher", "Ann", "Gwendolyn",
          "Kim", "Alexandria", "Lu"]  # fmt: skip
LASTS = ["Fox", "Fitzgerald-Worthington", "Rivers-Lee", "Dubois", "Müller", "Olsen", "Novak",
         "Bell", "Hart", "Park", "Chen", "Reed", "Montgomery-Smythe", "Li", "Featherstonehaugh",
         "Baker", "Cruz", "Diaz", "Vanderbilt-Hughes", "Ng", "Owens", "Price", "Ito", "Quinn",
         "Abernathy"]  # fmt: skip


def party_names(count: int) -> list[str]:
    """``count`` different names, short and long ("Bo Li" to 37 letters)."""
    names = [
        f"{FIRSTS[i % len(FIRSTS)]} {LASTS[i // len(FIRSTS) % len(LASTS)]}" for i in range(count)
    ]
    assert len(set(names)) == count
    return names


# What fills the screen: the tables' cards shown, the main column and the side column, the
# standings' rows shown and the height of the next one, how many more it says there are,
# and every text's size.
FILLS = """() => {
  const shows = el => !!el.offsetParent && !el.closest('[hidden]');
  const box = el => { const r = el.getBoundingClientRect();
                      return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; };
  const cards = [...document.querySelectorAll('.room-table')].filter(shows).map(box);
  const side = document.querySelector('.room-side');
  const last = [...side.children].filter(shows).pop();
  const more = side.querySelector('.room-more');
  const texts = [...document.querySelectorAll('#screen *')].filter(el => shows(el)
    && [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()));
  return {
    main: box(document.querySelector('.room-main')),
    cards: cards,
    side: box(side),
    side_end: last ? last.getBoundingClientRect().bottom
                     + parseFloat(getComputedStyle(last).marginBottom) : 0,
    rows: [...side.querySelectorAll('tbody tr')].filter(shows).length,
    next_row: (() => { const row = side.querySelector('tbody tr[hidden]');
                       if (!row) return 0;
                       row.hidden = false;
                       const tall = row.getBoundingClientRect().height;
                       row.hidden = true;
                       return tall; })(),
    more: more && shows(more) ? more.textContent.trim() : '',
    smallest: texts.map(el => [parseFloat(getComputedStyle(el).fontSize),
                               el.textContent.trim().slice(0, 30)]).sort((a, b) => a[0] - b[0])[0],
    names: [...document.querySelectorAll('.room-name')].filter(shows)
      .map(n => parseFloat(getComputedStyle(n).fontSize)),
  };
}"""


def check_fills(tv, what: str, tables: int, players: int, ranked: bool):
    """The screen does not scroll and holds every text whole (``check_fits``); the tables'
    cards fill the main column's width and reach the foot of the screen; no text is
    smaller than ``SMALLEST_TEXT``, no name smaller than ``SMALLEST_NAME``; the standings
    list as many players as fit and say how many more there are."""
    height = tv.viewport_size["height"]
    shown = tv.evaluate(SHOWN)
    on_page = len(shown["boxes"]) - 1
    check_fits(shown, what, on_page)
    fills = tv.evaluate(FILLS)
    main, cards = fills["main"], fills["cards"]
    # Even pages of at most twelve tables, fewer where long names need the room.
    pages = tv.evaluate("document.querySelectorAll('[data-page]').length")
    assert pages >= -(-tables // 12), what
    assert len(cards) == on_page == -(-tables // pages), f"{what}: {len(cards)} tables shown"
    left, right = min(c["left"] for c in cards), max(c["right"] for c in cards)
    bottom = max(c["bottom"] for c in cards)
    assert right - left >= 0.95 * (main["right"] - main["left"]), (
        f"{what}: {left}-{right} of {main}"
    )
    assert bottom >= 0.9 * height, f"{what}: the tables end at {bottom} px of {height}"
    size, text = fills["smallest"]
    assert size >= SMALLEST_TEXT * height, f"{what}: {text!r} at {size} px"
    smallest_name = next(s for most, s in sorted(SMALLEST_NAME.items()) if on_page <= most)
    assert min(fills["names"]) >= smallest_name * height, f"{what}: names at {fills['names']}"
    if not ranked:
        assert fills["rows"] == 1 and not fills["more"], what  # "No rounds played yet."
        return
    hidden = players - fills["rows"]
    if hidden:
        assert fills["more"].startswith(f"and {hidden} more"), (what, fills["more"], hidden)
        # As many as fit: the side column is full, to less than the next row (one line).
        assert fills["side"]["bottom"] - fills["side_end"] < fills["next_row"], (what, fills)
    else:
        assert not fills["more"], what


def close_round(night):
    """Close the round in play, table 1's first side winning at every table, without
    playing it out (a night of 125 tables)."""
    rnd = current_round(night)
    for t in seated_tables(rnd):
        winner_set(rnd=rnd, table=t.table, side=0)
    round_close(rnd=rnd)


@pytest.mark.parametrize(
    "tables", [1, 3, 12, 30, pytest.param(125, marks=pytest.mark.slow)], ids=lambda n: f"{n}t"
)
def test_the_room_screen_fills_a_tv_at_every_size_of_night(contexts, live_server, tables):
    """Where to sit, then the scores in play, then where to sit with the standings: at
    1280x720 and 1920x1080 the tables fill the screen in text read across a room."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    players = 4 * tables
    group = make_group(regulars=players, substitutes=0)
    for player, name in zip(group.players.order_by("pk"), party_names(players), strict=True):
        player.name = name
        player.save(update_fields=["name"])
    night = make_night(group, sets=1)
    seating_draw(night=night, seed=5)
    tv = host_page(contexts, live_server, night, path=f"/nights/{night.pk}/room/")
    states = [("round 1's seating", False), ("round 1's scores", False)]
    states.append(("round 2's seating", True))
    for n, (state, ranked) in enumerate(states):
        if n == 1:
            round_start(night=night)
        elif n == 2:
            close_round(night)
        tv.reload()
        expect(tv.locator("#screen")).to_be_visible()
        for width, height in SCREENS:
            fitted(tv, lambda w=width, h=height: tv.set_viewport_size({"width": w, "height": h}))
            what = f"{state}, {tables} tables at {width}x{height}"
            tv.screenshot(path=SHOTS / f"room-{tables}t-{n}-{width}.png")
            check_fills(tv, what, tables, players, ranked)


# The standings' text: about 28 px on a 1080-line TV (19 px on a 720-line one).
STANDINGS_TEXT = 0.026
# Down every line across the main column, from the top of the screen to its foot, the
# tallest stretch that shows nothing (no card, title, note or prize, nor the gutter beside
# one): the screen's height as a share, and where.
EMPTY_BAND = """() => {
  const shows = el => !!el.offsetParent && !el.closest('[hidden]');
  const main = document.querySelector('.room-main').getBoundingClientRect();
  const parts = [...document.querySelectorAll(
    '.room-top, .room-bell, .room-table, .room-extra, .room-main .room-note')].filter(shows)
    .map(el => el.getBoundingClientRect());
  const gutter = 2 * Math.min(innerWidth / 100, innerHeight / 56.25);
  let worst = [0, 0];
  for (let x = main.left + 2; x < main.right - 2; x += (main.right - main.left) / 40) {
    const spans = parts.filter(r => r.left - gutter <= x && x <= r.right + gutter)
      .map(r => [r.top, r.bottom])
      .sort((a, b) => a[0] - b[0]);
    let reached = 0;
    for (const [top, bottom] of spans.concat([[innerHeight, innerHeight]])) {
      if (top - reached > worst[0]) worst = [top - reached, Math.round(x)];
      reached = Math.max(reached, bottom);
    }
  }
  return [worst[0] / innerHeight, worst[1]];
}"""


@pytest.mark.parametrize("width,height", SCREENS)
def test_three_tables_fill_the_screen_and_list_every_player(contexts, live_server, width, height):
    """A paid-up night of 3 tables (12 players, prizes so far): where to sit for round 2,
    then round 2's scores. No stretch of the screen is left empty (the grid's fourth cell
    is not); the standings list all 12 players, large enough to read across a room, with
    no "and N more"; nothing is cut off and the screen does not scroll."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    group = make_group(regulars=12, substitutes=0)
    for player, name in zip(group.players.order_by("pk"), party_names(12), strict=True):
        player.name = name
        player.save(update_fields=["name"])
    night = make_night(group, sets=1)
    for a in night.attendances.all():
        payment_record(attendance=a, amount_cents=500)
    seating_draw(night=night, seed=5)
    round_start(night=night)
    close_round(night)
    tv = host_page(contexts, live_server, night, path=f"/nights/{night.pk}/room/")
    for n, state in enumerate(["round 2's seating", "round 2's scores"]):
        if n:
            round_start(night=night)
            tv.reload()
        fitted(tv, lambda: tv.set_viewport_size({"width": width, "height": height}))
        what = f"{state}, 3 tables at {width}x{height}"
        tv.screenshot(path=SHOTS / f"room-3t-prizes-{n}-{width}.png")
        expect(tv.locator(".room-table")).to_have_count(3)
        check_fits(tv.evaluate(SHOWN), what, 3)
        fills = tv.evaluate(FILLS)
        assert fills["rows"] == 12 and not fills["more"], f"{what}: {fills['rows']} rows shown"
        band, where = tv.evaluate(EMPTY_BAND)
        assert band <= 0.15, f"{what}: {band:.0%} of the height empty at x={where}"
        sizes = tv.evaluate(
            "[...document.querySelectorAll('.room-side td, .prize-list li > *')]"
            ".filter(el => el.offsetParent).map(el => parseFloat(getComputedStyle(el).fontSize))"
        )
        assert min(sizes) >= STANDINGS_TEXT * height, f"{what}: {sorted(set(sizes))}"
        assert tv.locator(".prize-list:visible").count() == 1, what


# Each standings row shown: its height, and the height of one line of its text.
STANDINGS_ROWS = """() => [...document.querySelectorAll('.room-side tbody tr[data-rank-row]')]
  .filter(row => !row.hidden).map(row => [row.getBoundingClientRect().height,
    parseFloat(getComputedStyle(row.cells[1]).lineHeight) || 1.2 * parseFloat(
      getComputedStyle(row.cells[1]).fontSize), row.cells[1].textContent])"""


def round_two(names: list[str], *, paid: bool = True):
    """A night of ``names`` (paid up, so with prizes so far, if ``paid``), round 1 closed
    and round 2 in play."""
    group = make_group(regulars=len(names), substitutes=0)
    for player, name in zip(group.players.order_by("pk"), names, strict=True):
        player.name = name
        player.save(update_fields=["name"])
    night = make_night(group, sets=1)
    if paid:
        for a in night.attendances.all():
            payment_record(attendance=a, amount_cents=500)
    seating_draw(night=night, seed=5)
    round_start(night=night)
    close_round(night)
    round_start(night=night)
    return night


def round_two_on_the_room_screen(contexts, live_server, names, width, height):
    """``round_two`` of ``names`` on the room screen of a TV of ``width`` x ``height``,
    fitted: (night, page)."""
    night = round_two(names)
    tv = host_page(contexts, live_server, night, path=f"/nights/{night.pk}/room/")
    fitted(tv, lambda: tv.set_viewport_size({"width": width, "height": height}))
    return night, tv


@pytest.mark.parametrize("width,height", [(1280, 720), (1920, 1080), (3840, 2160)])
def test_the_standings_show_every_row_that_fits_one_line_each(contexts, live_server, width, height):
    """3 tables of 11 players with long names, prizes so far, round 2 in play: every
    standings row is one line (a long name cut with "…", not wrapped in the narrow side
    column), the rows fill the side column to within a row, and "and N more" counts the
    rest."""
    _, tv = round_two_on_the_room_screen(contexts, live_server, long_names(11), width, height)
    what = f"3 tables of 11 at {width}x{height}"
    check_fits(tv.evaluate(SHOWN), what, 3)
    rows = tv.evaluate(STANDINGS_ROWS)
    assert rows, what
    for tall, line, name in rows:
        assert tall < 1.9 * line, f"{what}: {name!r} takes {tall:.0f} px, a line is {line:.0f}"
    fills = tv.evaluate(FILLS)
    hidden = 11 - fills["rows"]
    if hidden:
        assert fills["more"].startswith(f"and {hidden} more"), (what, fills["more"])
        assert fills["side"]["bottom"] - fills["side_end"] < fills["next_row"], (what, fills)
    else:
        assert not fills["more"], what


# Thirteen players, one of them with a long name: a night of 4 tables (4, 4, 3 and 2).
THIRTEEN = ["Carla Méndez-Hoffmann", "Lou Fontaine-Baxter", "Ann Li", "Bo Ng", "Sally Fox",
            "Mary-Catherine Dubois", "Joan Rivers-Lee", "Renée Müller", "Zoë Olsen",
            "Terri Novak", "Barb Bell", "Susan Hart", "Gail Park"]  # fmt: skip


@pytest.mark.parametrize("width,height", [*SCREENS, (3840, 2160)])
def test_thirteen_players_at_four_tables_are_all_in_the_standings(
    contexts, live_server, width, height
):
    """A paid-up night of 13 players (prizes so far), round 2 in play: the standings list
    all 13 players, one line each, large enough to read across a room, with no "and N
    more", the tables' cards taking what the standings leave."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    night, tv = round_two_on_the_room_screen(contexts, live_server, THIRTEEN, width, height)
    what = f"13 players at 4 tables at {width}x{height}"
    tv.screenshot(path=SHOTS / f"room-13p-{width}.png")
    expect(tv.locator(".room-table")).to_have_count(4)
    check_fits(tv.evaluate(SHOWN), what, 4)
    fills = tv.evaluate(FILLS)
    assert fills["rows"] == 13 and not fills["more"], f"{what}: {fills['rows']} rows shown"
    for tall, line, name in tv.evaluate(STANDINGS_ROWS):
        assert tall < 1.9 * line, f"{what}: {name!r} takes {tall:.0f} px, a line is {line:.0f}"
    cut = tv.evaluate(
        "[...document.querySelectorAll('.room-side tbody td:nth-child(2)')]"
        ".filter(td => td.scrollWidth > td.clientWidth).map(td => td.textContent)"
    )
    assert not cut, f"{what}: names cut {cut}"
    sizes = tv.evaluate(
        "[...document.querySelectorAll('.room-side td, .prize-list li > *')]"
        ".filter(el => el.offsetParent).map(el => parseFloat(getComputedStyle(el).fontSize))"
    )
    assert min(sizes) >= STANDINGS_TEXT * height, f"{what}: {sorted(set(sizes))}"
    assert tv.locator(".prize-list:visible").count() == 1, what
    # Each table as the seating TV has it: the head table named, a game without teams said,
    # and every table's target.
    expect(tv.locator(".room-table h3").first).to_have_text("Table 1 · head")
    for t in seated_tables(current_round(night)):
        meta = tv.locator(f"#room-table-{t.table.number} .room-meta")
        solo = "" if t.teams else "Everyone for themselves · "
        expect(meta).to_have_text(f"{solo}to {t.target}")
    assert sorted(t.size for t in seated_tables(current_round(night))) == [2, 3, 4, 4]


# Two dozen names as a party has them, 12 to 19 characters.
PARTY_OF_24 = [
    "Constance Abernathy", "Bartholomew Reyes", "Margaret O'Donnell", "Dorothy Whitfield",
    "Josephine Carter", "Rosemary Lindqvist", "Wilhelmina Brooks", "Eleanor Pettigrew",
    "Gloria Fernández", "Hattie Johnson", "Ann Marie Baxter", "Bea Okonkwo-Adams",
    "Evangeline Moore", "Gwendolyn Hart", "Penelope Vance", "Harriet Sinclair",
    "Lorraine Dupree", "Mildred Haskins", "Beatrice Quinn", "Clementine Ross",
    "Florence Nakamura", "Geraldine Pike", "Henrietta Cole", "Imogene Stafford",
]  # fmt: skip


@pytest.mark.parametrize("width,height", SCREENS)
def test_with_the_prizes_beside_them_the_standings_show_whole_names(
    contexts, live_server, width, height
):
    """6 tables, prizes so far in the side column under the standings, round 2 in play:
    the standings show six rows or more (three or four once), each name whole (none ends
    in "…"), at the standings' size, and nothing is cut off."""
    _, tv = round_two_on_the_room_screen(contexts, live_server, PARTY_OF_24, width, height)
    what = f"6 tables, prizes beside the standings, at {width}x{height}"
    expect(tv.locator(".room-side .prize-list")).to_be_visible()
    check_fits(tv.evaluate(SHOWN), what, tv.locator(".room-table:visible").count())
    rows = tv.evaluate(STANDINGS_ROWS)
    assert len(rows) >= 6, f"{what}: {len(rows)} rows: {[name for _, _, name in rows]}"
    cut = tv.evaluate(
        "[...document.querySelectorAll('.room-side tbody tr:not([hidden]) td:nth-child(2)')]"
        ".filter(td => td.scrollWidth > td.clientWidth).map(td => td.textContent)"
    )
    assert not cut, f"{what}: names cut {cut}"
    sizes = tv.evaluate(
        "[...document.querySelectorAll('.room-side td')].filter(el => el.offsetParent)"
        ".map(el => parseFloat(getComputedStyle(el).fontSize))"
    )
    assert min(sizes) >= STANDINGS_TEXT * height, f"{what}: {sorted(set(sizes))}"
    # Each prize's amount on its title's line, who wins it after or under it.
    for prize in tv.locator(".room-side .prize-list li").all():
        title, amount = prize.locator(".prize-title"), prize.locator(".prize-amount")
        assert abs(title.bounding_box()["y"] - amount.bounding_box()["y"]) < 4, prize.inner_text()
