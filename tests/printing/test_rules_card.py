"""The rules card: a group's (or a night's) rules in words on one printed page, the same
words as "How do we play?" (docs/rules.md, every section through bunco_night/rules/explain.py)."""

import pytest
from django.urls import reverse

from bunco_night.groups.prize_forms import prize_choices
from bunco_night.groups.selectors import rules_explained
from bunco_night.groups.services import prizes_set, rules_update
from bunco_night.rules import prizes as prize_rules
from bunco_night.rules.presets import PRESETS, GroupMark
from tests.factories import make_group, make_night, make_user

from .helpers import get_pdf
from .pdftools import page_count, reading_text

pytestmark = pytest.mark.django_db

# What makes a card long: a clock, a group mark, and every prize with every setting.
LONGEST = {
    "house": {"round_minutes": 15, "group_marks": (GroupMark("wipeout", "Wipeout"),)},
    "two_dice": {"round_minutes": 12},
}
EVERY_SETTING = {
    "prize_rounding": prize_rules.ROUND_QUARTERS,
    "prize_leftover": prize_rules.LEFTOVER_NEXT_POT,
    "prize_ties": prize_rules.TIE_SPLIT,
    "substitute_prizes": prize_rules.SUBSTITUTE_FOR_REGULAR,
    "fewest_wins_min_rounds": 3,
}


def words(s: str) -> str:
    return " ".join(s.split())


def every_prize(group) -> None:
    choices = prize_choices(group.rules_obj, [])
    prizes_set(
        group=group,
        prizes=[{"code": c.code, "mark": c.mark, "percent": 100 // len(choices)} for c in choices],
        settings=EVERY_SETTING,
    )


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_night_s_rules_card_is_one_page_with_every_rule_in_words(client, host, preset):
    group = make_group(user=host, rules=preset, regulars=8, substitutes=0)
    if preset in LONGEST:
        rules_update(group=group, changes=LONGEST[preset])
    every_prize(group)
    night = make_night(group, sets=2)
    pdf = get_pdf(client, night, "rules_card")
    assert page_count(pdf) == 1
    card = reading_text(pdf)
    sections = rules_explained(group, night.rules_obj, sets=night.sets)
    assert {s.key for s in sections} >= {"scoring", "round", "prizes"}
    for section in sections:
        assert section.title in card
        for line in section.lines:
            assert words(line) in card, line


def test_the_group_s_rules_card_follows_its_rules_today(client, group):
    url = reverse("printing:group_rules_card", args=[group.slug])
    rules_update(group=group, changes={"round_minutes": 20})
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert f'filename="{group.slug}-rules-card.pdf"' in response["Content-Disposition"]
    card = reading_text(response.content)
    for line in rules_explained(group)[1].lines:  # when a round ends, with the clock
        assert words(line) in card
    assert "20 minutes" in card
    # The group's How we play page and the night's print page link to it.
    page = client.get(reverse("groups:how_we_play", args=[group.slug])).content.decode()
    assert f'href="{url}"' in page
    night = make_night(group)
    page = client.get(reverse("printing:index", args=[night.pk])).content.decode()
    assert f'href="{reverse("printing:rules_card", args=[night.pk])}"' in page


def test_only_the_group_s_hosts_print_its_rules_card(client, group):
    night = make_night(group)
    client.force_login(make_user("someone-else"))
    assert client.get(reverse("printing:group_rules_card", args=[group.slug])).status_code == 404
    assert client.get(reverse("printing:rules_card", args=[night.pk])).status_code == 404
