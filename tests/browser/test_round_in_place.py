"""A table phone never reloads its page under a finger (docs/rules.md section 2.3): a round
starting, the bell, Done, the round closing and the next round are drawn in place, and a
tap is for the round and the seat it was made for: entered there, or refused with a message,
never moved to another roller or round."""

import pytest
from playwright.sync_api import expect

from bunco_night.nights.selectors import current_round
from bunco_night.nights.services import seating_draw
from bunco_night.play.models import Entry
from bunco_night.play.pages import table_page
from bunco_night.play.services import round_close, round_start, table_done
from bunco_night.play.state import round_board
from tests.browser.helpers import phone, score, until
from tests.factories import make_group, make_night
from tests.play.helpers import play_round, ring_the_bell, start_night
from tests.play.helpers import tap as server_tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = [(360, 740), (390, 844), (360, 640)]


def watched_phone(contexts, url, width, height):
    """A phone whose page says whether it is still the page first loaded, and which lists
    the loads of a page after the first."""
    page = phone(contexts, url, width=width, height=height)
    page.evaluate("window.firstPage = true")
    loads = []
    page.on("load", lambda: loads.append(page.url))
    return page, loads


def first_roller(table) -> int:
    table.refresh_from_db()
    return table_page(table).first_seat


def finish_round(night):
    """Every table still playing makes its rolls (untied) and taps Done; the host closes."""
    rnd = current_round(night)
    for tv in round_board(rnd).tables:
        if not tv.finished:
            server_tap(tv.table, 1, "points", 1)
            for seat in range(1, tv.size + 1):
                server_tap(tv.table, seat, "miss")
            table_done(table=tv.table)
    round_close(rnd=rnd)


@pytest.mark.parametrize("width,height", SIZES)
def test_two_rounds_on_one_page_that_never_reloads(contexts, live_server, width, height):
    night = make_night(make_group(regulars=12, substitutes=0), sets=1)
    seating_draw(night=night, seed=3)
    table = night.tables.get(number=2)
    page, loads = watched_phone(contexts, f"{live_server.url}/t/{table.token}/", width, height)
    expect(page.locator("#board")).to_contain_text("Waiting for the host to start round 1")
    expect(page.locator("#taps")).to_have_count(0)

    round_start(night=night)
    seat = first_roller(table)
    expect(page.locator(f"#taps input[name=seat][value='{seat}']")).to_be_checked()
    page.locator("#taps button[value='points:2']").click()
    expect(page.locator("#recent .recent li")).to_have_count(1)
    ring_the_bell(night)
    expect(page.locator("#board")).to_contain_text("BELL!")
    for other in range(1, 5):  # everyone rolls once before Done (section 3.1)
        page.locator(f"label.chip:has(input[value='{other}'])").click()
        page.locator("#taps button[value='miss']").click()
    expect(page.locator("#recent .recent li")).to_have_count(5)
    page.get_by_role("button", name="Done ✔").click()
    expect(page.locator("#board")).to_contain_text("Done. Waiting for the other tables.")
    expect(page.locator("#taps")).to_have_count(0)

    finish_round(night)
    expect(page.locator("#board")).to_contain_text("Round 1 is over")
    round_start(night=night)
    expect(page.locator("#board")).to_contain_text("Round 2 of")
    expect(page.locator("#taps")).to_have_attribute("data-round", "2")
    # The moves showed for a moment only: where everyone sits now, over the page.
    # It showed round 1's end: it is not told it missed it.
    expect(page.locator("#missed-moves")).to_have_count(0)
    seat = first_roller(table)
    expect(page.locator(f"#taps input[name=seat][value='{seat}']")).to_be_checked()
    page.locator("#taps button[value='points:1']").click()
    expect(page.locator("#recent .recent li")).to_have_count(1)
    assert list(
        Entry.objects.filter(table=table, round__number=2).values_list("seat", "points")
    ) == [(seat, 1)]
    assert page.evaluate("window.firstPage") is True and loads == []


@pytest.mark.parametrize("width,height", SIZES)
def test_a_double_tap_as_the_round_starts_is_never_moved_to_another_roller(
    contexts, live_server, width, height
):
    night = make_night(make_group(regulars=12, substitutes=0), sets=1)
    start_night(night, seed=3)
    table = night.tables.get(number=2)
    play_round(night)
    page, loads = watched_phone(contexts, f"{live_server.url}/t/{table.token}/", width, height)
    expect(page.locator("#board")).to_contain_text("Round 1 is over")

    round_start(night=night)
    plus_one = page.locator("#taps button[value='points:1']")
    plus_one.wait_for(state="attached")
    box = plus_one.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.touchscreen.tap(x, y)  # the instant the buttons appear, a quick double tap
    page.touchscreen.tap(x, y)
    seat = first_roller(table)
    page.wait_for_timeout(1_500)  # any tap sent has been answered
    entered = list(Entry.objects.filter(table=table, round__number=2).values_list("seat", "points"))
    # Entered for the first roller, as the screen showed, or not entered, and the screen
    # says why: the buttons had only just appeared, or where to sit now came over them.
    assert entered in ([], [(seat, 1)], [(seat, 1), (seat, 1)])
    if len(entered) < 2:  # each tap not entered is counted
        expect(page.locator(".toast, #missed-moves[open]").first).to_contain_text(
            "those 2 taps were not entered" if not entered else "that tap was not entered"
        )
    expect(page.locator(f"#taps input[name=seat][value='{seat}']")).to_be_checked()
    assert not Entry.objects.filter(table=table, round__number=1, late_at__isnull=False).exists()
    # It showed round 1's end: it is not told it missed it.
    expect(page.locator("#missed-moves")).to_have_count(0)
    # Once the buttons have settled, a tap is entered at once.
    plus_one.click()
    expect(page.locator("#recent .recent li")).to_have_count(len(entered) + 1)
    expect(score(page, (seat - 1) % 2)).to_have_text(str(len(entered) + 1))
    assert page.evaluate("window.firstPage") is True and loads == []


# A finger that lands on the +1 button 50 ms after the round's buttons appear: the events
# a touch makes there, each sent to what the browser finds under the finger.
TAP_AS_THE_BUTTONS_APPEAR = """() => new MutationObserver((changes, observer) => {
  const button = document.querySelector("#taps button[value='points:1']");
  if (!button) return;
  observer.disconnect();
  setTimeout(() => {
    const r = button.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    window.tappedWhileSettling = button.dataset.settling === "1";
    const under = document.elementFromPoint(x, y);
    under.dispatchEvent(new PointerEvent("pointerdown",
      {bubbles: true, isPrimary: true, clientX: x, clientY: y}));
    under.click();
  }, 50);
}).observe(document.body, {childList: true, subtree: true})"""


@pytest.mark.parametrize("width,height", SIZES)
def test_a_tap_on_buttons_that_have_just_appeared_is_refused_and_said_so(
    contexts, live_server, width, height
):
    night = make_night(make_group(regulars=12, substitutes=0), sets=1)
    seating_draw(night=night, seed=3)
    table = night.tables.get(number=2)
    page, loads = watched_phone(contexts, f"{live_server.url}/t/{table.token}/", width, height)
    expect(page.locator("#board")).to_contain_text("Waiting for the host to start round 1")
    page.evaluate(TAP_AS_THE_BUTTONS_APPEAR)
    round_start(night=night)
    expect(page.locator(".toast")).to_contain_text("that tap was not entered")
    assert page.evaluate("window.tappedWhileSettling") is True
    page.wait_for_timeout(1_000)
    assert not Entry.objects.filter(table=table).exists()
    page.locator("#taps button[value='points:1']").click()  # once settled, it is entered
    expect(page.locator("#recent .recent li")).to_have_count(1)
    assert Entry.objects.filter(table=table, round__number=1).count() == 1
    assert loads == []


def test_a_tap_made_in_round_1_that_arrives_in_round_2_stays_in_round_1(contexts, live_server):
    """docs/rules.md section 3.5: a late entry for its own round, for the host to decide."""
    night = make_night(make_group(regulars=12, substitutes=0), sets=1)
    start_night(night, seed=3)
    table = night.tables.get(number=2)
    page, loads = watched_phone(contexts, f"{live_server.url}/t/{table.token}/", 360, 740)
    held = []
    page.route("**/entry/", lambda route: held.append(route))
    page.locator("#taps button[value='points:2']").click()
    until(page, "true", "")  # let the route handler run
    assert len(held) == 1 and "round=1" in held[0].request.post_data
    play_round(night)
    round_start(night=night)
    expect(page.locator("#taps")).to_have_attribute("data-round", "2")
    held[0].continue_()
    expect(page.locator(".toast")).to_contain_text("arrived after the round ended")
    late = Entry.objects.get(table=table, late_at__isnull=False)
    assert late.round.number == 1 and late.points == 2
    assert not Entry.objects.filter(table=table, round__number=2).exists()
    assert page.evaluate("window.firstPage") is True and loads == []
