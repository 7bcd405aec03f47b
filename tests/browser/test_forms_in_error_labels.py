"""The forms this helper's fixes changed keep each label with its own field (as
tests/browser/test_form_labels.py checks every form page as it first shows), in the
states that page does not reach: the Rules & prizes sections refused, with every field
linked from the summary, the percent boxes marked and the note under round numbers
listed twice; and the host's Correct page for a table, with what "Rolled for" means."""

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import host_phone
from tests.browser.test_form_labels import MISPLACED
from tests.factories import make_night
from tests.play.helpers import ring_the_bell, start_night, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = [360, 1366]


def misplaced(page) -> list[str]:
    wrong = []
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 800})
        wrong += [f"at {width} px: {w}" for w in page.evaluate(MISPLACED)]
    return wrong


def test_the_rules_page_refused_keeps_labels_with_fields_and_links_each(
    contexts, live_server, group
):
    page = host_phone(contexts, live_server, f"/groups/{group.slug}/rules/", 360, 740)
    page.fill("#id_most_wins_share", "60")
    page.fill("#id_most_buncos_share", "abc")
    page.get_by_role("button", name="Save prizes").click()
    summary = page.locator("#prizes .error-summary")
    expect(summary.get_by_role("link")).to_have_count(1)
    expect(summary).to_contain_text("Share for most buncos: Enter a whole percent")
    assert not misplaced(page)
    page.fill("#id_most_buncos_share", "33")
    page.get_by_role("button", name="Save prizes").click()
    expect(summary).to_contain_text("The shares add up to 118%: at most 100%.")
    expect(page.locator("#id_most_wins_share")).to_have_attribute("aria-invalid", "true")
    assert not misplaced(page)
    page.fill("#id_bunco_points", "-1")
    page.fill("#id_sets_per_night", "")
    page.fill("#id_marks", "1,1,2")
    page.get_by_role("button", name="Save rules").click()
    knobs = page.locator("#knobs .error-summary")
    expect(knobs.get_by_role("link")).to_have_count(2)
    knobs.get_by_role("link", name="Sets per night: Give the sets per night, 1 to 12.").click()
    expect(page.locator("#id_sets_per_night")).to_be_in_viewport()
    expect(page.locator("#marks-note")).to_contain_text("A set rolls for 1s twice")
    assert not misplaced(page)


def test_the_correct_page_keeps_labels_with_fields(contexts, live_server, group):
    night = make_night(group)
    start_night(night)
    ring_the_bell(night)
    tap(night.tables.get(number=2), 1, "miss")
    path = f"/nights/{night.pk}/live/table/2/?round=1"
    page = host_phone(contexts, live_server, path, 360, 740)
    expect(page.locator("#seat")).to_have_value("2")
    assert not misplaced(page)
