"""Buck Dice has its own score pad (docs/rules.md section 9.3): a game per page, a column
per player for the running total of each turn, the order they went out in, and the
scoring in the night's own words."""

import re

import pytest

from bunco_night.groups.selectors import rules_explained
from bunco_night.nights.selectors import players_tonight
from bunco_night.printing.documents import BUCK_PAD_COLUMNS, buck_pads
from tests.factories import make_group, make_night

from .helpers import get_pdf
from .pdftools import page_count, reading_text

pytestmark = pytest.mark.django_db


def buck_night(host, players, games):
    group = make_group(user=host, rules="buck_dice", regulars=players, substitutes=0)
    return make_night(group, sets=games)


@pytest.mark.parametrize("players", [5, 14])
def test_a_page_per_game_with_a_column_per_player(client, host, players):
    night = buck_night(host, players, games=2)
    pdf = get_pdf(client, night, "score_pads")
    sheets = -(-players // BUCK_PAD_COLUMNS)  # a big game takes more than one sheet
    assert page_count(pdf) == 2 * sheets
    pad = reading_text(pdf)
    assert "Game 1" in pad and "Game 2" in pad and "Point number" in pad
    for player in players_tonight(night):
        assert len(re.findall(rf"\b{re.escape(player.name)}\b", pad)) == 2  # once a game
    scoring = rules_explained(night.group, night.rules_obj, sets=night.sets)[0]
    for line in scoring.lines:
        assert " ".join(line.split()) in pad, line


def test_blank_buck_dice_pads_have_columns_to_write_names_in(client, host):
    night = buck_night(host, 5, games=3)
    pads = buck_pads(night=night, blank=True)
    assert [p.game for p in pads] == [1, 2, 3]
    assert all(p.names and not any(p.names) for p in pads)
    pdf = get_pdf(client, night, "score_pads", blank="1")
    assert page_count(pdf) == 3
    assert "Regular 1" not in reading_text(pdf)
