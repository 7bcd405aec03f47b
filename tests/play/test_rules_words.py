"""The prize standings name the night's own rules and counters: a house-rules night is not
"Deluxe", a Deluxe night counts low/high buncos, a card party has no buncos."""

import re

import pytest

from tests.factories import make_group, make_night
from tests.play.helpers import play_round, start_night
from tests.printing.helpers import words

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("rules", "label", "said", "not_said"),
    [
        ("house", "House rules", "Mini buncos", ["Deluxe", "Low/high"]),
        ("deluxe", "Deluxe rules", "Low/high buncos", ["House rules", "Mini buncos"]),
        ("card_1904", "1904 card party", "ranked by wins (punches)", ["Buncos", "buncos"]),
    ],
)
def test_the_standings_page_says_the_night_s_own_rules(client, host, rules, label, said, not_said):
    night = make_night(make_group(user=host, rules=rules, regulars=8, substitutes=0), sets=1)
    start_night(night)
    if rules != "card_1904":
        play_round(night)
    page = words(client.get(f"/nights/{night.pk}/standings/").content.decode())
    standings = page[page.index("Standings #") :]
    assert f"{label}: ranked by" in standings and said in standings
    for words_ in not_said:
        assert not re.search(rf"\b{re.escape(words_)}", standings), words_
