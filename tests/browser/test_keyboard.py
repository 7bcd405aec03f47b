"""What a keyboard user gets: every control reached with Tab shows where the focus is."""

import pytest

from tests.browser.helpers import phone
from tests.factories import make_group, make_night
from tests.play.helpers import start_night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The focused control's outline; a radio hidden inside its face (a name chip, a die face)
# shows the focus on the face beside it.
FOCUS_SHOWN = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const hidden = getComputedStyle(el).opacity === "0";
  const shown = hidden ? el.nextElementSibling : el;
  const style = getComputedStyle(shown);
  return {
    control: el.outerHTML.slice(0, 80),
    shown: style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 1,
  };
}"""


def tab_stops(page, most=60) -> list[dict]:
    """Each control that Tab reaches, once, from the top of the page."""
    stops = []
    for _ in range(most):
        page.keyboard.press("Tab")
        stop = page.evaluate(FOCUS_SHOWN)
        if stop is None or (stops and stop == stops[0]):
            break
        stops.append(stop)
    return stops


def test_every_control_on_the_table_phone_shows_the_keyboard_focus(contexts, live_server):
    night = make_night(make_group(regulars=8, substitutes=0), sets=1)
    start_night(night)
    page = phone(contexts, f"{live_server.url}/t/{night.tables.get(number=1).token}/")
    page.get_by_text("Enter the dice instead").click()
    stops = tab_stops(page)
    assert any('name="d1"' in s["control"] for s in stops)  # the dice faces were reached
    assert [s["control"] for s in stops if not s["shown"]] == []
