"""Once the night is over, a table phone and a player's own page list the night's prizes as
their stylesheet says (static/css/play.css): each prize's title and amount on its first
line, who won it under them, at 360 and 390 px; never a title squeezed a word a line."""

import pytest

from bunco_night.play.services import night_finish
from tests.browser.helpers import SHOTS, fits, phone
from tests.factories import make_group, make_night, make_user
from tests.play.helpers import play_round, start_night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Each prize's title, amount and winner: where they sit, and the title's lines.
PLACES = """() => [...document.querySelectorAll('.night-prizes .prize-list li')].map(li => {
  const box = sel => li.querySelector(sel).getBoundingClientRect();
  const title = box('.prize-title'), amount = box('.prize-amount'), who = box('.prize-who');
  const line = parseFloat(getComputedStyle(li.querySelector('.prize-title')).lineHeight);
  return {
    title: li.querySelector('.prize-title').textContent,
    lines: Math.round(title.height / line),
    amountBeside: amount.left >= title.right && amount.top < title.bottom,
    whoUnder: who.top >= title.bottom - 1 && who.top >= amount.bottom - 1,
  };
})"""


@pytest.mark.parametrize("width,height", [(360, 740), (390, 844)])
def test_a_phone_lists_each_prize_with_its_amount_and_its_winner_under_it(
    contexts, live_server, width, height
):
    night = make_night(make_group(user=make_user(), name="Maple Street Bunco"), sets=1)
    start_night(night)
    play_round(night)
    night_finish(night=night)
    table = night.tables.get(number=1)
    player = night.attendances.first()
    for name, path in [("table", f"/t/{table.token}/"), ("player", f"/p/{player.token}/")]:
        page = phone(contexts, f"{live_server.url}{path}", width, height)
        prizes = page.evaluate(PLACES)
        assert len(prizes) == 4, name
        for prize in prizes:
            assert prize["amountBeside"] and prize["whoUnder"], (name, prize)
            # "Last bunco of the night" may take two lines at 360 px, never one a word.
            assert prize["lines"] <= 2, (name, prize)
        assert fits(page)
        SHOTS.mkdir(exist_ok=True)
        page.locator(".night-prizes").scroll_into_view_if_needed()
        page.screenshot(path=SHOTS / f"{name}-prizes-{width}.png")
