"""Everything a table taps while it plays lies on the first screen of the phone, at every
moment of a round: who is rolling, every score button, Done or Extra turns done when the
table must tap it, and the Undo of the latest entry (or the Cancel of the latest tap still
waiting on the phone, offline). The dice entry, seldom used, may lie below. So it is with
the phone's Bigger text pressed too (js/textsize.js)."""

import io

import pytest
from PIL import Image
from playwright.sync_api import expect

from bunco_night.play.pages import table_page
from bunco_night.play.services import table_done
from tests.browser.helpers import named_night, phone, until
from tests.factories import make_group, make_night
from tests.play.helpers import ring_the_bell, start_night
from tests.play.helpers import tap as server_tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = [(360, 640), (360, 740), (390, 844)]

# The text as the phone shows it without a choice, and with Bigger text pressed.
TEXT = ["normal", "bigger"]


def table_phone(contexts, url, width, height, text):
    """A table phone at ``url``, its Bigger text pressed if ``text`` says so: its button at
    the foot of the page tapped once, and the page loaded again (the phone remembers)."""
    page = phone(contexts, url, width=width, height=height)
    if text == "bigger":
        toggle = page.get_by_role("button", name="Bigger text")
        toggle.click()
        page.reload()
        expect(page.get_by_role("button", name="Bigger text")).to_have_attribute(
            "aria-pressed", "true"
        )
    return page


# Each control that must be on the first screen, and where it ends, the page at its top.
CONTROLS = """(extra) => {
  window.scrollTo(0, 0);
  const all = [...document.querySelectorAll('#taps label.chip, #taps button.tap')];
  const undo = document.querySelector('#queue .parked.waiting button, #recent .recent button.undo');
  if (undo) all.push(undo);
  for (const selector of extra) all.push(document.querySelector(selector));
  return all.map(el => el ? [
    (el.getAttribute('aria-label') || el.textContent).trim().split('\\n')[0],
    Math.round(el.getBoundingClientRect().bottom),
  ] : ['missing', 99999]);
}"""


def check_first_screen(page, what: str, *, undo=True, extra=(), taps=4):
    ends = page.evaluate(CONTROLS, list(extra))
    height = page.viewport_size["height"]
    below = [f"{name} ends at {end} px" for name, end in ends if end > height]
    assert below == [], f"{what} on {page.viewport_size}: {below}"
    # A chip a seat (four, or three at a table of three), and the five or more taps.
    assert len(ends) >= taps + 5 + len(extra) + undo, f"{what}: {ends}"


# Tables of four whose players have long names, two words each: on a 360 px phone each chip's
# name takes three lines of half a row, or a whole row ("Featherstonehaugh").
LONG_FOURS = [
    "Bartholomew Worthington-Smythe",
    "Maximiliana Featherstonehaugh",
    "Christopher Montgomery-Fitzgerald",
    "Anastasia Rimskaya-Korsakova",
    "Evangeline Blackwood-Thornton",
    "Sebastian Castellanos-Villanueva",
    "Philippa Montague-Beauchamp",
    "Guinevere Ashby-Cholmondeley",
    "Jean-Baptiste Delacroix-Dubois",
    "Fitzwilliam Pemberley-Bennet",
    "Wilhelmina Vanderbilt-Hohenzollern",
    "Konstantin Oppenheimer-Rothschild",
]


@pytest.mark.parametrize("text", TEXT)
@pytest.mark.parametrize("names", ["short", "long"])
@pytest.mark.parametrize("width,height", SIZES)
def test_every_control_and_the_latest_undo_are_on_the_first_screen(
    contexts, live_server, width, height, names, text
):
    if names == "long":
        night = named_night(LONG_FOURS)  # seated as the short names are (seed 3)
    else:
        night = make_night(make_group(regulars=12, substitutes=0), sets=1)
        start_night(night, seed=3)
    table, other = night.tables.get(number=2), night.tables.get(number=3)
    page = table_phone(contexts, f"{live_server.url}/t/{table.token}/", width, height, text)
    expect(page.locator("#taps")).to_be_visible()
    check_first_screen(page, "the round starts", undo=False)

    for seat, kind, count in [(1, "points", 2), (1, "miss", 0), (2, "points", 1), (2, "miss", 0)]:
        server_tap(table, seat, kind, count)
    expect(page.locator("#recent .recent li")).to_have_count(4)
    check_first_screen(page, "four entries")
    page.get_by_text("Enter the dice instead").click()
    check_first_screen(page, "the dice entry open")

    ring_the_bell(night)
    expect(page.locator("#board")).to_contain_text("Still to roll once")
    check_first_screen(page, "the bell, two still to roll", extra=["#board button.done"])
    server_tap(table, 3, "miss")
    server_tap(table, 4, "miss")
    expect(page.locator("#board .bell-banner")).not_to_contain_text("Still to roll once")
    check_first_screen(page, "the bell", extra=["#board button.done"])

    # Offline, four taps wait on the phone: the latest one's Cancel is the undo at hand.
    page.context.set_offline(True)
    until(page, "navigator.onLine === false", "the page does not know it is offline")
    for _ in range(4):
        page.locator("#taps button[value='points:1']").click()
    expect(page.locator("#queue .parked.waiting")).to_have_count(4)
    check_first_screen(page, "four taps waiting offline", extra=["#board button.done"])
    page.context.set_offline(False)
    expect(page.locator("#queue .parked.waiting")).to_have_count(0)

    # Another table tied 0-0 taps Done: extra turns (docs/rules.md section 3.4).
    for seat in range(1, 5):
        server_tap(other, seat, "miss")
    table_done(table=other)
    tied = table_phone(contexts, f"{live_server.url}/t/{other.token}/", width, height, text)
    expect(tied.locator("#board")).to_contain_text("It's a tie!")
    # The turns before the tie are no longer undone from the table (section 6.2)...
    check_first_screen(tied, "a tie's extra turns", undo=False, extra=["#board button.done"])
    tied.locator("#taps button[value='points:1']").click()  # ...the extra turns are
    expect(tied.locator("#recent .recent button.undo")).to_have_count(1)
    check_first_screen(tied, "an extra turn entered", extra=["#board button.done"])


LONG_NAMES = [
    "Zoë Margaretha Worthington-Smythe 🎲",
    "Bartholomew Alexander Fitzgerald-Montgomery",
    "Anastasia Konstantinovna Rimskaya-Korsakova",
    "Maximiliana Josephine Vanderbilt-Hohenzollern",
    "Christopher Jonathan Featherstonehaugh",
    "Guinevere Rosalind Ashby-Cholmondeley",
    "Fitzwilliam Darcy Pemberley-Bennet",
    "Evangeline Seraphina Blackwood-Thornton",
    "Sebastian Aurelio Castellanos-Villanueva",
    "Philippa Wilhelmina Montague-Beauchamp",
    "Jean-Baptiste Emmanuel Delacroix-Dubois",
]

# Under "Who's rolling?", the chips: no empty room between the legend and the first chip.
GAP_UNDER_LEGEND = """() => {
  const legend = document.querySelector('#taps .roller legend');
  const chip = document.querySelector('#taps label.chip');
  const shown = [...legend.childNodes].map(n => {
    if (n.nodeType !== Node.TEXT_NODE) return n;
    const r = document.createRange();
    r.selectNode(n);
    return r;
  }).filter(n => n instanceof Range || getComputedStyle(n).visibility !== 'hidden').map(n => {
    return n.getBoundingClientRect().bottom;
  });
  return Math.round(chip.getBoundingClientRect().top - Math.max(...shown));
}"""


@pytest.mark.parametrize("text", TEXT)
@pytest.mark.parametrize("width,height", SIZES)
def test_a_table_of_three_with_long_names_at_the_bell_fits_the_first_screen(
    contexts, live_server, width, height, text
):
    # Eleven players: tables of 4, 4 and 3.
    night = named_night(LONG_NAMES)
    three = next(t for t in night.tables.all() if table_page(t).here.size == 3)
    head = night.tables.get(number=1)
    page = table_phone(contexts, f"{live_server.url}/t/{three.token}/", width, height, text)
    expect(page.locator("#taps")).to_be_visible()
    page.locator("#taps button[value='points:1']").click()
    expect(page.locator("#recent .recent li")).to_have_count(1)
    check_first_screen(page, "the round starts, long names", undo=False, taps=3)
    gap = page.evaluate(GAP_UNDER_LEGEND)
    assert gap <= 12, f"{gap} px of nothing under Who's rolling? on {page.viewport_size}"
    check_first_screen(page, "a tap entered, long names", taps=3)

    for seat in range(1, table_page(head).here.size + 1):
        server_tap(head, seat, "miss")
    for _ in range(11):
        server_tap(head, 1, "points", 2)
    expect(page.locator("#board")).to_contain_text("Still to roll once")
    check_first_screen(
        page, "the bell, two long names still to roll", taps=3, extra=["#board button.done"]
    )


# A real night's names: two words, some wrapping to two lines under "Who's rolling?".
REAL_NAMES = [
    "Ann Marie Baxter",
    "Hattie Johnson",
    "Gloria Fernández",
    "Bartholomew Reyes",
    "Bea Okonkwo-Adams",
    "Eleanor Pettigrew",
    "Margaret O'Donnell",
    "Dorothy Whitfield",
    "Josephine Carter",
    "Rosemary Lindqvist",
    "Wilhelmina Brooks",
    "Constance Abernathy",
]

# The names in the bell's banner and the score boxes that are cut ("Eleanor P…").
CUT_NAMES = """() => [...document.querySelectorAll('.bell-banner .who, .score-box .side-names')]
  .filter(el => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1)
  .map(el => el.textContent.trim())"""


@pytest.mark.parametrize("text", TEXT)
@pytest.mark.parametrize("width,height", SIZES)
def test_the_bell_with_three_still_to_roll_and_two_line_names_fits_the_first_screen(
    contexts, live_server, width, height, text
):
    night = named_night(REAL_NAMES)
    table = night.tables.get(number=2)
    page = table_phone(contexts, f"{live_server.url}/t/{table.token}/", width, height, text)
    expect(page.locator("#taps")).to_be_visible()
    server_tap(table, 1, "points", 1)  # one has rolled: three still to roll
    expect(page.locator("#recent .recent li")).to_have_count(1)
    ring_the_bell(night)
    expect(page.locator("#board")).to_contain_text("Still to roll once")
    check_first_screen(page, "the bell, three still to roll", extra=["#board button.done"])
    # Every name there is read whole: by first name where room is short.
    assert page.evaluate(CUT_NAMES) == []
    expect(page.locator(".bell-banner .who")).to_have_count(3)


@pytest.mark.parametrize("text", TEXT)
@pytest.mark.parametrize("width,height", SIZES)
def test_a_tie_at_a_table_of_three_keeps_its_extra_turns_on_the_first_screen(
    contexts, live_server, width, height, text
):
    # Eleven players: tables of 4, 4 and 3. The three tie 0-0-0 at the bell: one more turn
    # each (docs/rules.md section 3.4), the news and its button at the top.
    night = named_night(REAL_NAMES[:11])
    three = next(t for t in night.tables.all() if table_page(t).here.size == 3)
    ring_the_bell(night)
    for seat in range(1, 4):
        server_tap(three, seat, "miss")
    table_done(table=three)
    page = table_phone(contexts, f"{live_server.url}/t/{three.token}/", width, height, text)
    expect(page.locator("#board")).to_contain_text("It's a tie!")
    done = ["#board button.done"]
    check_first_screen(page, "a tie's extra turns", undo=False, taps=3, extra=done)
    page.locator("#taps button[value='points:1']").click()
    expect(page.locator("#recent .recent button.undo")).to_have_count(1)
    check_first_screen(page, "an extra turn entered", taps=3, extra=done)


@pytest.mark.parametrize("text", TEXT)
@pytest.mark.parametrize("width,height", SIZES)
def test_a_side_table_past_its_target_is_told_to_keep_rolling(
    contexts, live_server, width, height, text
):
    """Under head-table control the target does not stop the other tables (docs/rules.md
    section 3.1): a side there at 22 reads that it keeps rolling until the bell, with the
    controls and the latest Undo still on the first screen, long names too."""
    night = named_night(LONG_FOURS)
    table = night.tables.get(number=2)
    for _ in range(11):
        server_tap(table, 1, "points", 2)
    page = table_phone(contexts, f"{live_server.url}/t/{table.token}/", width, height, text)
    note = page.get_by_role("status").filter(has_text="keep rolling")
    expect(note).to_have_text("21 reached: keep rolling until the bell.")
    check_first_screen(page, "a side table at 22 before the bell")


# Each chip whose name is cut at two lines ("…"): its index among the chips, its box, its
# own colour ("r,g,b") and where the room under its two centred lines starts and ends.
CUT_CHIPS = """() => [...document.querySelectorAll('#taps .chip span')].map((el, index) => {
  const style = getComputedStyle(el);
  if (style.webkitLineClamp !== '2' || el.scrollHeight <= el.clientHeight) return null;
  const box = el.getBoundingClientRect();
  const px = name => parseFloat(style[name]);
  const top = box.top + px('borderTopWidth') + px('paddingTop');
  const bottom = box.bottom - px('borderBottomWidth') - px('paddingBottom');
  return {index, name: el.textContent.trim(), top: box.top, width: box.width,
          radius: px('borderTopLeftRadius'), under: (top + bottom) / 2 + px('lineHeight'),
          bottom, colour: style.backgroundColor.match(/\\d+/g).slice(0, 3).join(',')};
}).filter(Boolean)"""


def strays(page, chip: dict) -> int:
    """How many pixels of ``chip`` under its two lines are not its own colour: what shows
    of a third line."""
    shot = Image.open(io.BytesIO(page.locator("#taps .chip span").nth(chip["index"]).screenshot()))
    scale = shot.width / chip["width"]
    upper = round((chip["under"] - chip["top"]) * scale) + 1
    lower = round((chip["bottom"] - chip["top"]) * scale) - 1
    if lower <= upper:  # the two lines fill the chip
        return 0
    left, right = round(chip["radius"] * scale), round((chip["width"] - chip["radius"]) * scale)
    own = tuple(int(c) for c in chip["colour"].split(","))
    band = shot.convert("RGB").crop((left, upper, right, lower)).tobytes()
    pixels = (band[i : i + 3] for i in range(0, len(band), 3))
    return sum(
        1 for pixel in pixels if max(abs(a - b) for a, b in zip(pixel, own, strict=True)) > 40
    )


@pytest.mark.parametrize("width,height", SIZES)
@pytest.mark.parametrize("names", [LONG_FOURS, LONG_NAMES], ids=["fours", "three"])
def test_a_name_cut_at_two_lines_shows_nothing_of_a_third(
    contexts, live_server, width, height, names
):
    """Bigger text and long names: a chip's name cut at two lines ("…"), centred in a chip a
    neighbour's name may make taller, shows nothing of its third line under the two."""
    night = named_night(names)
    cut = 0
    for table in night.tables.all():
        page = table_phone(contexts, f"{live_server.url}/t/{table.token}/", width, height, "bigger")
        expect(page.locator("#taps")).to_be_visible()
        for chip in page.evaluate(CUT_CHIPS):
            cut += 1
            assert strays(page, chip) == 0, f"{chip['name']} shows a third line: {chip}"
        page.close()
    assert cut, "no name was cut at two lines"
