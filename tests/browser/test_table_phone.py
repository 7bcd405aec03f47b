"""The table phone on a 390 px phone (and at 320 px where it says so): the rules link,
the messages after Done, a mis-tapped Done in a tie's extra turns, and where to sit
after the phone was away while the host closed a round and started the next."""

import pytest
from playwright.sync_api import expect

from bunco_night.nights.services import seating_draw
from bunco_night.play.models import TablePlay
from bunco_night.play.moves import moves
from bunco_night.play.services import bell_ring, entry_undo, round_start
from bunco_night.play.state import round_board
from tests.browser.helpers import fits, phone, until
from tests.browser.helpers import tap as tap_on
from tests.factories import make_group, make_night
from tests.play.helpers import play_round, start_night, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_waiting_screen_offers_how_do_we_play_once(contexts, live_server):
    night = make_night(make_group(regulars=12, substitutes=0), sets=1)
    seating_draw(night=night, seed=3)
    table = night.tables.get(number=2)
    page = phone(contexts, f"{live_server.url}/t/{table.token}/")
    expect(page.locator("#board")).to_contain_text("Waiting for the host to start round 1")
    rules = page.get_by_role("link", name="How do we play?")
    expect(rules).to_have_count(1)
    rules.click()
    expect(page).to_have_url(f"{live_server.url}/t/{table.token}/rules/")


def bell_rung_before_anyone_rolled_at(night, number):
    """Round 1 in play, the head table at its target: the bell has rung, and nobody at
    table ``number`` has rolled yet (docs/rules.md section 3.1: each must roll once)."""
    start_night(night, seed=3)
    head = night.tables.get(number=1)
    for seat in range(1, 5):
        tap(head, seat, "miss")
    for _ in range(11):
        tap(head, 1, "points", 2)
    return night.tables.get(number=number)


def scroll_to_put(page, locator, where: str):
    """Scroll the page so that ``locator``'s element sits at the top or the bottom of the
    screen (as far as the page scrolls)."""
    page.evaluate(
        """([el, where]) => { const r = el.getBoundingClientRect();
        window.scrollBy(0, where === "top" ? r.top - 8 : r.bottom - innerHeight + 8); }""",
        [locator.element_handle(), where],
    )


def overlap(a, b) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def check_uncovered(page, button):
    """The message is on screen, away from the button, and a tap on the button reaches it."""
    toast = page.locator(".toast")
    expect(toast).to_contain_text("Everyone rolls at least once")
    box, under = toast.bounding_box(), button.bounding_box()
    height = page.viewport_size["height"]
    assert box["y"] >= 0 and box["y"] + box["height"] <= height, box
    assert under["y"] >= 0 and under["y"] + under["height"] <= height, under
    assert not overlap(box, under), (box, under)
    middle = (under["x"] + under["width"] / 2, under["y"] + under["height"] / 2)
    hit = page.evaluate(
        """([el, x, y]) => el.contains(document.elementFromPoint(x, y))""",
        [button.element_handle(), *middle],
    )
    assert hit


@pytest.mark.parametrize("width,height", [(390, 844), (320, 568)])
def test_done_refused_says_why_without_covering_the_done_button(
    contexts, live_server, width, height
):
    night = make_night(make_group(regulars=12, substitutes=0), sets=1)
    table = bell_rung_before_anyone_rolled_at(night, 2)
    page = phone(contexts, f"{live_server.url}/t/{table.token}/", width=width, height=height)
    done = page.get_by_role("button", name="Done ✔")
    for where in ("bottom", "top", "bottom"):
        scroll_to_put(page, done, where)
        done.click()
        check_uncovered(page, done)
        page.locator(".toast").click()  # a tap on the message clears it
        expect(page.locator(".toast")).to_have_count(0)
    # The page scrolls while the message shows: it moves out of the button's way.
    scroll_to_put(page, done, "top")
    done.click()
    check_uncovered(page, done)
    scroll_to_put(page, done, "bottom")
    check_uncovered(page, done)
    assert not TablePlay.objects.filter(table=table, finished_turn=True).exists()


# The Done and Undo buttons on the screen that the message covers, or whose middle a tap
# would not reach; and whether the message itself is on the screen and shows all its text.
# Read once the page has drawn what its last scroll or swap moved (js/bunco-toast.js places the
# message again then), and the buttons a swap moved take taps again (docs/rules.md section
# 2.3: for a moment they let a finger's tap through).
UNDER_THE_MESSAGE = """async () => {
  await new Promise(done => setTimeout(done, 50));
  for (let i = 0; i < 40 && document.querySelector('[data-settling]'); i++) {
    await new Promise(done => setTimeout(done, 50));
  }
  await new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)));
  const toast = document.querySelector('.toast');
  if (!toast) return null;
  const t = toast.getBoundingClientRect();
  const covered = [...document.querySelectorAll('#board button.done, #recent button')].filter(b => {
    const r = b.getBoundingClientRect();
    if (r.bottom <= 0 || r.top >= innerHeight) return false;
    const over = r.left < t.right && t.left < r.right && r.top < t.bottom && t.top < r.bottom;
    const x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2;
    const reached = y < 0 || y > innerHeight || b.contains(document.elementFromPoint(x, y));
    return over || !reached;
  }).map(b => `${b.getAttribute('aria-label') || b.textContent.trim()}`
    + ` at ${Math.round(b.getBoundingClientRect().top)} px`);
  return { covered, onScreen: t.top >= 0 && t.bottom <= innerHeight,
           whole: toast.scrollHeight <= toast.clientHeight + 1,
           box: [t.left, t.top, t.right, t.bottom].map(Math.round) };
}"""


def check_clear_of_done_and_undo(page, what: str):
    seen = page.evaluate(UNDER_THE_MESSAGE)
    assert seen is not None, f"{what}: no message"
    assert seen["covered"] == [], f"{what}: the message at {seen['box']} covers {seen['covered']}"
    assert seen["onScreen"] and seen["whole"], f"{what}: the message at {seen['box']}"


def five_entries_then_the_bell(night):
    """Round 1 in play: table 2 has five entries to undo (seats 1 and 2 rolled, 3 and 4 not
    yet), then the head table rings the bell. Returns table 2 and the bell's entry."""
    start_night(night, seed=3)
    table = night.tables.get(number=2)
    for seat, kind, count in [(1, "points", 2), (1, "points", 1), (1, "miss", 0)]:
        tap(table, seat, kind, count)
    for seat, kind, count in [(2, "points", 1), (2, "miss", 0)]:
        tap(table, seat, kind, count)
    head = night.tables.get(number=1)
    for seat in range(1, 5):
        tap(head, seat, "miss")
    for _ in range(11):
        bell = tap(head, 1, "points", 2)
    return table, bell


def bigger_text(page):
    page.get_by_role("button", name="Bigger text").click()
    expect(page.get_by_role("button", name="Bigger text")).to_have_attribute("aria-pressed", "true")


@pytest.mark.parametrize(
    "width,height,bigger", [(320, 640, True), (360, 740, True), (320, 640, False)]
)
def test_a_refused_done_s_message_covers_no_undo_wherever_the_page_is_scrolled(
    contexts, live_server, width, height, bigger
):
    """Done refused (docs/rules.md section 3.1: each rolls once): the message says why, and
    the table can still tap Done or any Undo while it shows, wherever the page is scrolled,
    with bigger text (a taller message) too."""
    night = make_night(make_group(regulars=12, substitutes=0), sets=1)
    table, _ = five_entries_then_the_bell(night)
    page = phone(contexts, f"{live_server.url}/t/{table.token}/", width=width, height=height)
    if bigger:
        bigger_text(page)
    buttons = page.locator("#board button.done, #recent button")
    expect(buttons).to_have_count(6)  # Done (with the bell, at the top), and an Undo an entry
    done = page.get_by_role("button", name="Done ✔")
    for i in range(6):
        for where in ("top", "bottom"):
            done.click()
            expect(page.locator(".toast")).to_contain_text("Everyone rolls at least once")
            scroll_to_put(page, buttons.nth(i), where)
            check_clear_of_done_and_undo(
                page, f"button {i} at the {where}, {width} px, bigger text {bigger}"
            )
    assert not TablePlay.objects.filter(table=table, finished_turn=True).exists()


@pytest.mark.parametrize("width,height", [(320, 640), (360, 740)])
def test_with_bigger_text_a_bell_taken_back_says_so_over_no_undo(
    contexts, live_server, width, height
):
    """docs/rules.md section 6.2: the head table takes back the roll that rang the bell. The
    other tables' phones say so, a message that answers no button of theirs, and it leaves
    their Undo buttons uncovered all the same."""
    night = make_night(make_group(regulars=12, substitutes=0), sets=1)
    table, bell = five_entries_then_the_bell(night)
    page = phone(contexts, f"{live_server.url}/t/{table.token}/", width=width, height=height)
    bigger_text(page)
    undo = page.locator("#recent button.undo")
    expect(undo).to_have_count(5)
    scroll_to_put(page, undo.last, "bottom")
    entry_undo(table=night.tables.get(number=1), entry_id=bell.pk)
    expect(page.locator(".toast")).to_have_text("The bell was taken back: play on.")
    expect(page.get_by_role("button", name="Done ✔")).to_have_count(0)
    check_clear_of_done_and_undo(page, f"{width} px, the list moved up in place of Done")
    scroll_to_put(page, undo.last, "bottom")
    check_clear_of_done_and_undo(page, f"{width} px, the last Undo at the bottom")
    scroll_to_put(page, undo.first, "top")
    check_clear_of_done_and_undo(page, f"{width} px, the first Undo at the top")


def test_a_tied_table_takes_back_a_mis_tapped_done_and_extra_turns_done(contexts, live_server):
    """docs/rules.md section 6.2: a Done tapped by mistake is taken back while the round is
    in play; in a tie's extra turns (section 3.4), so is "Extra turns done"."""
    night = make_night(make_group(regulars=12, substitutes=0), sets=1)
    start_night(night, seed=3)
    table = night.tables.get(number=2)
    for seat in range(1, 5):
        tap(table, seat, "miss")
    bell_ring(night=night)
    page = phone(contexts, f"{live_server.url}/t/{table.token}/")
    banner, recent = page.locator(".bell-banner"), page.locator("#recent")
    page.get_by_role("button", name="Done ✔").click()
    expect(banner).to_contain_text("It's a tie!")  # 0-0: one more turn each
    page.get_by_role("button", name="Undo Done (we weren't finished)").click()
    expect(banner).to_contain_text("BELL!")
    expect(page.get_by_role("button", name="Done ✔")).to_be_visible()
    page.get_by_role("button", name="Done ✔").click()
    expect(banner).to_contain_text("It's a tie!")
    tap_on(page, 1, "points:1")  # seat 1's extra turn, and too soon:
    expect(recent.get_by_role("button", name="Undo")).to_have_count(1)
    page.get_by_role("button", name="Extra turns done ✔").click()
    expect(page.locator(".done-banner")).to_be_visible()
    expect(page.locator("#taps")).to_have_count(0)
    expect(page.get_by_role("button", name="Undo Done (we weren't finished)")).to_have_count(0)
    page.get_by_role("button", name="Undo Extra turns done (we weren't finished)").click()
    expect(banner).to_contain_text("It's a tie!")
    expect(page.locator("#taps")).to_be_visible()
    expect(recent.get_by_role("button", name="Undo")).to_have_count(1)  # the extra turn's
    tap_on(page, 2, "points:2")
    expect(page.locator("[data-testid=score-1]")).to_have_text("2")
    page.get_by_role("button", name="Extra turns done ✔").click()
    expect(page.locator(".done-banner")).to_be_visible()
    expect(page.locator(".score-box.winner")).to_contain_text("2")


def where_now(night, table_number):
    """Who sat at table ``table_number`` in the round before the one in play, each with
    "Table T · Seat S" of where they sit now."""
    now = night.rounds.playing().get()
    before = night.rounds.get(number=now.number - 1)
    table = night.tables.get(number=table_number)
    where = moves(now)
    seats = round_board(before).table(table.pk).seats
    return {
        s.player.name: f"Table {where[s.player_id].table}" for s in seats if s.player_id in where
    } | {
        f"{s.player.name} seat": f"Seat {where[s.player_id].seat}"
        for s in seats
        if s.player_id in where
    }


def test_a_phone_away_while_the_next_round_started_says_where_everyone_sits_now(
    contexts, live_server
):
    night = make_night(make_group(regulars=12, substitutes=0), sets=1)
    start_night(night, seed=3)
    table = night.tables.get(number=2)
    url = f"{live_server.url}/t/{table.token}/"
    page, narrow = phone(contexts, url), phone(contexts, url, width=320, height=568)
    for p in (page, narrow):
        expect(p.locator("#taps")).to_be_visible()
        p.context.set_offline(True)  # asleep, or off the Wi-Fi
    play_round(night)
    round_start(night=night)
    for p in (page, narrow):
        p.context.set_offline(False)
    expect(narrow.locator("#missed-moves")).to_be_visible()
    assert fits(narrow)
    box = page.locator("#missed-moves")
    expect(box).to_be_visible()
    expect(box).to_contain_text("Round 2 has started")
    expect(box).to_contain_text("Round 1 is over. Where everyone from this table sits now:")
    expected = where_now(night, 2)
    names = [n for n in expected if not n.endswith(" seat")]
    assert len(names) == 4
    for name in names:
        row = box.locator(".moves li").filter(has=page.locator(".who", has_text=name))
        expect(row).to_contain_text(expected[name])
        expect(row).to_contain_text(expected[f"{name} seat"])
    expect(page.locator("#board")).to_contain_text("Round 2 of 6")
    assert fits(page)
    # Until someone says they have read it, even after a reload; then not again.
    page.reload()
    expect(box).to_be_visible()
    box.get_by_role("button", name="Got it").click()
    expect(box).to_be_hidden()
    expect(page.locator("#taps")).to_be_visible()
    page.reload()
    expect(page.locator("#taps")).to_be_visible()
    expect(box).to_be_hidden()
    # A phone new to the table has nothing to catch up on.
    other = phone(contexts, url)
    expect(other.locator("#taps")).to_be_visible()
    expect(other.locator("#missed-moves")).to_be_hidden()


# The page hidden or shown, as when the phone sleeps and wakes.
HIDDEN = """() => {
  Object.defineProperty(document, "visibilityState", {value: "hidden", configurable: true});
  document.dispatchEvent(new Event("visibilitychange"));
}"""
VISIBLE = """() => {
  Object.defineProperty(document, "visibilityState", {value: "visible", configurable: true});
  document.dispatchEvent(new Event("visibilitychange"));
}"""


def test_a_phone_that_showed_where_to_sit_does_not_say_it_again(contexts, live_server):
    night = make_night(make_group(regulars=12, substitutes=0), sets=1)
    start_night(night, seed=3)
    table = night.tables.get(number=2)
    page = phone(contexts, f"{live_server.url}/t/{table.token}/")
    expect(page.locator("#taps")).to_be_visible()
    play_round(night)
    expect(page.locator("#board .moves")).to_be_visible()  # where to sit next, on time
    round_start(night=night)
    expect(page.locator("#board")).to_contain_text("Round 2 of 6")
    expect(page.locator("#taps")).to_be_visible()
    expect(page.locator("#missed-moves")).to_be_hidden()
    # Hidden (the phone asleep) while the host closes round 2 and starts round 3: the
    # moves were never on a screen, so the phone says them in round 3.
    page.evaluate(HIDDEN)
    play_round(night)
    expect(page.locator("#board .moves")).to_be_attached()
    round_start(night=night)
    until(page, "document.body.dataset.movesFor === '3'", "round 3 not drawn")
    page.evaluate(VISIBLE)
    expect(page.locator("#board")).to_contain_text("Round 3 of 6")
    expect(page.locator("#missed-moves")).to_be_visible()
    expect(page.locator("#missed-moves")).to_contain_text("Round 2 is over")
