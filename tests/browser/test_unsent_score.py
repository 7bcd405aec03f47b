"""Offline, the big score counts the taps waiting on the phone, marked as not sent yet, so
the table still sees when it reaches its target; the waiting taps read newest first, as
"Last entries" do, above them."""

import pytest
from playwright.sync_api import expect

from bunco_night.play.models import Entry
from tests.browser.helpers import phone, score, tap, until
from tests.factories import make_group, make_night
from tests.play.helpers import start_night
from tests.play.helpers import tap as server_tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = [(360, 740), (390, 844), (360, 640)]


def offline(page):
    page.context.set_offline(True)
    until(page, "navigator.onLine === false", "the page does not know it is offline")


def names(table) -> dict[int, str]:
    """Seat number -> who sits there in round 1."""
    seats = table.night.rounds.get(number=1).seats.filter(table=table).select_related("player")
    return {s.number: s.player.name for s in seats}


@pytest.mark.parametrize("width,height", SIZES)
def test_four_taps_offline_show_in_the_score_marked_as_not_sent(
    contexts, live_server, width, height
):
    night = make_night(make_group(regulars=12, substitutes=0), sets=1)
    start_night(night, seed=3)
    table = night.tables.get(number=2)
    server_tap(table, 1, "points", 2)
    server_tap(table, 1, "points", 1)
    page = phone(contexts, f"{live_server.url}/t/{table.token}/", width=width, height=height)
    expect(score(page, 0)).to_have_text("3")
    expect(score(page, 1)).to_have_text("0")
    unsent = page.locator(".score-box.unsent")
    expect(unsent).to_have_count(0)

    offline(page)
    tap(page, 1, "points:1")
    tap(page, 1, "points:1")
    tap(page, 1, "miss")  # the dice pass to seat 2, across the table: "Them"
    tap(page, 2, "points:2")
    expect(page.locator("#offline")).to_contain_text("4 taps wait on this phone")
    expect(score(page, 0)).to_have_text("5")
    expect(score(page, 1)).to_have_text("2")
    expect(unsent).to_have_count(2)
    expect(unsent.nth(0)).to_contain_text("+2 not sent yet")
    expect(unsent.nth(1)).to_contain_text("+2 not sent yet")

    # One order: the newest first, the waiting taps above the entries stored.
    who = names(table)
    waiting = page.locator("#queue .parked.waiting p")
    expect(waiting).to_have_text(
        [
            f"Not sent yet: +2 for {who[2]}",
            f"Not sent yet: Miss for {who[1]}",
            f"Not sent yet: +1 for {who[1]}",
            f"Not sent yet: +1 for {who[1]}",
        ]
    )
    expect(page.locator("#recent .recent li")).to_have_text(
        [f"{who[1]}: +1 Undo", f"{who[1]}: +2 Undo"]
    )
    assert page.evaluate(
        """() => document.querySelector('#queue').compareDocumentPosition(
             document.querySelector('#recent')) & Node.DOCUMENT_POSITION_FOLLOWING"""
    )
    # A mis-tap cancelled: the score takes it back at once.
    page.locator("#queue .parked.waiting").nth(0).get_by_role("button", name="Cancel").click()
    expect(score(page, 1)).to_have_text("0")
    expect(unsent).to_have_count(1)

    page.context.set_offline(False)
    expect(page.locator("#recent .recent li")).to_have_count(5)  # each stored, once
    expect(page.locator("#offline")).to_be_hidden()
    expect(score(page, 0)).to_have_text("5")
    expect(score(page, 1)).to_have_text("0")
    expect(unsent).to_have_count(0)
    assert Entry.objects.filter(table=table).count() == 5


def test_dice_entered_offline_count_as_the_rules_score_them(contexts, live_server):
    night = make_night(make_group(regulars=12, substitutes=0), sets=1)
    start_night(night, seed=3)
    table = night.tables.get(number=2)
    mark = night.rounds.get(number=1).mark
    other = mark % 6 + 1
    page = phone(contexts, f"{live_server.url}/t/{table.token}/", width=360, height=740)
    offline(page)
    page.get_by_text("Enter the dice instead").click()
    for faces in ([mark, other, mark], [other, other, other]):  # two of the mark, a mini bunco
        for die, face in enumerate(faces, start=1):
            page.locator(
                f".die-row[aria-label='Die {die}'] label:has(input[value='{face}'])"
            ).click()
        page.get_by_role("button", name="Score these dice").click()
    expect(page.locator("#offline")).to_contain_text("2 taps wait")
    expect(score(page, 0)).to_have_text("7")  # 2, and 5 for the mini bunco (house rules)
    expect(page.locator(".score-box.unsent")).to_contain_text("+7 not sent yet")
    page.context.set_offline(False)
    expect(page.locator("#recent .recent li")).to_have_count(2)
    expect(page.locator(".score-box.unsent")).to_have_count(0)
    expect(score(page, 0)).to_have_text("7")


# What says a tap waits that is not read whole: cut short ("+3 not s…"), or running under
# something else; and whether the connection's banner lies over more than the header.
CUT_SHORT = """() => {
  const cut = [...document.querySelectorAll('#offline, .unsent-note')].filter(el =>
    el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1
  ).map(el => el.textContent);
  const banner = document.querySelector('#offline').getBoundingClientRect();
  const head = document.querySelector('#table-head').getBoundingClientRect();
  return [cut, Math.round(banner.bottom - head.bottom)];
}"""


@pytest.mark.parametrize("text", ["normal", "bigger"])
@pytest.mark.parametrize("width,height", [(320, 568), (360, 640)])
def test_at_a_table_of_three_what_waits_on_the_phone_reads_whole(
    contexts, live_server, width, height, text
):
    """The connection's banner ("Offline. 4 taps wait on this phone") and each side's "+3 not
    sent yet" read whole, on two lines if need be: before, a narrow phone with Bigger text
    showed "Offline. 4 taps wait on this …" and "+3 not s…". The banner lies over the
    header only, the round's line and the news under it still in sight."""
    night = make_night(make_group(regulars=11, substitutes=0), sets=1)
    start_night(night, seed=3)
    table = next(t for t in night.tables.all() if len(names(t)) == 3)
    page = phone(contexts, f"{live_server.url}/t/{table.token}/", width=width, height=height)
    if text == "bigger":
        page.get_by_role("button", name="Bigger text").click()
        page.reload()
    offline(page)
    tap(page, 1, "points:1")
    tap(page, 1, "points:2")
    tap(page, 1, "miss")
    tap(page, 3, "points:1")
    expect(page.locator("#offline")).to_contain_text("4 taps wait on this phone")
    expect(page.locator(".score-box.unsent")).to_have_count(2)
    expect(page.locator(".score-box.unsent").first).to_contain_text("+3 not sent yet")
    page.evaluate("window.scrollTo(0, 0)")
    cut, below_head = page.evaluate(CUT_SHORT)
    assert cut == [], f"{width}x{height}, {text} text: cut short: {cut}"
    assert below_head <= 1, f"the banner lies {below_head} px over the page under the header"
