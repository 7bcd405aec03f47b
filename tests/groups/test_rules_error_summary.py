"""A rules, prizes or dues form that refuses what was typed says so at the top of its
section, where the page lands: nothing was saved, and a link to each field in error
(the errors themselves are next to their fields, further down)."""

import html
import re

import pytest
from django.urls import reverse

from bunco_night.groups.models import Group
from tests.groups.test_views import mark_rows, rules_data

pytestmark = pytest.mark.django_db


def summary(response) -> str:
    """The error summary of the page, tags and all, or "" when there is none."""
    found = re.search(r'<div class="error-summary".*?</div>', response.content.decode(), re.S)
    return found[0] if found else ""


def words(text: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", text))).strip()


def test_a_bad_target_is_summed_up_at_the_top_of_scoring_and_seating(client, group):
    before = Group.objects.get(pk=group.pk).rules
    url = reverse("groups:rules_save", args=[group.slug])
    response = client.post(url, rules_data(group, target_teams="-3"))
    assert response.status_code == 200
    assert Group.objects.get(pk=group.pk).rules == before
    page = response.content.decode()
    box = summary(response)
    assert words(box) == (
        "Nothing was saved: fix the field marked below."
        " Target for teams (tables of 4): A target is at least 1."
    )
    assert 'href="#id_target_teams"' in box and 'id="id_target_teams"' in page
    # The summary is the first thing in the section the page lands on (#knobs).
    knobs = page.index('id="knobs"')
    assert knobs < page.index('class="error-summary"') < page.index('id="id_bunco_points"')


def links(box: str) -> list[tuple[str, str]]:
    """Each link of a summary: where it goes, and its words."""
    return [(href, words(text)) for href, text in re.findall(r'<a href="([^"]*)">(.*?)</a>', box)]


def test_every_field_in_error_is_counted_and_linked_with_its_label(client, group):
    url = reverse("groups:rules_save", args=[group.slug])
    response = client.post(
        url,
        rules_data(group, mini_points="5000", sets_per_night="x", **mark_rows(("", "5", "none"))),
    )
    box = summary(response)
    assert words(box).startswith("Nothing was saved: fix the 3 fields marked below.")
    assert links(box) == [
        ("#id_mini_points", "Points for a mini bunco: Points cannot be more than 1000."),
        ("#id_sets_per_night", "Sets per night: Enter a whole number, like 5."),
        ("#marks-help", "Your group's own marks: Row 1: give the mark a name."),
    ]


def prizes_post(client, group, **shares):
    """The prizes form as the page posts it: each prize in ``shares`` ticked, with its
    share and unit ("60" a percent, "$5" dollars)."""
    data = {}
    for code, share in shares.items():
        unit = "dollars" if share.startswith("$") else "percent"
        data |= {f"{code}_on": "on", f"{code}_share": share, f"{code}_unit": unit}
    return client.post(reverse("groups:prizes_save", args=[group.slug]), data)


def test_every_prize_share_in_error_is_linked_with_its_label(client, group):
    before = list(group.prizes.values_list("code", "percent"))
    response = prizes_post(client, group, most_wins="abc", most_buncos="3", fuzzy_die="$x")
    box = summary(response)
    assert words(box).startswith("Nothing was saved: fix the 2 fields marked below.")
    assert links(box) == [
        (
            "#id_most_wins_share",
            "Share for most wins: Enter a whole percent from 0 to 100, like 25.",
        ),
        ("#id_fuzzy_die_share", "Share for fuzzy die: Enter an amount in dollars, like 5 or 5.00."),
    ]
    assert list(group.prizes.values_list("code", "percent")) == before


def test_shares_over_100_percent_say_the_total_and_mark_the_percent_boxes(client, group):
    before = list(group.prizes.values_list("code", "percent"))
    response = prizes_post(
        client,
        group,
        most_wins="60",
        most_buncos="33",
        last_bunco="17",
        fuzzy_die="$5",
        fewest_wins="8",
    )
    assert response.status_code == 200
    box = summary(response)
    assert words(box) == "Nothing was saved. The shares add up to 118%: at most 100%."
    assert "marked below" not in box
    assert links(box) == [("#id_most_wins_share", "The shares add up to 118%: at most 100%.")]
    page = response.content.decode()
    for code in ("most_wins", "most_buncos", "last_bunco", "fewest_wins"):
        box_html = re.search(rf'<input[^>]*id="id_{code}_share"[^>]*>', page)[0]
        assert 'aria-invalid="true"' in box_html, code
    fuzzy = re.search(r'<input[^>]*id="id_fuzzy_die_share"[^>]*>', page)[0]
    assert "aria-invalid" not in fuzzy  # dollars: not part of the percents' total
    assert list(group.prizes.values_list("code", "percent")) == before


def test_a_house_mark_in_error_links_to_the_house_marks(client, group):
    url = reverse("groups:rules_save", args=[group.slug])
    response = client.post(url, rules_data(group, **mark_rows(("", "5", "none"))))
    box = summary(response)
    assert "Row 1: give the mark a name" in words(box)
    assert 'href="#marks-help"' in box


def test_a_saved_form_shows_no_summary(client, group):
    url = reverse("groups:rules_save", args=[group.slug])
    response = client.post(url, rules_data(group, target_teams="15"), follow=True)
    assert summary(response) == ""


def test_bad_dues_are_summed_up_too(client, group):
    response = client.post(reverse("groups:dues_save", args=[group.slug]), {"dues": "lots"})
    assert response.status_code == 200
    box = summary(response)
    assert words(box).startswith("Nothing was saved: fix the field marked below.")
    assert 'href="#id_dues"' in box
