"""A host retires a player from the roster on a phone, in real headless Chromium: the first
tap only asks, in the player's card (No keeps them), and Yes retires; without JavaScript
the question is a page of its own (docs/rules.md section 8.1). Pages are photographed into
helpers.SHOTS.
"""

import datetime as dt

import pytest
from playwright.sync_api import expect

from bunco_night.groups.models import Player
from tests.browser.helpers import SHOTS, fits, host_phone
from tests.factories import make_group, make_night, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_retire_on_the_roster_asks_first(contexts, live_server):
    group = make_group(user=make_user())
    night = make_night(group, date=dt.date(2027, 1, 2))
    ann = group.players.get(name="Regular 1")
    page = host_phone(contexts, live_server, f"/groups/{group.slug}/roster/")
    card = page.locator(f"#player-{ann.pk}")

    # A mis-tap only asks; No keeps Regular 1 on the roster and on the night's list.
    card.get_by_role("button", name="Retire Regular 1").click()
    question = card.get_by_role("alertdialog")
    expect(question).to_contain_text("Retire Regular 1?")
    expect(question).to_contain_text("comes off the lists of the nights not started yet")
    expect(page.get_by_role("alertdialog")).to_have_count(1)
    SHOTS.mkdir(parents=True, exist_ok=True)
    question.scroll_into_view_if_needed()
    page.screenshot(path=SHOTS / "retire-question-phone.png")
    assert fits(page)
    assert not Player.objects.get(pk=ann.pk).retired
    question.get_by_role("link", name="No, keep Regular 1").click()
    expect(card.get_by_role("button", name="Retire Regular 1")).to_be_visible()
    expect(page.get_by_role("alertdialog")).to_have_count(0)
    assert night.attendances.filter(player=ann).exists()

    card.get_by_role("button", name="Retire Regular 1").click()
    card.get_by_role("alertdialog").get_by_role("button", name="Yes, retire Regular 1").click()
    retired = page.get_by_role("region", name="Retired")
    expect(retired.locator(f"#player-{ann.pk}")).to_be_visible()
    expect(retired.get_by_role("button", name="Bring back Regular 1")).to_be_visible()
    assert Player.objects.get(pk=ann.pk).retired
    assert not night.attendances.filter(player=ann).exists()


def test_retire_asks_first_without_javascript(contexts, live_server):
    group = make_group(user=make_user())
    bea = group.players.get(name="Regular 2")
    page = host_phone(
        contexts, live_server, f"/groups/{group.slug}/roster/{bea.pk}/", java_script_enabled=False
    )
    page.get_by_role("button", name="Retire Regular 2").click()
    question = page.get_by_role("alertdialog")
    expect(question).to_contain_text("Retire Regular 2?")
    page.screenshot(path=SHOTS / "retire-question-no-js-phone.png", full_page=True)
    assert fits(page)
    assert not Player.objects.get(pk=bea.pk).retired
    question.get_by_role("button", name="Yes, retire Regular 2").click()
    expect(page.locator(".messages")).to_contain_text("Regular 2 is retired.")
    assert Player.objects.get(pk=bea.pk).retired


def test_the_question_opens_where_the_host_tapped_far_down_the_roster(contexts, live_server):
    """A long roster scrolled down: the question opens in sight, and No keeps it so."""
    group = make_group(user=make_user(), regulars=30)
    player = group.players.get(name="Regular 20")
    page = host_phone(contexts, live_server, f"/groups/{group.slug}/roster/")
    card = page.locator(f"#player-{player.pk}")
    retire = card.get_by_role("button", name="Retire Regular 20")
    retire.scroll_into_view_if_needed()
    retire.click()
    question = card.get_by_role("alertdialog")
    expect(question).to_contain_text("Retire Regular 20?")
    expect(question.locator(".confirm-title")).to_be_in_viewport()
    question.get_by_role("link", name="No, keep Regular 20").click()
    expect(page.get_by_role("alertdialog")).to_have_count(0)
    expect(card.get_by_role("button", name="Retire Regular 20")).to_be_in_viewport()
    expect(question.get_by_role("button", name="Yes, retire Regular 20")).to_have_count(0)

    # Yes: the card is now among the retired, and the page goes there and says so.
    retire.click()
    card.get_by_role("button", name="Yes, retire Regular 20").click()
    retired = page.get_by_role("region", name="Retired").locator(f"#player-{player.pk}")
    expect(retired.get_by_role("status")).to_have_text("Regular 20 is retired.")
    expect(retired.get_by_role("status")).to_be_in_viewport()
    # Bring back: the same, back among the regulars.
    retired.get_by_role("button", name="Bring back Regular 20").click()
    back = page.get_by_role("region", name="Regulars").locator(f"#player-{player.pk}")
    expect(back.get_by_role("status")).to_have_text("Regular 20 is back on the roster.")
    expect(back.get_by_role("status")).to_be_in_viewport()
