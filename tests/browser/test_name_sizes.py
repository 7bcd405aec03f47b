"""A name on the table phone is never made smaller than the page's own text to fit: a
roller's chip whose name does not fit half a row takes the whole row, and only a word too
long for that breaks. Pressing Bigger text never makes a name smaller than without it."""

import pytest
from playwright.sync_api import expect

from bunco_night.play.pages import table_page
from tests.browser.helpers import named_night
from tests.browser.test_phone_fit import WIDEST
from tests.browser.test_text_size import CHIPS_OVERFLOWING, LONG_WORD
from tests.play.helpers import tap as server_tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The words of each roller's chip that the page splits over two lines ("Gwendol" / "yn").
CHIP_WORDS_SPLIT = """() => [...document.querySelectorAll('#taps .chip span')].flatMap(span => {
  const text = span.firstChild, split = [];
  for (const m of text.data.matchAll(/\\S+/g)) {
    const range = document.createRange();
    range.setStart(text, m.index);
    range.setEnd(text, m.index + m[0].length);
    if (new Set([...range.getClientRects()].map(r => Math.round(r.top))).size > 1) {
      split.push(m[0]);
    }
  }
  return split;
})"""

# The font size of each side's names over its score.
SIDE_NAMES = """() => [...document.querySelectorAll('.score-box .side-names')].map(
  e => parseFloat(getComputedStyle(e).fontSize))"""

# Each chip's name, its font size, and whether its chip takes the whole row.
CHIPS = """() => [...document.querySelectorAll('#taps .chip span')].map(span => [
  span.textContent.trim(), parseFloat(getComputedStyle(span).fontSize),
  span.closest('.chip').getBoundingClientRect().width > innerWidth * 0.6])"""

NAMES = [
    "Bartholomew Ng",  # the 11-letter word that bigger text shrank below the page's text
    "Amy Li",
    "Maximiliana Featherstonehaugh",
    "Jo Park",
    "Evangeline Moss",
    "Tom Hart",
    "Bo Cho",
    f"Hubert {LONG_WORD}",
]


@pytest.mark.parametrize("width,height", [(320, 640), (390, 844)])
def test_a_name_is_never_shrunk_below_the_page_s_text(contexts, live_server, width, height):
    night = named_night(NAMES)
    context = contexts(viewport={"width": width, "height": height}, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(30_000)
    seen = {}
    for table in night.tables.order_by("number"):
        page.goto(f"{live_server.url}/t/{table.token}/")
        expect(page.locator("#taps .chip span")).to_have_count(4)
        toggle = page.get_by_role("button", name="Bigger text")
        if toggle.get_attribute("aria-pressed") == "true":
            toggle.click()
        # The page's own text size, without Bigger text.
        text = page.evaluate("parseFloat(getComputedStyle(document.documentElement).fontSize)")
        for bigger in (False, True):
            if bigger:
                toggle.click()
                expect(toggle).to_have_attribute("aria-pressed", "true")
            what = f"table {table.number} at {width} px, bigger text {bigger}"
            chips = page.evaluate(CHIPS)
            for name, size, wide in chips:
                seen.setdefault(name, {})[bigger] = (size, wide)
            if not bigger:  # the sizes without Bigger text, the least with it
                normal = max(size for _, size, _ in chips)
                least_sides = max(page.evaluate(SIDE_NAMES))
            assert all(size >= normal for _, size, _ in chips), f"{what}: {chips}"
            assert normal >= 0.9 * text, f"{what}: {normal} px chips, {text} px text"
            split = [w for w in page.evaluate(CHIP_WORDS_SPLIT) if w != LONG_WORD]
            assert split == [], f"{what}: split over two lines: {split}"
            # A side's names keep at least their size without Bigger text ("Feather-
            # stonehaugh" breaks over two lines rather than get smaller).
            sides = page.evaluate(SIDE_NAMES)
            assert min(sides) >= least_sides, f"{what}: {sides}"
            assert page.evaluate(CHIPS_OVERFLOWING) == [], what
            wide, screen = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
            assert wide <= screen, f"{what}: {wide} px wide: {page.evaluate(WIDEST)}"
    assert sorted(seen) == sorted(NAMES)
    for name, sizes in seen.items():  # Bigger text never makes a name smaller
        assert sizes[True][0] >= sizes[False][0], (width, name, sizes)
    # The name of a 35-letter word takes the whole row, at the page's size, broken.
    assert seen[f"Hubert {LONG_WORD}"][True][1] and seen[f"Hubert {LONG_WORD}"][False][1]
    # An ordinary name shares its row.
    assert not seen["Amy Li"][True][1] and not seen["Amy Li"][False][1]


# Each chip whose name is one line: how far the line's middle lies from its chip's middle.
ONE_LINE_OFF_MIDDLE = """() => [...document.querySelectorAll('#taps .chip span')].flatMap(span => {
  const range = document.createRange();
  range.selectNodeContents(span);
  const lines = [...range.getClientRects()].filter(r => r.height > 0);
  if (new Set(lines.map(r => Math.round(r.top))).size !== 1) return [];
  const text = range.getBoundingClientRect(), chip = span.getBoundingClientRect();
  return [[span.textContent.trim(),
           Math.round(((text.top + text.bottom) - (chip.top + chip.bottom)) / 2 * 10) / 10]];
})"""


@pytest.mark.parametrize("width,height", [(360, 740), (390, 844)])
def test_a_one_line_name_at_a_table_of_three_sits_in_the_middle_of_its_chip(
    contexts, live_server, width, height
):
    # Eleven players: tables of 4, 4 and 3; a long name makes its chip two lines tall.
    night = named_night(["Amy Li", "Bo Cho", "Jo Park", "Tom Hart", "Ann Fox", "Kim Ng",
                         "Lu Diaz", "Sal Ito", "Gail Reed", "Zoë Bell",
                         "Maximiliana Josephine Vanderbilt"])  # fmt: skip
    context = contexts(viewport={"width": width, "height": height}, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    for table in night.tables.order_by("number"):
        page.goto(f"{live_server.url}/t/{table.token}/")
        expect(page.locator("#taps")).to_be_visible()
        if page.locator("#taps .chip").count() != 3:
            continue
        off = page.evaluate(ONE_LINE_OFF_MIDDLE)
        assert off, f"no one-line name at table {table.number}"
        assert all(abs(d) <= 1.5 for _, d in off), f"{width}x{height}: {off}"
        break
    else:
        raise AssertionError("no table of three")


# A real night's names at a table of three and two of four (seed 3).
EVERYDAY = ["Ann Marie Baxter", "Fran Kowalski", "Kay Sato", "Maggie Reyes", "Gloria Nguyen",
            "Eleanor Park", "Dee Whitfield", "Bea Okafor", "Hattie Johnson", "Irene O'Brien",
            "Carla Mendes"]  # fmt: skip

# Each chip's name that is not shown whole: cut across ("Whitfi…") or under its last line.
CHIPS_CUT = """() => [...document.querySelectorAll('#taps .chip span')].filter(span =>
  span.scrollWidth > span.clientWidth + 1 || span.scrollHeight > span.clientHeight + 1
).map(span => span.textContent.trim())"""

# Each of the latest entries: the roller's name as shown (null where the page cuts it with
# text-overflow, which leaves a gap before the colon: "Hatti…  : BUNCO +21"), as a screen
# reader reads it, the room between its end and the colon, and whether the line runs under
# its Undo.
ENTRIES = """() => [...document.querySelectorAll('#recent .recent li')].map(li => {
  const who = li.querySelector('.entry-who'), colon = document.createRange();
  const texts = document.createTreeWalker(li, NodeFilter.SHOW_TEXT);
  for (let n = texts.nextNode(); n; n = texts.nextNode()) {
    if (who.contains(n) || n.data.indexOf(':') < 0) continue;
    colon.setStart(n, n.data.indexOf(':'));
    colon.setEnd(n, n.data.indexOf(':') + 1);
    break;
  }
  const undo = li.querySelector('button.undo'), what = li.querySelector('b');
  const right = Math.max(...[who, what].map(e => e.getBoundingClientRect().right));
  const gap = colon.getBoundingClientRect().left - who.getBoundingClientRect().right;
  const under = right > (undo ? undo.getBoundingClientRect().left : innerWidth);
  return [who.scrollWidth > who.clientWidth ? null : who.dataset.cut || who.textContent,
    who.textContent, Math.round(gap), under];
})"""


@pytest.mark.parametrize("text", ["normal", "bigger"])
@pytest.mark.parametrize("width,height", [(360, 640), (390, 844)])
def test_a_name_that_fits_is_whole_and_one_cut_ends_at_its_colon(
    contexts, live_server, width, height, text
):
    """Everyday names are whole on the chips, at a table of three too (two chips a row
    when a word does not fit a third of it: "Dee Whitfield", not "Dee Whitfi…"). In the
    latest entries a name is whole where the line beside Undo has room ("Kay Sato: Miss"),
    else cut at its end, its "…" right before the colon: "Hattie Joh…: BUNCO +21", not
    "Hatti…  : BUNCO +21"."""
    night = named_night(EVERYDAY)
    context = contexts(viewport={"width": width, "height": height}, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    tables = list(night.tables.order_by("number"))
    assert sorted(table_page(t).here.size for t in tables) == [3, 4, 4]
    fitting = 0
    for number, table in enumerate(tables):
        seats = sorted(table_page(table).seats, key=lambda seat: len(seat[1]))
        (short, *_, (seat, name, _)) = seats
        server_tap(table, short[0], "miss")
        server_tap(table, seat, "bunco")
        page.goto(f"{live_server.url}/t/{table.token}/")
        toggle = page.get_by_role("button", name="Bigger text")
        if number == 0 and text == "bigger":
            toggle.click()
        expect(toggle).to_have_attribute("aria-pressed", str(text == "bigger").lower())
        expect(page.locator("#recent .recent li")).to_have_count(2)
        what = f"table {table.number} ({len(seats)} seats) at {width} px, {text} text"
        assert page.evaluate(CHIPS_CUT) == [], what
        (shown, read, gap, past), (*whole, _, _) = page.evaluate(ENTRIES)
        assert read == name, f"{what}: a screen reader reads {read!r}"
        assert shown is not None, f"{what}: {name!r} cut by the page, a gap before its colon"
        assert shown == name or (shown.endswith("…") and name.startswith(shown[:-1])), what
        assert gap <= 1, f"{what}: {gap} px between {shown!r} and its colon"
        assert not past, f"{what}: the entry runs under its Undo"
        if len(short[1]) <= 10:  # "Kay Sato: Miss", "Bea Okafor: Miss"
            assert whole == [short[1], short[1]], f"{what}: {whole} cut where it fits"
            fitting += 1
    assert fitting > 0


# Each latest entry's name, colon and what it scored: the top of each, in px.
ENTRY_LINES = """() => [...document.querySelectorAll('#recent .recent li')].map(li =>
  ['.entry-who', '.entry-colon', '.entry-what'].map(
    s => Math.round(li.querySelector(s).getBoundingClientRect().top)))"""


@pytest.mark.parametrize("width,height", [(360, 640), (360, 740)])
def test_a_name_too_long_for_its_line_keeps_its_colon(contexts, live_server, width, height):
    """A name whose first word is too long to cut beside Undo takes two lines: the name
    (cut if it must be) with its colon on the first, what the roll scored on the second;
    never the colon alone on a line of its own."""
    names = ["<b>Zoë</b> O'Neil-Featherstonehaugh 🎲", "Amy Li", "Jo Park", "Bo Cho"]
    night = named_night(names)
    table = night.tables.get(number=1)
    seat = next(s for s, name, _ in table_page(table).seats if name == names[0])
    server_tap(table, seat, "bunco")
    page = contexts(viewport={"width": width, "height": height}, has_touch=True).new_page()
    page.goto(f"{live_server.url}/t/{table.token}/")
    expect(page.locator("#recent .recent li.two-lines")).to_have_count(1)
    ((who, colon, what),) = page.evaluate(ENTRY_LINES)
    assert colon == who < what, f"name at {who}, colon at {colon}, score at {what}"


# Each score box's number: how many lines it takes, and whether it runs past its box.
SCORE_LINES = """() => [...document.querySelectorAll('.score-box .score')].map(e => {
  const range = document.createRange();
  range.selectNodeContents(e);
  const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top))).size;
  const box = e.closest('.score-box').getBoundingClientRect(), text = range.getBoundingClientRect();
  return [e.textContent.trim(), lines, text.left >= box.left && text.right <= box.right];
})"""


@pytest.mark.parametrize("width,height", [(360, 640), (390, 844)])
def test_a_score_stays_whole_in_a_table_of_four(contexts, live_server, width, height):
    """Four players each for themselves at the one table: four score boxes in a row. A
    score is never split over two lines ("2" over "1"), nor runs past its box: 41 (a bunco
    on 20) is the most a seat can have when the table stops."""
    night = named_night(["Amy Li", "Jo Park", "Bo Cho", "Kay Sato"])
    table = night.tables.get(number=1)
    seat = table_page(table).seats[1][0]
    for _ in range(10):
        server_tap(table, seat, "points", 2)
    server_tap(table, seat, "bunco")
    page = contexts(viewport={"width": width, "height": height}, has_touch=True).new_page()
    page.goto(f"{live_server.url}/t/{table.token}/")
    expect(page.locator("#recent .recent li")).not_to_have_count(0)
    scores = page.evaluate(SCORE_LINES)
    assert "41" in [s[0] for s in scores], scores
    assert [s for s in scores if s[1] != 1 or not s[2]] == []
