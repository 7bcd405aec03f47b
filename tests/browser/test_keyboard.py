"""What a keyboard user gets: every control reached with Tab shows where the focus is, and
a control pressed keeps the focus (or hands it on) when htmx redraws its part of the page,
instead of dropping it at the top of the page; a form's error is said on the fields it is
about."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import host_page, phone
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
    expect(page.locator('input[name="d1"]').first).to_be_attached()
    stops = tab_stops(page)
    assert any('name="d1"' in s["control"] for s in stops)  # the dice faces were reached
    assert [s["control"] for s in stops if not s["shown"]] == []


def press(locator, key="Enter"):
    """Focus a control and press a key on it, as a keyboard user does."""
    locator.focus()
    locator.press(key)


def test_the_retire_question_takes_the_focus_and_gives_it_back(contexts, live_server):
    night = make_night(make_group(regulars=8, substitutes=0), sets=1)
    host = host_page(contexts, live_server, night, path=f"/groups/{night.group.slug}/roster/")
    press(host.get_by_role("button", name="Retire Regular 3"))
    question = host.get_by_role("alertdialog", name="Retire Regular 3?")
    expect(question).to_have_accessible_description(re.compile("comes off the lists"))
    expect(question.get_by_role("link", name="No, keep Regular 3")).to_be_focused()

    host.keyboard.press("Enter")  # No, keep
    expect(question).to_have_count(0)
    expect(host.get_by_role("button", name="Retire Regular 3")).to_be_focused()

    host.keyboard.press("Enter")
    expect(question.get_by_role("link", name="No, keep Regular 3")).to_be_focused()
    host.keyboard.press("Shift+Tab")
    expect(question.get_by_role("button", name="Yes, retire Regular 3")).to_be_focused()
    host.keyboard.press("Enter")
    expect(host.get_by_text("Regular 3 is retired.")).to_be_visible()
    expect(host.get_by_role("button", name="Bring back Regular 3")).to_be_focused()


def test_the_nights_buttons_keep_the_focus_when_their_section_is_redrawn(contexts, live_server):
    night = make_night(make_group(regulars=8, substitutes=0), sets=1)
    host = host_page(contexts, live_server, night, path=night.get_absolute_url())
    not_coming = host.get_by_role("button", name="Not coming (Regular 2)")
    press(not_coming)
    expect(not_coming).to_have_attribute("aria-pressed", "true")
    expect(not_coming).to_be_focused()

    press(host.get_by_role("button", name="Mark $5.00 paid for Regular 1"))
    take_back = host.get_by_role("button", name="Take back $5.00 from Regular 1")
    expect(take_back).to_be_focused()  # where the paid button was
    host.keyboard.press("Enter")
    question = host.get_by_role("alertdialog", name="Take back a payment")
    expect(question.get_by_role("link", name="No")).to_be_focused()
    host.keyboard.press("Enter")
    expect(question).to_have_count(0)
    expect(take_back).to_be_focused()


def test_an_undo_on_the_table_phone_leaves_the_focus_among_the_entries(contexts, live_server):
    night = make_night(make_group(regulars=8, substitutes=0), sets=1)
    start_night(night)
    page = phone(contexts, f"{live_server.url}/t/{night.tables.get(number=1).token}/")
    recent = page.locator("#recent")
    press(page.locator("#taps button[value='points:1']"))
    expect(recent.get_by_role("button", name=re.compile("^Undo"))).to_have_count(1)
    press(page.locator("#taps button[value='points:2']"))
    undos = recent.get_by_role("button", name=re.compile("^Undo"))
    expect(undos).to_have_count(2)

    press(undos.first)  # the latest: +2
    expect(undos).to_have_count(1)
    expect(undos).to_be_focused()  # the next one, not the top of the page
    page.keyboard.press("Enter")
    expect(undos).to_have_count(0)
    expect(page.get_by_role("region", name="Entries at this table")).to_be_focused()


def test_who_rolled_the_bunco_is_a_named_dialog_that_gives_the_focus_back(contexts, live_server):
    night = make_night(make_group(regulars=8, substitutes=0), sets=1)
    start_night(night)
    page = phone(contexts, f"{live_server.url}/t/{night.tables.get(number=1).token}/")
    bunco = page.locator("#taps button[data-ask-roller]")
    press(bunco)
    dialog = page.get_by_role("dialog", name="Who rolled the BUNCO?")
    expect(dialog).to_be_visible()
    expect(dialog.locator("button.current")).to_be_focused()  # who is rolling
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(bunco).to_be_focused()


def test_someone_else_arrived_says_what_is_missing_on_its_fields(contexts, live_server):
    night = make_night(make_group(regulars=8, substitutes=1), sets=1)
    host = host_page(contexts, live_server, night, path=night.get_absolute_url())
    host.get_by_role("button", name="Add", exact=True).click()
    said = "Choose who arrived, or type a new name."
    expect(host.get_by_role("alert")).to_have_text(said)
    for field in (host.get_by_label("Someone else arrived"), host.get_by_label("Or someone new")):
        expect(field).to_have_attribute("aria-invalid", "true")
        expect(field).to_have_accessible_description(said)


# The quickest keyboard user: the safe answer is pressed the moment it takes the focus.
# A question swapped in by htmx takes the focus through its [autofocus]; the browser's own
# autofocus can give it before htmx has made the link an htmx link, and a press then
# followed its plain href (the same page, at #dues): nothing happened.
ANSWER_ON_FOCUS = """() => document.addEventListener("focusin", (e) => {
  if (e.target.matches("a[autofocus]")) e.target.click();
}, { once: true })"""


def test_a_question_answered_the_moment_it_takes_the_focus_is_answered(contexts, live_server):
    night = make_night(make_group(regulars=8, substitutes=0), sets=1)
    host = host_page(contexts, live_server, night, path=night.get_absolute_url())
    press(host.get_by_role("button", name="Mark $5.00 paid for Regular 1"))
    take_back = host.get_by_role("button", name="Take back $5.00 from Regular 1")
    expect(take_back).to_be_focused()
    host.evaluate(ANSWER_ON_FOCUS)
    night_page = f"{live_server.url}{night.get_absolute_url()}"
    with host.expect_response(lambda r: r.url == night_page):  # the No, sent by htmx
        host.keyboard.press("Enter")
    expect(host.get_by_role("alertdialog", name="Take back a payment")).to_have_count(0)
    expect(take_back).to_be_focused()
