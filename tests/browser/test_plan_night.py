"""A host plans a night on a phone in real headless Chromium.

Log in, open the group, plan a night, send a substitute, mark someone not coming
(the group fills empty seats with ghosts), take dues, draw the seating, swap two
seats by tapping them, and put the chart on the TV. Every page is photographed at
phone and laptop size into helpers.SHOTS for a person to look at.
"""

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from bunco_night.groups.models import Player
from bunco_night.groups.services import group_create, player_add, rules_update
from tests.browser.helpers import SHOTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 412, "height": 915}
LAPTOP = {"width": 1280, "height": 800}
REGULARS = [
    "Ann Baker",
    "Bea Cruz",
    "Carol Diaz",
    "Dana Evans",
    "Edie Ford",
    "Fran Gray",
    "Gail Hunt",
    "Hope Ives",
    "Iris Jones",
    "June King",
    "Kay Lopez",
    "Lou Moss",
]
SUBSTITUTES = ["Gwen Hart", "Nell Owens"]


def shoot(page, name):
    """A full-page photo at phone size, then at laptop size."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SHOTS / f"{name}-phone.png", full_page=True)
    page.set_viewport_size(LAPTOP)
    page.screenshot(path=SHOTS / f"{name}-laptop.png", full_page=True)
    page.set_viewport_size(PHONE)


@pytest.fixture
def group():
    host = get_user_model().objects.create_user("host", password="bunco")
    group = group_create(name="Maple Street Bunco", user=host)
    rules_update(group=group, changes={"fill": "ghosts"})
    for i, name in enumerate(REGULARS):
        player_add(
            group=group,
            name=name,
            phone=f"555-01{i:02d}",
            email=f"{name.split()[0].lower()}@example.com",
        )
    for i, name in enumerate(SUBSTITUTES):
        player_add(group=group, name=name, kind=Player.Kind.SUBSTITUTE, phone=f"555-09{i:02d}")
    return group


def log_in(page, live_server):
    page.goto(live_server.url)
    page.get_by_role("link", name="Host log in").first.click()
    page.get_by_label("Username").fill("host")
    page.get_by_label("Password").fill("bunco")
    page.get_by_role("button", name="Log in").click()
    page.get_by_role("link", name="Your groups").first.click()
    expect(page.locator("h1")).to_have_text("Your groups")


def test_host_plans_a_night_with_a_substitute_a_ghost_dues_and_seating(page, live_server, group):
    log_in(page, live_server)
    shoot(page, "groups")

    page.get_by_role("link", name=re.compile("Maple Street Bunco")).click()
    expect(page.locator("h1")).to_have_text("Maple Street Bunco")
    shoot(page, "group")

    page.get_by_role("link", name=re.compile("^Roster")).click()
    expect(page.locator("#regulars")).to_contain_text("12")
    expect(page.get_by_role("link", name="555-0100")).to_be_visible()
    shoot(page, "roster")
    page.get_by_role("link", name="Edit Ann Baker").click()
    expect(page.get_by_label("Phone")).to_have_value("555-0100")
    shoot(page, "player")
    page.get_by_role("link", name="Maple Street Bunco").click()

    page.get_by_role("link", name=re.compile("^Rules")).click()
    expect(page.get_by_label("Ghosts fill the empty seats")).to_be_checked()
    shoot(page, "rules")
    page.get_by_role("link", name="Maple Street Bunco").click()

    page.get_by_role("link", name=re.compile("^Plan a night")).click()
    page.get_by_label("Place").fill("Ann's house")
    shoot(page, "night-new")
    page.get_by_role("button", name="Plan the night").click()
    expect(page.locator("#attendance h2")).to_contain_text("12 playing")

    # Carol sends Gwen; Dana sends nobody, so a ghost takes her seat and she still owes.
    carol = page.locator(".att-row", has_text="Carol Diaz")
    carol.locator("summary").click()  # "Sub…": sends a substitute
    carol.get_by_label("Substitute for Carol Diaz").select_option(label="Gwen Hart")
    carol.get_by_role("button", name="Send this substitute").click()
    expect(carol).to_contain_text("Sends a substitute: Gwen Hart")
    dana = page.locator(".att-row", has_text="Dana Evans")
    dana.get_by_role("button", name="Not coming").click()
    expect(dana).to_contain_text("Ghost takes the seat")
    expect(dana).to_contain_text("Still owes dues")
    expect(page.locator("#attendance h2")).to_contain_text("11 playing")

    for name in ("Ann Baker", "Bea Cruz", "Dana Evans"):
        page.get_by_role("button", name=f"Mark $5.00 paid for {name}").click()
        expect(page.locator(".dues-row", has_text=name)).to_contain_text("✓ paid")
    expect(page.locator(".totals .pot dd")).to_have_text("$15.00")
    expect(dana).to_contain_text("Dues paid")  # her attendance row follows her dues line
    expect(dana).not_to_contain_text("Still owes dues")
    # A mis-tapped Take back asks first, and No closes the question with the payment kept.
    page.get_by_role("button", name="Take back $5.00 from Bea Cruz").click()
    question = page.get_by_role("alertdialog", name="Take back a payment")
    expect(question).to_contain_text("Take back $5.00 paid for Bea Cruz?")
    question.get_by_role("link", name="No").click()
    expect(question).to_have_count(0)
    expect(page.locator(".dues-row", has_text="Bea Cruz")).to_contain_text("✓ paid")
    expect(page.get_by_role("button", name="Take back $5.00 from Bea Cruz")).to_be_visible()

    page.get_by_label(re.compile("^Seed")).fill("2024")
    page.get_by_role("button", name="Draw seating").click()
    tables = page.locator(".table-card")
    expect(tables).to_have_count(3)
    expect(page.locator(".seed-used")).to_have_text("2024")
    for i in range(3):
        expect(tables.nth(i).locator("li.seat")).to_have_count(4)
    expect(tables.first.locator(".table-title")).to_contain_text("Table 1 · Head table")
    names = page.locator(".seat-name").all_inner_texts()
    players = sorted(n for n in names if "Ghost" not in n)
    expected = sorted(set(REGULARS) - {"Carol Diaz", "Dana Evans"} | {"Gwen Hart"})
    assert players == expected

    ghost = page.locator("li.seat.ghost")
    expect(ghost).to_have_count(1)
    expect(ghost).to_contain_text("Ghost (for Dana Evans)")
    partner = ghost.locator(".partner").inner_text().removeprefix("partner: ")
    assert partner in expected
    ghost_table = page.locator(".table-card", has=ghost)
    number = int(ghost.locator(".seat-no").inner_text())
    across = ghost_table.locator("li.seat").nth((number + 1) % 4)
    expect(across).not_to_have_class(re.compile("ghost"))
    expect(across.locator(".seat-name")).to_have_text(partner)
    shoot(page, "night")

    # Arrange by hand: tap a seat at the head table, then one at table 2.
    first = tables.nth(0).locator(".seat-name").first.inner_text()
    second = tables.nth(1).locator(".seat-name").first.inner_text()
    tables.nth(0).locator(".seat-body").first.click()
    expect(page.locator("li.seat.picked")).to_have_count(1)
    shoot(page, "night-pick")
    tables.nth(1).locator(".seat-body").first.click()
    expect(page.locator("li.seat.picked")).to_have_count(0)
    expect(tables.nth(0).locator(".seat-name").first).to_have_text(second)
    expect(tables.nth(1).locator(".seat-name").first).to_have_text(first)

    page.get_by_role("link", name="Show on TV").click()
    expect(page.locator("body")).to_have_class("tv")
    expect(page.locator(".site-header")).to_have_count(0)
    expect(page.locator(".table-card")).to_have_count(3)
    expect(page.locator(".table-card").first).to_contain_text("Head table")
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.screenshot(path=SHOTS / "tv-1080p.png")
    page.set_viewport_size(PHONE)
    shoot(page, "tv")

    # Back on the group page, the night is listed with its sections one tap away.
    page.go_back()
    page.get_by_role("link", name="Maple Street Bunco").click()
    night = page.locator(".night-card")
    expect(night).to_contain_text("Ann's house · 11 playing")
    expect(night.get_by_role("link", name="Seating")).to_be_visible()
    shoot(page, "group-with-night")
