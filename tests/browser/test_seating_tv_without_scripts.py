"""The seating TV's one page on a TV that runs no scripts: nothing fits the names then, so
where a name is longer than a card's line the stylesheet makes each card's names as small
as two lines a name need to fit the screen, never below 0.85 % of its width; twelve tables
of names of about 30 characters fit at 1280x720 and 1920x1080 without scrolling. Short
names keep the grid's own size."""

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import host_page, named_night
from tests.browser.test_room_screen_fit import long_names
from tests.factories import make_group, make_night
from tests.play.helpers import start_night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# How far the document scrolls, the screen, and each card: its title's size, whether it is
# cut off, and each name's size and whether it lies inside the card.
CARDS = """() => ({
  scroll: [document.scrollingElement.scrollWidth, document.scrollingElement.scrollHeight],
  screen: [innerWidth, innerHeight],
  cards: [...document.querySelectorAll('.table-card')].map(card => {
    const box = card.getBoundingClientRect();
    return {
      title: card.querySelector('.table-title').textContent.trim(),
      title_size: parseFloat(getComputedStyle(card.querySelector('.table-title')).fontSize),
      cut: [card.scrollWidth - card.clientWidth, card.scrollHeight - card.clientHeight],
      names: [...card.querySelectorAll('.seat-name')].map(n => {
        const r = n.getBoundingClientRect();
        return {text: n.textContent.trim(), size: parseFloat(getComputedStyle(n).fontSize),
                inside: r.left >= box.left - 0.5 && r.right <= box.right + 0.5
                        && r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5};
      })};
  })})"""


@pytest.mark.parametrize("width,height", [(1280, 720), (1920, 1080)])
def test_one_page_of_long_names_fits_the_screen_without_scripts(
    contexts, live_server, width, height
):
    night = named_night(long_names(48))
    tv = host_page(
        contexts, live_server, night, path=f"/nights/{night.pk}/seating/tv/", scripts=False
    )
    tv.set_viewport_size({"width": width, "height": height})
    expect(tv.locator(".table-card")).to_have_count(12)
    shown = tv.evaluate(CARDS)
    assert shown["scroll"] == [width, height], f"the TV scrolls: {shown['scroll']}"
    for card in shown["cards"]:
        assert card["cut"][0] <= 0 and card["cut"][1] <= 0, card
        for name in card["names"]:
            assert name["inside"], (card["title"], name)
            assert name["size"] >= 0.0085 * width - 0.01, (card["title"], name)


def test_short_names_keep_the_grid_s_size_without_scripts(contexts, live_server):
    """Names of at most a line ("Regular 12") are not made smaller."""
    night = make_night(make_group(regulars=48, substitutes=0), sets=1)
    start_night(night, seed=4)
    tv = host_page(
        contexts, live_server, night, path=f"/nights/{night.pk}/seating/tv/", scripts=False
    )
    tv.set_viewport_size({"width": 1280, "height": 720})
    shown = tv.evaluate(CARDS)
    assert shown["scroll"] == [1280, 720]
    sizes = {
        name["size"] == card["title_size"] for card in shown["cards"] for name in card["names"]
    }
    assert sizes == {True}, shown["cards"][0]
