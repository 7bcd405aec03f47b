"""A regular answers from her own link on a phone, the group's substitutes are asked, one
accepts, and the host's night page shows it as it happens: real headless Chromium.

Pages are photographed into helpers.SHOTS for a person to look at.
"""

import datetime as dt
import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.utils import timezone
from playwright.sync_api import expect

from bunco_night.groups.models import Player
from bunco_night.groups.services import (
    group_create,
    hosting_turn_set,
    player_add,
    season_create,
)
from bunco_night.invites.models import SubstituteOffer
from bunco_night.invites.services import link_for
from bunco_night.nights.services import night_create, payment_record
from tests.browser.helpers import SHOTS, host_page, phone
from tests.seasons.helpers import play_night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SMALL_PHONE = {"width": 360, "height": 740}
REGULARS = [
    "Ann Baker",
    "Bea Cruz",
    "Carol Diaz",
    "Dana Evans",
    "Edie Ford",
    "Fran Gray",
    "Gail Hunt",
    "Hope Ives",
]
SUBSTITUTES = ["Gwen Hart", "Nell Owens"]


def no_sideways_scroll(page):
    """Nothing sticks out to the right on a narrow phone."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"{page.url} is {width}px wide"


@pytest.fixture
def group():
    host = get_user_model().objects.create_user("host", password="bunco")
    group = group_create(name="Maple Street Bunco", user=host)
    for i, name in enumerate(REGULARS):
        player_add(group=group, name=name, phone=f"555-01{i:02d}", email=f"r{i}@example.com")
    for i, name in enumerate(SUBSTITUTES):
        player_add(
            group=group,
            name=name,
            kind=Player.Kind.SUBSTITUTE,
            phone=f"555-09{i:02d}",
            email=f"s{i}@example.com",
        )
    return group


def test_a_regular_sends_a_substitute_from_her_phone_and_the_host_sees_one_accept(
    contexts, live_server, group
):
    SHOTS.mkdir(parents=True, exist_ok=True)
    night = night_create(
        group=group,
        date=timezone.localdate() + dt.timedelta(days=10),
        time=dt.time(19, 0),
        place="Ann's house",
    )
    host = host_page(contexts, live_server, night, path=night.get_absolute_url())
    panel = host.locator("#answers")
    expect(panel).to_contain_text("0 of 8 answered")

    # Carol opens her own link on a small phone and sends a substitute: the group's.
    mine = f"{live_server.url}/me/{link_for(group.players.get(name='Carol Diaz')).token}/"
    carol = phone(contexts, mine, **SMALL_PHONE)
    expect(carol.locator("h1")).to_have_text("Hi Carol Diaz!")
    expect(carol.locator(".now")).to_have_text("Not answered yet.")  # the host has her coming
    no_sideways_scroll(carol)
    carol.screenshot(path=SHOTS / "mine-phone.png", full_page=True)
    carol.get_by_text("I'm sending a substitute").click()
    expect(carol.get_by_label(re.compile("Ask the group's substitutes for me"))).to_be_checked()
    carol.get_by_label("A note for the host (optional)").nth(1).fill("My sister's wedding")
    carol.screenshot(path=SHOTS / "mine-substitute-phone.png", full_page=True)
    carol.get_by_role("button", name="Send my answer").click()
    expect(carol.locator(".messages")).to_contain_text("the group's substitutes are being asked")
    expect(carol.locator(".now")).to_contain_text("the group's substitutes are being asked")
    no_sideways_scroll(carol)

    # Both substitutes are asked by e-mail, each with a link of their own.
    offers = {o.player.name: o for o in SubstituteOffer.objects.select_related("player")}
    assert set(offers) == set(SUBSTITUTES)
    assert sorted(m.to[0] for m in mail.outbox) == ["s0@example.com", "s1@example.com"]
    links = {m.to[0]: re.search(r"https?://\S+/sub/[\w-]+/", m.body)[0] for m in mail.outbox}

    # The host's page shows the answer and the asking without a reload.
    row = panel.locator(".answer", has_text="Carol Diaz")
    expect(row).to_contain_text("“My sister's wedding”")
    expect(row).to_contain_text("Gwen Hart: asked")
    expect(row).to_contain_text("Nell Owens: asked")
    expect(host.locator(".att-row", has_text="Carol Diaz")).to_contain_text("Not coming")

    # Nell accepts first on her phone; Gwen is too late.
    nell = phone(contexts, links["s1@example.com"], **SMALL_PHONE)
    expect(nell.locator(".now")).to_contain_text("Carol Diaz cannot come")
    no_sideways_scroll(nell)
    nell.screenshot(path=SHOTS / "offer-phone.png", full_page=True)
    nell.get_by_role("button", name="Yes, I'll play").click()
    expect(nell.locator(".messages")).to_contain_text("You have the seat.")
    gwen = phone(contexts, links["s0@example.com"], **SMALL_PHONE)
    expect(gwen.locator(".now")).to_contain_text("Nell Owens took Carol Diaz's seat")

    expect(row).to_contain_text("Seat filled")
    expect(row.locator(".offer-accepted", has_text="Nell Owens")).to_be_visible()
    expect(host.locator(".att-row", has_text="Carol Diaz")).to_contain_text(
        "Sends a substitute: Nell Owens"
    )
    host.screenshot(path=SHOTS / "night-answers-laptop.png", full_page=True)
    assert any(m.to == ["s0@example.com"] and "filled" in m.subject for m in mail.outbox)


def test_season_pages_fit_a_small_phone(contexts, live_server, group):
    SHOTS.mkdir(parents=True, exist_ok=True)
    season = season_create(
        group=group, name="2026", starts=dt.date(2026, 1, 1), ends=dt.date(2026, 12, 31)
    )
    hosting_turn_set(
        season=season, month=dt.date(2026, 3, 1), host=group.players.get(name="Bea Cruz")
    )
    for month, seed in ((2, 1), (3, 2)):
        night = night_create(group=group, date=dt.date(2026, month, 12))
        for a in night.attendances.all():
            payment_record(attendance=a, amount_cents=500)
        play_night(
            night, winners=[["Ann Baker"], ["Bea Cruz"]], buncos={0: ["Carol Diaz"]}, seed=seed
        )
    page = phone(contexts, f"{live_server.url}/accounts/login/", **SMALL_PHONE)
    page.get_by_label("Username").fill("host")
    page.get_by_label("Password").fill("bunco")
    page.get_by_role("button", name="Log in").click()
    ann = group.players.get(name="Ann Baker")
    pages = {
        "season": season.get_absolute_url(),
        "season-money": f"/seasons/{season.pk}/money/",
        "season-rotation": f"/seasons/{season.pk}/rotation/",
        "history": f"/seasons/group/{group.slug}/players/{ann.pk}/",
    }
    for name, path in pages.items():
        page.goto(f"{live_server.url}{path}")
        expect(page.locator("h1")).to_be_visible()
        no_sideways_scroll(page)
        page.screenshot(path=SHOTS / f"{name}-phone.png", full_page=True)
    page.goto(f"{live_server.url}{season.get_absolute_url()}")
    expect(page.locator("svg.chart-svg")).to_have_count(2)
    box = page.locator("svg.chart-svg").first.bounding_box()
    assert box["width"] <= SMALL_PHONE["width"]


def test_her_pick_of_substitute_survives_a_form_error_and_is_what_happens(
    contexts, live_server, group
):
    """Docs/rules.md section 8.8 at 390x844: picking or naming a substitute checks "I found
    someone"; a form error keeps her choice and what she typed; the one she picked plays
    for her and the group's substitutes are not asked."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    night = night_create(group=group, date=timezone.localdate() + dt.timedelta(days=10))
    mine = f"{live_server.url}/me/{link_for(group.players.get(name='Carol Diaz')).token}/"
    carol = phone(contexts, mine, width=390, height=844)
    carol.get_by_text("I'm sending a substitute").click()
    ask = carol.get_by_label(re.compile("Ask the group's substitutes for me"))
    found = carol.get_by_label("I found someone:")
    expect(ask).to_be_checked()

    # Typing a new name checks "I found someone"; a bad e-mail is a form error.
    carol.get_by_label("Name", exact=True).fill("Bo Peep")
    expect(found).to_be_checked()
    carol.get_by_label("E-mail").fill("bo@")
    carol.get_by_label("A note for the host (optional)").nth(1).fill("My sister's wedding")
    carol.get_by_role("button", name="Send my answer").click()
    expect(carol.locator(".error")).to_contain_text("Enter an e-mail address like ann@example.com.")
    expect(found).to_be_checked()
    expect(ask).not_to_be_checked()
    expect(carol.get_by_label("Name", exact=True)).to_have_value("Bo Peep")
    expect(carol.get_by_label("A note for the host (optional)").nth(1)).to_have_value(
        "My sister's wedding"
    )
    no_sideways_scroll(carol)
    carol.screenshot(path=SHOTS / "mine-substitute-error-390.png", full_page=True)

    # She picks Gwen from the list instead, after ticking "Ask" again: the pick is the answer.
    carol.get_by_label("Name", exact=True).fill("")
    carol.get_by_label("E-mail").fill("")
    ask.check()
    carol.get_by_label("A substitute on the list").select_option(label="Gwen Hart")
    expect(found).to_be_checked()
    carol.get_by_role("button", name="Send my answer").click()
    expect(carol.locator(".messages")).to_contain_text("Gwen Hart plays for you")
    expect(carol.locator(".now")).to_contain_text("not coming; Gwen Hart plays for you")
    carol.screenshot(path=SHOTS / "mine-substitute-picked-390.png", full_page=True)
    row = night.attendances.select_related("substitute").get(player__name="Carol Diaz")
    assert row.substitute.name == "Gwen Hart"
    assert not SubstituteOffer.objects.exists() and mail.outbox == []


# Each line of "I'm sending a substitute": its room to the summary's border on the left
# and right, and how far its middle lies from the summary's middle.
SUMMARY_LINES = """() => {
  const summary = document.querySelector('.big-choice summary');
  const box = summary.getBoundingClientRect(), style = getComputedStyle(summary);
  const left = box.left + parseFloat(style.borderLeftWidth);
  const right = box.right - parseFloat(style.borderRightWidth);
  const range = document.createRange();
  range.selectNodeContents(summary);
  return [...range.getClientRects()].filter(r => r.width > 0).map(r => [
    Math.round(r.left - left), Math.round(right - r.right),
    Math.round((r.left + r.right) / 2 - (left + right) / 2)]);
}"""


@pytest.mark.parametrize("width", [320, 360, 390])
def test_i_m_sending_a_substitute_keeps_room_inside_its_border(contexts, live_server, group, width):
    night = night_create(group=group, date=timezone.localdate() + dt.timedelta(days=10))
    mine = f"{live_server.url}/me/{link_for(group.players.get(name='Carol Diaz')).token}/"
    carol = phone(contexts, mine, width=width, height=740)
    expect(carol.locator(".big-choice summary")).to_be_visible()
    assert night.attendances.exists()
    lines = carol.evaluate(SUMMARY_LINES)
    room = carol.evaluate("0.4 * parseFloat(getComputedStyle(document.documentElement).fontSize)")
    assert lines and all(a >= room and b >= room for a, b, _ in lines), f"{width} px: {lines}"
    assert all(abs(middle) <= 2 for _, _, middle in lines), f"{width} px: {lines}"  # centred
    carol.locator(".mine-night").first.screenshot(path=SHOTS / f"mine-summary-{width}.png")
    no_sideways_scroll(carol)
