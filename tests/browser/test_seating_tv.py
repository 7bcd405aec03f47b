"""The seating chart on a TV ("Show on TV"): a TV cannot scroll, so any night's seating fits
the screen at 1280x720, 1280x800 and 1920x1080, every card holding its names (up to 40
characters) whole; a night with more tables than one screen holds comes in pages that
turn by themselves, as the room screen's do; without scripts every page shows, and the TV
scrolls."""

import pytest

from bunco_night.groups.models import Player
from bunco_night.nights.models import Attendance
from bunco_night.nights.services import attendance_set, guest_add, seating_draw
from tests.browser.helpers import host_page, until
from tests.factories import make_group, make_night
from tests.play.helpers import start_night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TVS = [(1280, 720), (1280, 800), (1920, 1080)]

# The page shown: its number, how far the document scrolls, the screen, every table card
# (its title, box, and how much of it its overflow hides), every seat name's font size
# and whether its box lies inside its card's, and whether each seat's tag does.
SHOWN = """() => {
  const shown = [...document.querySelectorAll('[data-page]')].filter(p => !p.hidden);
  const page = shown[0] || document.getElementById('tv-chart');  // a chart without pages
  const cards = [...page.querySelectorAll('.table-card')].map(card => {
    const box = card.getBoundingClientRect();
    const names = [...card.querySelectorAll('.seat-name')].map(n => {
      const r = n.getBoundingClientRect();
      return {text: n.textContent.trim(), size: parseFloat(getComputedStyle(n).fontSize),
              inside: r.left >= box.left - 0.5 && r.right <= box.right + 0.5
                      && r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5};
    });
    const tags = [...card.querySelectorAll('.seat-tag')].map(n => {
      const r = n.getBoundingClientRect();
      return {text: n.querySelector('[aria-hidden]').textContent.trim(),
              inside: r.left >= box.left - 0.5 && r.right <= box.right + 0.5
                      && r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5};
    });
    return {title: card.querySelector('.table-title').textContent.trim(),
            top: box.top, bottom: box.bottom, left: box.left, right: box.right,
            hidden: [card.scrollHeight - card.clientHeight, card.scrollWidth - card.clientWidth],
            names: names, tags: tags};
  });
  return {number: Number(page.dataset.page || 0), pages: shown.length || 1,
          scroll: [document.scrollingElement.scrollHeight, document.scrollingElement.scrollWidth],
          screen: [innerWidth, innerHeight], cards: cards,
          note: (page.querySelector('.tv-note') || {}).textContent || ''};
}"""

# Each poll of the chart (10 s; 2.5 s in tests) swaps it whole: the page shown before it and after.
SWAPS = """() => {
  const shown = () => [...document.querySelectorAll('[data-page]')]
    .filter(p => !p.hidden).map(p => p.dataset.page).join();
  window.tvSwaps = [];
  let before;
  document.body.addEventListener('htmx:beforeSwap', () => { before = shown(); });
  document.body.addEventListener('htmx:afterSwap', () => {
    window.tvSwaps.push([before, shown()]);
  });
}"""

LONG_NAME = "Bartholomew Featherstonehaugh-Smith"  # with " 007": 39 characters


def night_of(players: int):
    """A night of ``players`` regulars seated for round 1, every fourth one with a name
    of nearly 40 characters."""
    group = make_group(regulars=players, substitutes=0)
    for i, player in enumerate(Player.objects.filter(group=group).order_by("pk"), start=1):
        if i % 4 == 1:
            player.name = f"{LONG_NAME} {i:03d}"
            player.save()
    night = make_night(group, sets=1)
    rnd = start_night(night, seed=4)
    return night, {f"Table {n}" for n in rnd.seats.values_list("table__number", flat=True)}


def check_fits(shown: dict, what: str) -> set[str]:
    """Every card of the page shown lies inside the screen and shows all of its names;
    nothing scrolls. Gives the tables the page shows."""
    width, height = shown["screen"]
    assert shown["pages"] == 1, f"{what}: {shown['pages']} pages shown at once"
    assert shown["scroll"][0] <= height, f"{what}: {shown['scroll'][0]} px tall on a {height} px TV"
    assert shown["scroll"][1] <= width, f"{what}: {shown['scroll'][1]} px wide on a {width} px TV"
    for card in shown["cards"]:
        where = f"{what}, {card['title']}"
        assert card["top"] >= 0 and card["bottom"] <= height, f"{where}: {card}"
        assert card["left"] >= 0 and card["right"] <= width, f"{where}: {card}"
        assert card["hidden"][0] <= 0 and card["hidden"][1] <= 0, f"{where}: cut off {card}"
        for name in card["names"] + card["tags"]:
            assert name["inside"], f"{where}: {name['text']} leaves its card"
    return {card["title"].split(" ·")[0] for card in shown["cards"]}


def name_sizes(shown: dict) -> list[float]:
    return sorted(n["size"] for card in shown["cards"] for n in card["names"])


# Players, and how big most names are at the least, as a share of the TV's width: the
# room screen's names are 1.35 %; the fewer the tables, the bigger.
NIGHTS = [(8, 0.03), (16, 0.02), (20, 0.02), (60, 0.012)]


@pytest.mark.parametrize("players, most_names", NIGHTS)
def test_a_night_of_up_to_twenty_tables_fits_one_screen_of_every_tv(
    contexts, live_server, players, most_names
):
    night, tables = night_of(players)
    tv = host_page(contexts, live_server, night, path=f"/nights/{night.pk}/seating/tv/")
    for width, height in TVS:
        tv.set_viewport_size({"width": width, "height": height})
        tv.wait_for_timeout(200)  # the resize settles and the names are fitted
        shown = tv.evaluate(SHOWN)
        what = f"{players} players at {width}x{height}"
        assert check_fits(shown, what) == tables
        assert shown["number"] == 1 and "Page" not in shown["note"]
        sizes = name_sizes(shown)
        assert sizes[len(sizes) // 2] >= most_names * width, (what, sizes)
        # A card of long names makes them smaller, never too small to read.
        assert sizes[0] >= 0.008 * width, (what, sizes)


def test_a_night_of_fifty_tables_turns_its_pages_by_themselves(contexts, live_server):
    """200 players: three pages of 17, 17 and 16 tables, each on one screen, that turn by
    themselves; the chart's poll every 10 s keeps the page shown."""
    night, tables = night_of(200)
    tv = host_page(contexts, live_server, night, path=f"/nights/{night.pk}/seating/tv/")
    for width, height in reversed(TVS):  # the pages then turn on the smallest
        tv.set_viewport_size({"width": width, "height": height})
        tv.wait_for_timeout(200)
        shown = tv.evaluate(SHOWN)
        check_fits(shown, f"200 players at {width}x{height}")
        assert name_sizes(shown)[0] >= 0.008 * width
    tv.evaluate(SWAPS)
    first = tv.evaluate(SHOWN)["number"]
    seen: set[str] = set()
    for turn in range(4):  # round the three pages and back to the first
        number = (first - 1 + turn) % 3 + 1
        until(tv, f"!document.querySelector('[data-page=\"{number}\"]').hidden", f"page {number}")
        shown = tv.evaluate(SHOWN)
        assert shown["number"] == number and f"Page {number} of 3" in shown["note"]
        on_page = check_fits(shown, f"200 players, page {number}")
        assert len(on_page) in (16, 17)
        seen |= on_page
    assert seen == tables
    swaps = tv.evaluate("window.tvSwaps")
    assert swaps and all(before == after for before, after in swaps), swaps


def test_without_scripts_every_page_shows_every_name(contexts, live_server):
    """A TV that runs no scripts: the three pages of 200 players one under another, every
    card whole, and the TV scrolls to them."""
    night, tables = night_of(200)
    tv = host_page(
        contexts, live_server, night, path=f"/nights/{night.pk}/seating/tv/", scripts=False
    )
    tv.set_viewport_size({"width": 1280, "height": 720})
    pages = tv.evaluate(
        """() => [...document.querySelectorAll('[data-page]')].map(p => ({
      shown: !!p.offsetParent, note: p.querySelector('.tv-note').textContent,
      cards: [...p.querySelectorAll('.table-card')].map(c => ({
        title: c.querySelector('.table-title').textContent.trim().split(' ·')[0],
        whole: c.scrollHeight <= c.clientHeight && c.scrollWidth <= c.clientWidth}))}))"""
    )
    assert [p["shown"] for p in pages] == [True, True, True]
    assert [f"Page {n} of 3" in p["note"] for n, p in enumerate(pages, start=1)] == [True] * 3
    assert {c["title"] for p in pages for c in p["cards"]} == tables
    assert all(c["whole"] for p in pages for c in p["cards"]), pages
    height = tv.evaluate("document.scrollingElement.scrollHeight")
    assert height > 3 * 600


# Each card js/fit.js made smaller: its title, its --fit, and whether it would overflow
# at a hundredth larger.
SHRUNK = """() => [...document.querySelectorAll('.table-card')]
  .filter(card => card.style.getPropertyValue('--fit')).map(card => {
    const fit = parseFloat(card.style.getPropertyValue('--fit'));
    card.style.setProperty('--fit', (fit + 0.01).toFixed(2));
    const over = card.scrollHeight > card.clientHeight || card.scrollWidth > card.clientWidth;
    card.style.setProperty('--fit', fit.toFixed(2));
    return [card.querySelector('.table-title').textContent.trim(), fit, over];
  })"""


@pytest.mark.parametrize("width,height", TVS)
def test_a_card_of_a_long_name_is_made_no_smaller_than_it_needs(
    contexts, live_server, width, height
):
    """13 players at 4 tables, one name of 21 letters that does not quite fit its card's
    line: that card's names are made smaller (js/fit.js fits each card on its own), but
    to within a hundredth of the size that fits, not a whole step of 5 % smaller."""
    group = make_group(regulars=13, substitutes=0)
    players = list(Player.objects.filter(group=group).order_by("pk"))
    players[0].name = "Carla Méndez-Hoffmann"
    players[0].save(update_fields=["name"])
    night = make_night(group, sets=1)
    seating_draw(night=night, seed=5)
    tv = host_page(contexts, live_server, night, path=f"/nights/{night.pk}/seating/tv/")
    tv.evaluate("delete document.documentElement.dataset.fitted")
    tv.set_viewport_size({"width": width, "height": height})
    until(tv, "document.documentElement.dataset.fitted === '1'", "the chart is fitted")
    check_fits(tv.evaluate(SHOWN), f"13 players at {width}x{height}")
    for title, fit, over in tv.evaluate(SHRUNK):
        assert over, f"{width}x{height}, {title}: names at {fit}, and {fit + 0.01} fits"


# Long first names, one for each regular who sends a substitute.
FIRST_NAMES = [
    "Maximiliana",
    "Bartholomea",
    "Evangelina",
    "Wilhelmina",
    "Constantina",
    "Guinevere",
    "Anastasia",
    "Clementine",
    "Esmeralda",
    "Gwendolyn",
    "Henrietta",
    "Jacqueline",
    "Marguerite",
    "Philippa",
    "Rosalind",
    "Theodora",
]


@pytest.mark.parametrize("players", [13, 80])
def test_substitutes_say_whose_seat_and_still_fit(contexts, live_server, players):
    """Every fifth regular sends a substitute, both with names of about 30 characters, and
    a guest comes: each substitute's card says "sub for" the regular's first name, the
    guest's says "guest", and every card still holds its names and tags whole."""
    group = make_group(regulars=players - 1, substitutes=players // 5 + 1)
    regulars = list(group.players.filter(kind=Player.Kind.REGULAR).order_by("pk"))
    subs = list(group.players.filter(kind=Player.Kind.SUBSTITUTE).order_by("pk"))
    night = make_night(group, sets=1)
    sent = []
    for i, (regular, sub) in enumerate(zip(regulars[::5], subs[:-1], strict=False)):
        regular.name = f"{FIRST_NAMES[i]} Worthington-Smythe"
        regular.save(update_fields=["name"])
        sub.name = f"{LONG_NAME} {i:03d}"
        sub.save(update_fields=["name"])
        attendance_set(
            attendance=night.attendances.get(player=regular),
            status=Attendance.Status.SENT_SUB,
            substitute=sub,
        )
        sent.append(sub.name)
    guest_add(night=night, player=subs[-1])
    seating_draw(night=night, seed=4)
    tv = host_page(contexts, live_server, night, path=f"/nights/{night.pk}/seating/tv/")
    for width, height in TVS:
        tv.evaluate("delete document.documentElement.dataset.fitted")
        tv.set_viewport_size({"width": width, "height": height})
        until(tv, "document.documentElement.dataset.fitted === '1'", "the chart is fitted")
        shown = tv.evaluate(SHOWN)
        check_fits(shown, f"{players} players with substitutes at {width}x{height}")
        tags = sorted(tag["text"] for card in shown["cards"] for tag in card["tags"])
        assert tags == sorted(["guest"] + [f"sub for {n}" for n in FIRST_NAMES[: len(sent)]])
        assert name_sizes(shown)[0] >= 0.008 * width
