"""Round numbers listed more than once (docs/rules.md section 1, **Mark**; section 11.2,
``marks``: die faces 1 to 6, at least one): "1,1,2" is a set that rolls for 1s twice.
The rules allow it, so it is saved as listed, and the page says so next to the box,
and when it is saved, so that a slip of the finger does not pass unseen."""

import html
import re

import pytest
from django.urls import reverse

from bunco_night.groups.models import Group
from tests.groups.test_views import rules_data

pytestmark = pytest.mark.django_db


def said(response) -> list[str]:
    page = response.content.decode()
    return [html.unescape(m) for m in re.findall(r'<li class="[a-z ]*">(.*?)</li>', page)]


def note(response) -> str:
    found = re.search(r'<p class="notice" id="marks-note">(.*?)</p>', response.content.decode())
    return html.unescape(found[1]) if found else ""


def test_a_number_listed_twice_is_saved_and_pointed_out(client, group):
    url = reverse("groups:rules_save", args=[group.slug])
    response = client.post(url, rules_data(group, marks="1,1,2"), follow=True)
    assert Group.objects.get(pk=group.pk).rules_obj.marks == (1, 1, 2)
    words = "A set rolls for 1s twice (rounds 1 and 2). To roll each number once, list it once."
    assert said(response) == [f"Rules saved. Nights planned from now on use them. {words}"]
    assert note(response) == words
    box = re.search(r'<input[^>]*id="id_marks"[^>]*>', response.content.decode())[0]
    assert "marks-note" in box  # the note describes the box


def test_several_numbers_listed_again_are_each_named(client, group):
    url = reverse("groups:rules_save", args=[group.slug])
    response = client.post(url, rules_data(group, marks="6,3,6,3,3,2"), follow=True)
    assert note(response) == (
        "A set rolls for 6s twice (rounds 1 and 3) and 3s three times (rounds 2, 4 and 5). "
        "To roll each number once, list it once."
    )


def test_each_number_once_needs_no_note(client, group):
    url = reverse("groups:rules_save", args=[group.slug])
    response = client.post(url, rules_data(group, marks="2,3,4,5,6"), follow=True)
    assert said(response) == ["Rules saved. Nights planned from now on use them."]
    assert note(response) == ""


def test_no_note_when_a_die_is_rolled_for_each_round(client, group):
    """Section 11.3: with ``draw_mark_with_die`` the list only sets how many rounds a set
    has; what it lists is not rolled for."""
    url = reverse("groups:rules_save", args=[group.slug])
    data = rules_data(group, marks="1,1,2", draw_mark_with_die="on")
    response = client.post(url, data, follow=True)
    assert Group.objects.get(pk=group.pk).rules_obj.draw_mark_with_die
    assert note(response) == ""
