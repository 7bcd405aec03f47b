"""Phones at one table in real headless Chromium: two phones at once, a bell taken back,
a phone left on the table's old link."""

import pytest
from playwright.sync_api import expect

from bunco_night.play.models import Entry
from bunco_night.play.services import entry_undo, round_close, table_link_renew
from tests.browser.helpers import score, tap, until
from tests.factories import make_group, make_night
from tests.play.helpers import play_round, start_night
from tests.play.helpers import tap as server_tap

# Phones at one table at once: what the database does with their requests is the point.
pytestmark = [
    pytest.mark.browser,
    pytest.mark.both_databases,
    pytest.mark.django_db(transaction=True),
]


def table_phone(contexts, url):
    """A phone at a table that counts its bells (each rings with a vibration)."""
    context = contexts(viewport={"width": 390, "height": 844}, has_touch=True)
    context.add_init_script(
        "navigator.vibrate = function () {"
        " sessionStorage.rings = Number(sessionStorage.rings || 0) + 1; return true; };"
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(url)
    return page


def rolling(page, seat):
    return page.locator(f"#taps input[name=seat][value='{seat}']")


def test_a_second_phone_follows_the_first_phone_s_rolls(contexts, live_server):
    """docs/rules.md section 2.2: a miss passes the dice to the next seat, on every phone."""
    night = make_night(make_group(regulars=12, substitutes=0), sets=1)
    start_night(night, seed=3)
    t2 = night.tables.get(number=2)
    url = f"{live_server.url}/t/{t2.token}/"
    first, second = table_phone(contexts, url), table_phone(contexts, url)
    expect(rolling(second, 1)).to_be_checked()

    tap(first, 1, "points:2")
    tap(first, 1, "miss")
    expect(rolling(first, 2)).to_be_checked()
    expect(rolling(second, 2)).to_be_checked()  # by its next poll
    second.locator("#taps button[value='points:1']").click()
    expect(score(second, 1)).to_have_text("1")  # seats 2 and 4 are partners
    assert Entry.objects.filter(table=t2, seat=2, points=1).exists()

    # A choice made by hand stays while the table's rolls leave the dice where they are.
    second.locator("label.chip:has(input[value='4'])").click()
    tap(first, 2, "points:2")
    expect(score(second, 1)).to_have_text("3")
    expect(rolling(second, 4)).to_be_checked()


def test_a_seat_picked_by_hand_stays_when_the_phone_s_own_taps_arrive(contexts, live_server):
    """The phone moved its own choice when it tapped Miss (the dice passed): the board that
    tap brings back, once the Wi-Fi is back, does not undo a seat picked by hand since."""
    night = make_night(make_group(regulars=12, substitutes=0), sets=1)
    start_night(night, seed=3)
    t2 = night.tables.get(number=2)
    page = table_phone(contexts, f"{live_server.url}/t/{t2.token}/")
    page.context.set_offline(True)
    until(page, "navigator.onLine === false", "the page does not know it is offline")
    tap(page, 1, "miss")
    expect(rolling(page, 2)).to_be_checked()
    page.locator("label.chip:has(input[value='4'])").click()
    page.context.set_offline(False)
    expect(page.locator("#offline")).to_be_hidden()
    until(page, "document.getElementById('board').dataset.roller === '2'", "the tap's board")
    page.wait_for_timeout(2_500)  # and the next poll
    expect(rolling(page, 4)).to_be_checked()
    assert Entry.objects.filter(table=t2, seat=1, kind="miss").count() == 1


def test_a_bell_taken_back_lets_the_tables_play_on_and_rings_again(contexts, live_server):
    """docs/rules.md section 6.2: the head table undoes the roll that rang the bell."""
    night = make_night(make_group(regulars=12, substitutes=0), sets=1)
    rnd = start_night(night, seed=3)
    head, t2 = night.tables.get(number=1), night.tables.get(number=2)
    page = table_phone(contexts, f"{live_server.url}/t/{t2.token}/")
    tap(page, 1, "points:1")  # not a tie: no extra turns after the bell
    for seat in (1, 2, 3, 4):
        tap(page, seat, "miss")
    expect(score(page, 0)).to_have_text("1")
    last = None
    for _ in range(11):
        last = server_tap(head, 1, "points", 2)  # 22: the head table's target, the bell
    done = page.get_by_role("button", name="Done ✔")
    done.click()
    expect(page.locator("#board")).to_contain_text("Done. Waiting for the other tables.")
    # Done stops the taps: the tap controls go, drawn in place (no reload).
    expect(page.locator("#taps")).to_have_count(0)
    assert page.evaluate("Number(sessionStorage.rings)") == 1

    entry_undo(table=head, entry_id=last.pk)
    expect(page.locator(".toast")).to_have_text("The bell was taken back: play on.")
    expect(page.locator("#taps button[value='points:1']")).to_be_visible()
    expect(page.locator("#board")).not_to_contain_text("Done. Waiting")
    tap(page, 1, "points:1")
    expect(score(page, 0)).to_have_text("2")
    assert Entry.objects.filter(table=t2, points=1, late_at__isnull=True).count() == 2

    server_tap(head, 1, "points", 2)  # the bell again
    expect(done).to_be_visible()
    until(page, "Number(sessionStorage.rings) === 2", "the bell did not ring again")
    assert rnd.entries.filter(table=head, undone_at__isnull=True).count() == 11


def test_a_tap_on_a_table_s_old_link_says_the_link_was_replaced(contexts, live_server):
    night = make_night(make_group(regulars=12, substitutes=0), sets=1)
    start_night(night, seed=3)
    t2 = night.tables.get(number=2)
    page = table_phone(contexts, f"{live_server.url}/t/{t2.token}/")
    expect(page.locator("#taps")).to_be_visible()
    table_link_renew(table=t2)
    tap(page, 1, "points:1")
    expect(page.locator("#queue")).to_contain_text(
        "This link no longer works: the host may have made a new one. Scan the table's new code."
    )
    assert not Entry.objects.filter(table=t2).exists()


def test_closing_the_round_after_its_bell_is_not_a_bell_taken_back(contexts, live_server):
    night = make_night(make_group(regulars=12, substitutes=0), sets=1)
    rnd = start_night(night, seed=3)
    page = table_phone(contexts, f"{live_server.url}/t/{night.tables.get(number=2).token}/")
    play_round(night, close=False)  # the bell, and every table Done
    expect(page.locator("#board")).to_contain_text("Done. Waiting for the other tables.")
    # Done stops the taps: the tap controls go, drawn in place (no reload).
    expect(page.locator("#taps")).to_have_count(0)
    assert page.evaluate("Number(sessionStorage.rings)") == 1
    round_close(rnd=rnd)
    expect(page.locator("#board")).to_contain_text("Where to sit next")
    page.wait_for_timeout(2_500)  # another poll
    # Looked at once, not waited for: a toast goes by itself after six seconds.
    assert page.locator(".toast").count() == 0
    assert not page.evaluate("Object.keys(sessionStorage).some(k => k.startsWith('bunco-notice'))")
