"""Bigger text on the phone pages: one tap, remembered by the phone, on before the first
paint, and the table page still fits a 320 px phone."""

import pytest
from playwright.sync_api import expect

from bunco_night.play.services import bell_ring
from tests.browser.helpers import named_night
from tests.browser.test_phone_fit import WIDEST
from tests.factories import make_group, make_night
from tests.play.helpers import start_night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Whether <html> has the class at the moment <body> first appears, before anything is painted.
AT_FIRST_BODY = """
new MutationObserver(function (records, observer) {
  if (!document.body) return;
  window.biggerAtBody = document.documentElement.classList.contains("text-bigger");
  observer.disconnect();
}).observe(document, { childList: true, subtree: true });
"""


def font_px(locator) -> float:
    return locator.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")


def test_bigger_text_is_remembered_by_the_phone_from_the_first_paint(contexts, live_server):
    night = make_night(make_group(regulars=8, substitutes=0), sets=1)
    start_night(night, seed=1)
    bell_ring(night=night)
    table_url = f"{live_server.url}/t/{night.tables.get(number=1).token}/"
    context = contexts(viewport={"width": 320, "height": 568}, has_touch=True)
    context.add_init_script(AT_FIRST_BODY)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(table_url)

    toggle = page.get_by_role("button", name="Bigger text")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    # The news grows (the scores' big digits keep their size: tests/browser/test_first_screen.py).
    news = page.locator(".bell-banner").first
    normal = font_px(news)
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    assert font_px(news) >= normal * 1.15

    page.reload()
    assert page.evaluate("window.biggerAtBody") is True
    expect(page.get_by_role("button", name="Bigger text")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#board")).to_contain_text("BELL!")
    wide, screen = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert wide <= screen, f"{wide} px wide on a {screen} px phone: {page.evaluate(WIDEST)}"

    attendance = night.attendances.order_by("pk").first()
    page.goto(f"{live_server.url}/p/{attendance.token}/")  # the same phone, a player's page
    assert page.evaluate("window.biggerAtBody") is True
    wide, screen = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert wide <= screen, (
        f"the player's page: {wide} px wide on a {screen} px phone: {page.evaluate(WIDEST)}"
    )
    page.get_by_role("button", name="Bigger text").click()
    page.reload()
    assert page.evaluate("window.biggerAtBody") is False
    toggle = page.get_by_role("button", name="Bigger text")
    expect(toggle).to_have_attribute("aria-pressed", "false")


# The words of each roller's chip, and of each side's names over its score, that the
# page splits over two lines ("Gwendol" / "yn").
WORDS_SPLIT = """() => [
  ...document.querySelectorAll('#taps .chip span, .score-box .side-names')
].flatMap(span => {
  const text = span.firstChild, split = [];
  for (const m of text.data.matchAll(/\\S+/g)) {
    const range = document.createRange();
    range.setStart(text, m.index);
    range.setEnd(text, m.index + m[0].length);
    const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
    if (lines.size > 1) split.push(m[0]);
  }
  return split;
})"""

# Chips whose text runs past their edge, or past the screen's.
CHIPS_OVERFLOWING = """() => [...document.querySelectorAll('#taps .chip span')].filter(span =>
  span.scrollWidth > span.clientWidth || span.getBoundingClientRect().right > innerWidth
).map(span => span.textContent.trim())"""

LONG_WORD = "Wolfeschlegelsteinhausenbergerdorff"


def chip_sizes(page) -> dict[str, float]:
    return dict(
        page.locator("#taps .chip span").evaluate_all(
            "all => all.map(e => [e.textContent.trim(), parseFloat(getComputedStyle(e).fontSize)])"
        )
    )


@pytest.mark.parametrize("width,height", [(320, 640), (360, 740)])
def test_with_bigger_text_a_chip_wraps_a_name_only_between_its_words(
    contexts, live_server, width, height
):
    """Who's rolling? names each player on a chip: with bigger text on the narrowest phones
    a name wraps between its words, never "Gwendol-yn". A chip's text shrinks only as its
    longest word needs, so a name of ordinary words is still bigger than without bigger
    text; a word too long for any chip (a surname of 35 letters) may shrink or break, but
    stays inside its chip and the screen."""
    names = [
        "Margaret Thompson",
        "Christopher Lee",
        "Bartholomew Ng",
        "Gwendolyn Price",
        "Maximilian Ortiz",
        "Alexandrina Bell",
        "Wilhelmina Cho",
        "Bernadette Okafor",
        "Evangeline Moss",
        "Josephine Hart",
        "Philippa Gray",
        f"Hubert {LONG_WORD}",
    ]
    night = named_night(names)
    context = contexts(viewport={"width": width, "height": height}, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    shown, normal = [], None
    for table in night.tables.order_by("number"):
        page.goto(f"{live_server.url}/t/{table.token}/")
        toggle = page.get_by_role("button", name="Bigger text")
        if normal is None:
            normal = max(chip_sizes(page).values())
            toggle.click()
        expect(toggle).to_have_attribute("aria-pressed", "true")
        expect(page.locator("#taps .chip span")).to_have_count(4)
        what = f"table {table.number} at {width} px with bigger text"
        split = [word for word in page.evaluate(WORDS_SPLIT) if word != LONG_WORD]
        assert split == [], f"{what}: split over two lines: {split}"
        assert page.evaluate(CHIPS_OVERFLOWING) == [], what
        sizes = chip_sizes(page)
        ordinary = [n for n in sizes if max(len(word) for word in n.split()) <= 9]
        assert all(sizes[n] > normal for n in ordinary), f"{what}: {sizes}, {normal} px without"
        wide, screen = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
        assert wide <= screen, f"{what}: {wide} px wide: {page.evaluate(WIDEST)}"
        shown += sizes
        page.locator("#taps .chip").first.click()
        page.locator("#taps button[value='miss']").click()  # the board is drawn again
        expect(page.locator("#recent li")).to_have_count(1)
        split = [word for word in page.evaluate(WORDS_SPLIT) if word != LONG_WORD]
        assert split == [], f"{what}, the board drawn again: split over two lines: {split}"
    assert sorted(" ".join(text.split()) for text in shown) == sorted(names)


# Every animation of the page held at its middle, where a pulse is at its largest.
AT_THE_PEAK = """() => document.getAnimations().forEach(a => {
  a.pause();
  a.currentTime = (a.effect.getComputedTiming().duration || 0) / 2;
})"""


def test_the_bell_banner_pulses_without_widening_a_320_px_phone(contexts, live_server):
    night = make_night(make_group(regulars=8, substitutes=0), sets=1)
    start_night(night, seed=1)
    bell_ring(night=night)
    attendance = night.attendances.order_by("pk").first()
    context = contexts(viewport={"width": 320, "height": 568}, has_touch=True)
    page = context.new_page()
    for path in (f"/t/{night.tables.get(number=1).token}/", f"/p/{attendance.token}/"):
        page.goto(live_server.url + path)
        page.get_by_role("button", name="Bigger text").click()
        expect(page.locator(".bell-banner").first).to_be_visible()
        page.evaluate(AT_THE_PEAK)
        assert page.evaluate("document.getAnimations().length") > 0  # the pulse is held
        wide, screen = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
        assert wide <= screen, f"{path}: {wide} px wide on a {screen} px phone"


# Score buttons whose label ("BUNCO!") is wider than the button leaves it room.
LABELS_OVERFLOWING = """() => [...document.querySelectorAll('#taps button.tap')].filter(b => {
  const label = document.createRange(), style = getComputedStyle(b);
  label.selectNodeContents(b.firstChild);
  const room = b.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return label.getBoundingClientRect().width > room + 0.5 || b.scrollWidth > b.clientWidth;
}).map(b => b.firstChild.data.trim())"""


def test_with_bigger_text_each_score_button_holds_its_label(contexts, live_server):
    """The score buttons are big already: with Bigger text they keep their size (room for
    the names and the news on the first screen), never smaller, each label whole."""
    night = make_night(make_group(regulars=8, substitutes=0), sets=1)
    start_night(night, seed=1)
    url = f"{live_server.url}/t/{night.tables.get(number=2).token}/"
    sizes = "all => all.map(b => parseFloat(getComputedStyle(b).fontSize))"
    for width in (320, 360, 390, 412):
        page = contexts(viewport={"width": width, "height": 740}, has_touch=True).new_page()
        page.goto(url)
        normal = page.locator("#taps button.tap").evaluate_all(sizes)
        page.get_by_role("button", name="Bigger text").click()
        expect(page.get_by_role("button", name="Bigger text")).to_have_attribute(
            "aria-pressed", "true"
        )
        assert page.evaluate(LABELS_OVERFLOWING) == [], f"{width} px"
        labels = page.locator("#taps button.tap").evaluate_all(sizes)
        assert all(b >= n - 0.1 for b, n in zip(labels, normal, strict=True)), (
            f"{width} px: shrunk: {labels}, {normal} without Bigger text"
        )
        # A side's target over its score ("to 21") is one line, not "to" over "21".
        lines = page.locator(".score-box .target").evaluate_all(
            "all => all.map(t => new Set([...t.getClientRects()].map(r => Math.round(r.top))).size)"
        )
        assert lines == [1, 1], f"{width} px: {lines}"
