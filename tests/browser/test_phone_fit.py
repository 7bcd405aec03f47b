"""Every page fits a phone held in one hand, at 320, 390 and 430 px wide.

No page is wider than the phone, in any state of the table phone (before the round, in
play with ten entries, the dice entry open, the bell, Done, a tie, where to sit next, the
night over), and the score buttons a table taps every few seconds lie inside the first
screen.
"""

import re

import pytest
from playwright.sync_api import expect

from bunco_night.nights.services import payment_record
from bunco_night.play.services import bell_ring, round_start, table_done
from bunco_night.play.state import round_board
from tests.browser.helpers import host_page, host_paths
from tests.factories import make_group, make_night
from tests.play.helpers import play_round, start_night, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONES = [(320, 568), (390, 844), (430, 932)]
SCORE_BUTTONS = ["points:1", "points:2", "bunco", "miss"]


def width_and_screen(page) -> tuple[int, int]:
    return page.evaluate("[document.documentElement.scrollWidth, innerWidth]")


# The elements that reach furthest past the right edge (the innermost last), so a failure
# says what to fix.
WIDEST = """() => { const all = [...document.body.querySelectorAll('*')];
  const right = e => e.getBoundingClientRect().right;
  const most = Math.max(...all.map(right));
  return all.filter(e => right(e) > innerWidth + 0.5 && right(e) >= most - 0.5)
  .slice(-3).map(e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '')
    + (typeof e.className === 'string' && e.className
       ? '.' + e.className.trim().split(/ +/).join('.') : '')
    + ' ' + Math.round(e.getBoundingClientRect().right) + ' px') }"""


def check_fits(page, what: str):
    wide, screen = width_and_screen(page)
    assert wide <= screen, f"{what}: {wide} px wide on a {screen} px phone: {page.evaluate(WIDEST)}"


def check_buttons_in_reach(page, height: int, what: str):
    page.evaluate("window.scrollTo(0, 0)")  # the first screen
    for value in SCORE_BUTTONS:
        box = page.locator(f"#taps button[value='{value}']").bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height, (
            f"{what}: {value} ends at {box and box['y'] + box['height']} px of {height}"
        )


@pytest.fixture
def phones(contexts):
    """One phone-sized page per width, opened together."""

    class Phones:
        def __init__(self):
            self.pages = []
            for width, height in PHONES:
                context = contexts(viewport={"width": width, "height": height}, has_touch=True)
                page = context.new_page()
                page.set_default_timeout(15_000)
                self.pages.append((page, height))

        def open(self, url):
            for page, _ in self.pages:
                page.goto(url)

        def check(self, what, buttons=False):
            for page, height in self.pages:
                name = f"{what} at {page.viewport_size['width']} px"
                check_fits(page, name)
                if buttons:
                    check_buttons_in_reach(page, height, name)

    return Phones()


def test_every_state_of_the_table_phone_fits_and_keeps_the_buttons_in_reach(phones, live_server):
    night = make_night(make_group(regulars=12, substitutes=0), sets=1)
    from bunco_night.nights.services import seating_draw

    rnd = seating_draw(night=night, seed=8)
    t2, t3 = night.tables.get(number=2), night.tables.get(number=3)
    url = f"{live_server.url}/t/{t2.token}/"
    phones.open(url)
    phones.check("before the round")

    round_start(night=night)
    for i in range(10):
        tap(t2, i % 4 + 1, "points" if i % 3 else "miss", 1 if i % 3 else 0)
    phones.open(url)
    for page, _ in phones.pages:
        expect(page.locator("#recent .recent li")).to_have_count(6)
    phones.check("in play after ten entries", buttons=True)

    for page, _ in phones.pages:
        page.get_by_text("Enter the dice instead").click()
    phones.check("the dice entry open", buttons=True)

    bell_ring(night=night)
    phones.open(url)
    for page, _ in phones.pages:
        expect(page.locator("#board")).to_contain_text("BELL!")
    phones.check("at the bell", buttons=True)

    # Table 3 presses Done tied at 0-0: a tie that extra turns break (house rules).
    for seat in range(1, 5):
        tap(t3, seat, "miss")
    table_done(table=t3)
    phones.open(f"{live_server.url}/t/{t3.token}/")
    for page, _ in phones.pages:
        expect(page.locator("#board")).to_contain_text("It's a tie!")
    phones.check("a tie broken by extra turns", buttons=True)

    tap(t2, 1, "points", 2)  # 5-3: no tie, so Done ends the round here
    table_done(table=t2)
    phones.open(url)
    for page, _ in phones.pages:
        expect(page.locator("#board")).to_contain_text("Done. Waiting for the other tables.")
    phones.check("Done")

    tap(t3, 1, "points", 1)
    from bunco_night.play.services import extra_turns_done

    extra_turns_done(table=t3)
    rnd.refresh_from_db()
    for tr in round_board(rnd).tables:
        if not tr.finished:
            for seat in range(1, tr.size + 1):
                tap(tr.table, seat, "miss")
            tap(tr.table, 1, "points", 1)
            table_done(table=tr.table)
    from bunco_night.play.services import round_close

    round_close(rnd=rnd)
    phones.open(url)
    for page, _ in phones.pages:
        expect(page.locator("#board")).to_contain_text("Where to sit next")
    phones.check("where to sit next")

    from bunco_night.play.services import night_finish

    night_finish(night=night)
    phones.open(url)
    phones.check("the night over")


def test_a_roll_off_tie_fits(phones, live_server):
    night = make_night(make_group(rules="deluxe", regulars=12, substitutes=0), sets=1)
    rnd = start_night(night, seed=2)
    t1, t2 = night.tables.get(number=1), night.tables.get(number=2)
    tap(t2, 1, "points", 2)
    tap(t2, 2, "points", 2)
    tap(t1, 1, "bunco")  # ends the round everywhere; table 2 is tied 2-2
    assert round_board(rnd).table(t2.pk).outcome.needs_tiebreak
    phones.open(f"{live_server.url}/t/{t2.token}/")
    for page, _ in phones.pages:
        expect(page.locator("#board")).to_contain_text("Roll off")
    phones.check("a roll-off")


def test_the_player_page_and_every_host_page_fit_a_phone(phones, contexts, live_server):
    night = make_night(make_group(regulars=12, substitutes=2), sets=2)
    start_night(night, seed=3)
    play_round(night)
    round_start(night=night)
    attendance = night.attendances.order_by("pk").first()
    phones.open(f"{live_server.url}/p/{attendance.token}/")
    phones.check("a player's page")
    host_urls = host_paths(night, correct_round=1)
    for width, height in PHONES:
        host = host_page(contexts, live_server, night, path="/groups/")
        host.set_viewport_size({"width": width, "height": height})
        for name, path in host_urls.items():
            host.goto(f"{live_server.url}{path}")
            check_fits(host, f"{name} at {width} px")


@pytest.mark.parametrize("bigger", [False, True])
def test_a_players_card_shows_every_column_on_the_narrowest_phone(contexts, live_server, bigger):
    """The card needs no sideways scrolling at 320 px, with bigger text too: round, table
    and partner, result; whole words, never "Tabl-e"."""
    night = make_night(make_group(regulars=12, substitutes=0), sets=1)
    start_night(night, seed=3)
    for _ in range(3):
        play_round(night)
        round_start(night=night)
    attendance = night.attendances.order_by("pk").first()
    context = contexts(viewport={"width": 320, "height": 568}, has_touch=True)
    page = context.new_page()
    page.goto(f"{live_server.url}/p/{attendance.token}/")
    if bigger:
        page.get_by_role("button", name="Bigger text").click()
    rows = page.locator(".card-table tbody tr")
    expect(rows).to_have_count(4)
    scroll, box = page.evaluate(
        "(() => { const s = document.querySelector('.card-scroll');"
        " return [s.scrollWidth, s.clientWidth]; })()"
    )
    assert scroll <= box, f"the card scrolls sideways: {scroll} px in {box} px"
    expect(rows.nth(3)).to_contain_text("playing")
    for i in range(3):
        expect(rows.nth(i).locator("td").nth(2)).to_have_text(re.compile(r"^(Won|Lost)"))
        table = rows.nth(i).locator(".nowrap")
        assert table.bounding_box()["height"] < 40, "'Table N' keeps to one line"
    check_fits(page, f"a player's card at 320 px{' with bigger text' if bigger else ''}")


def test_the_dues_list_keeps_each_name_on_one_line_on_the_narrowest_phone(contexts, live_server):
    """A row's buttons go under its name and sums when the line has no room for both:
    before, a 320 px phone squeezed "Regular 10" into a column a word wide."""
    night = make_night(make_group(regulars=12, substitutes=0))
    payment_record(attendance=night.attendances.get(player__name="Regular 10"), amount_cents=300)
    host = host_page(contexts, live_server, night, path=f"/nights/{night.pk}/")
    host.set_viewport_size({"width": 320, "height": 568})
    row = host.locator(".dues-row", has_text="Regular 10")
    name = row.locator(".dues-who strong").first
    expect(name).to_have_text("Regular 10")
    line = host.evaluate("parseFloat(getComputedStyle(document.body).lineHeight) || 24")
    assert name.bounding_box()["height"] <= line * 1.5, "the name wraps"
    who, buttons = (
        row.locator(".dues-who").bounding_box(),
        row.locator(".dues-actions").bounding_box(),
    )
    assert buttons["y"] >= who["y"] + who["height"] - 1, "the buttons sit beside a squeezed name"
    check_fits(host, "the dues at 320 px")


def test_someone_else_arrived_fits_a_phone_with_a_long_name_on_the_roster(contexts, live_server):
    """The list of who else may arrive (every substitute not yet at the night) is as wide
    as its longest name: the select shrinks to the phone instead of widening the night
    page. Before, "Marguerite-Anne Garcia (substitute)" made a 390 px phone 421 px wide."""
    group = make_group(regulars=12, substitutes=1)
    group.players.filter(name="Sub 1").update(name="Marguerite-Anne Featherstonehaugh-Garcia")
    night = make_night(group)
    host = host_page(contexts, live_server, night, path=f"/nights/{night.pk}/")
    expect(host.locator("#guest option", has_text="Featherstonehaugh")).to_have_count(1)
    for width, height in PHONES:
        host.set_viewport_size({"width": width, "height": height})
        check_fits(host, f"the night page with a long substitute's name at {width} px")
        box = host.locator("#guest").bounding_box()
        assert box["x"] + box["width"] <= width, f"the select ends past a {width} px phone"


def test_a_name_of_eighty_letters_without_a_space_fits_every_page(phones, contexts, live_server):
    """The longest name the roster takes, one word (someone's typo, or a pasted e-mail
    address), wraps on every page instead of making it scroll sideways; a retired one too."""
    group = make_group(regulars=12, substitutes=1)
    long_one, retired = "A" * 80, "B" * 80
    group.players.filter(name="Regular 1").update(name=long_one)
    group.players.filter(kind="substitute").update(name=retired, retired=True)
    night = make_night(group, sets=2)
    payment_record(attendance=night.attendances.get(player__name=long_one), amount_cents=300)
    start_night(night, seed=3)
    play_round(night)
    round_start(night=night)
    seat = night.rounds.get(number=2).seats.get(player__name=long_one)
    phones.open(f"{live_server.url}/t/{seat.table.token}/")
    phones.check("a long name on its table phone")
    phones.open(f"{live_server.url}/p/{night.attendances.get(player__name=long_one).token}/")
    phones.check("a long name on its player's page")
    host = host_page(contexts, live_server, night, path="/groups/")
    host.set_viewport_size({"width": 320, "height": 568})
    for name, path in host_paths(night, correct_round=1).items():
        host.goto(f"{live_server.url}{path}")
        check_fits(host, f"{name} with a long name at 320 px")


# Links and buttons shorter than a fingertip, on the page as shown: a link in a sentence
# (running text around it) is part of the text, and exempt.
TOO_SMALL = """() => {
  const prose = e => {
    let text = e.parentElement.textContent;
    e.parentElement.querySelectorAll('a').forEach(a => { text = text.replace(a.textContent, ''); });
    return text.replace(/[\\s·←→|]/g, '').length > 3;
  };
  return [...document.querySelectorAll('a, button, summary')]
    .filter(e => e.offsetParent !== null && !e.closest('.visually-hidden'))
    .filter(e => e.tagName !== 'A' || !prose(e))
    .map(e => [e.tagName.toLowerCase() + ' ' + e.textContent.trim().slice(0, 30),
               Math.round(e.getBoundingClientRect().height)])
    .filter(([, height]) => height > 0 && height < 40);
}"""


def test_what_a_host_or_a_player_taps_is_big_enough_for_a_finger(contexts, live_server):
    """At least 40 px tall: a host runs the night on a phone in one hand."""
    night = make_night(make_group(regulars=12, substitutes=2), sets=2)
    start_night(night, seed=3)
    play_round(night)
    round_start(night=night)
    table = night.tables.get(number=2)
    attendance = night.attendances.order_by("pk").first()
    phone_pages = {"a table phone": f"/t/{table.token}/", "a player": f"/p/{attendance.token}/"}
    context = contexts(viewport={"width": 390, "height": 844}, has_touch=True)
    page = context.new_page()
    for name, path in phone_pages.items():
        page.goto(f"{live_server.url}{path}")
        assert page.evaluate(TOO_SMALL) == [], name
    host = host_page(contexts, live_server, night, path="/groups/")
    host.set_viewport_size({"width": 390, "height": 844})
    for name, path in host_paths(night, correct_round=1).items():
        host.goto(f"{live_server.url}{path}")
        assert host.evaluate(TOO_SMALL) == [], name


def test_every_prize_and_its_money_shows_without_scrolling_on_a_phone(contexts, live_server):
    """The prize standings after a round: ties with their tie-break forms, and each
    prize's amount in sight on the narrowest phone (a block a prize, no sideways box)."""
    night = make_night(make_group(regulars=12, substitutes=0), sets=2)
    for attendance in night.attendances.all():
        payment_record(attendance=attendance, amount_cents=500)
    start_night(night, seed=3)
    play_round(night)
    host = host_page(contexts, live_server, night, path=f"/nights/{night.pk}/standings/")
    for width, height in PHONES:
        host.set_viewport_size({"width": width, "height": height})
        prizes = host.locator(".table-scroll[aria-label=Prizes]")
        expect(prizes).to_contain_text("Tie")
        scroll, box = prizes.evaluate("e => [e.scrollWidth, e.clientWidth]")
        assert scroll <= box, f"the prizes scroll sideways at {width} px: {scroll} in {box}"
        amounts = prizes.locator("tbody tr td:last-child")
        assert amounts.count() > 0
        for i in range(amounts.count()):
            assert amounts.nth(i).is_visible() and amounts.nth(i).inner_text().startswith("$")
        check_fits(host, f"the prize standings at {width} px")


def test_the_correction_page_fits_with_long_names_on_the_narrowest_phone(contexts, live_server):
    """The host may correct a table from a phone: the winner's and tie-break's choices
    name both partners ("Ann Marie Baxter & Hattie Johnson"), and still fit at 320 px."""
    group = make_group(regulars=12, substitutes=0)
    for i, player in enumerate(group.players.order_by("pk")):
        player.name = f"{['Ann Marie', 'Hattie', 'Gloria', 'Maggie'][i % 4]} Fontaine-Baxter {i}"
        player.save(update_fields=["name"])
    night = make_night(group, sets=1)
    rnd = start_night(night, seed=3)
    t2 = night.tables.get(number=2)
    tap(t2, 1, "points", 2)
    for seat in (2, 3, 4):
        tap(t2, seat, "miss")
    bell_ring(night=night)
    table_done(table=t2)  # 2-0: a winner, and entries to undo
    rnd.refresh_from_db()
    assert round_board(rnd).table(t2.pk).winner_side == 0
    host = host_page(contexts, live_server, night, path=f"/nights/{night.pk}/live/table/2/?round=1")
    host.set_viewport_size({"width": 320, "height": 568})
    host.reload()
    expect(host.get_by_role("heading", level=1)).to_contain_text("Table 2")
    check_fits(host, "correct a table with long names at 320 px")
