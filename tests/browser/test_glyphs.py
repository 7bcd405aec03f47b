"""The bell and the dice show on every phone: drawn as SVG, not taken from an emoji font
that Debian's headless Chromium (like many a browser) does not have."""

import io
import re

import pytest
from PIL import Image
from playwright.sync_api import expect

from bunco_night.play.services import bell_ring
from tests.browser.helpers import phone
from tests.factories import make_group, make_night
from tests.play.helpers import start_night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

EMOJI = re.compile("[\U0001f000-\U0001faff\u2705\u23f1]")


def drawn(page, locator) -> bool:
    """The element's pixels are not all one colour: something is drawn there."""
    image = Image.open(io.BytesIO(locator.screenshot())).convert("RGB")
    return len(image.getcolors(maxcolors=4096) or range(4097)) > 1


def test_the_bell_and_the_dice_are_drawn_on_the_head_tables_phone(contexts, live_server):
    night = make_night(make_group(regulars=8, substitutes=0), sets=1)
    start_night(night, seed=1)
    bell_ring(night=night)
    page = phone(contexts, f"{live_server.url}/t/{night.tables.get(number=1).token}/")
    expect(page.locator("#board")).to_contain_text("BELL!")
    page.get_by_text("Enter the dice instead").click()

    assert not EMOJI.search(page.locator("body").inner_text())
    for where in (".badge.head", ".bell-banner", ".dice-entry summary"):
        glyph = page.locator(f"{where} svg.glyph")
        expect(glyph).to_be_visible()
        assert glyph.get_attribute("aria-hidden") == "true"
        box = glyph.bounding_box()
        assert box["width"] >= 12 and box["height"] >= 12, where
        assert drawn(page, glyph), where


def test_a_timed_rounds_stopwatch_is_drawn(contexts, live_server):
    group = make_group(regulars=8, substitutes=0, round_minutes=10)
    night = make_night(group, sets=1)
    start_night(night, seed=1)
    page = phone(contexts, f"{live_server.url}/t/{night.tables.get(number=2).token}/")
    clock = page.locator(".clock")
    expect(clock).to_contain_text(":")
    assert not EMOJI.search(page.locator("body").inner_text())
    glyph = clock.locator("svg.glyph-clock")
    expect(glyph).to_be_visible()
    assert drawn(page, glyph)
