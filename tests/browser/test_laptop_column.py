"""The table phone's page opened on a laptop: everything a table taps lies in the one
centred column, the dice entry under it too, and "How do we play?"."""

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import phone
from tests.factories import make_group, make_night
from tests.play.helpers import start_night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width,height", [(1366, 768), (1920, 1080)])
def test_the_dice_entry_lies_in_the_centred_column(contexts, live_server, width, height):
    night = make_night(make_group(regulars=12, substitutes=0), sets=1)
    start_night(night, seed=3)
    table = night.tables.get(number=2)
    page = phone(contexts, f"{live_server.url}/t/{table.token}/", width, height)
    expect(page.locator("#taps")).to_be_visible()
    column = page.locator("#taps").bounding_box()
    assert column["x"] > 100  # centred, not edge to edge
    for what in [page.get_by_text("Enter the dice instead"), page.locator(".how-link-line a")]:
        box = what.bounding_box()
        assert (
            column["x"] <= box["x"] and box["x"] + box["width"] <= column["x"] + column["width"]
        ), f"{what}: {box} outside the column {column}"
